/** Worker thread: owns one panorama cache and checks the jobs it is sent. */
import { parentPort, workerData } from "node:worker_threads";
import sharp from "sharp";
import { PanoStore } from "../src/panos/store.ts";
import { runJobs } from "./check-jobs.ts";
import type { ViewJob } from "./view-jobs.ts";

// One libvips thread per worker: the pool itself provides the parallelism.
sharp.concurrency(1);
const store = new PanoStore(workerData.panos as string, workerData.cacheBytes as number);

parentPort!.on("message", async (msg: { id: number; jobs: ViewJob[]; keepImages: boolean }) => {
  const results = await runJobs(store, msg.jobs, msg.keepImages);
  // Buffers are copied (structured clone); views are ~60 KB, so a copy is cheaper than tracking ownership.
  parentPort!.postMessage({ id: msg.id, results });
});
