/**
 * Worker thread: renders, encodes and hashes the views it is sent. Panoramas
 * arrive already decoded, in SharedArrayBuffers owned by the main thread's
 * cache, so each panorama is decoded once for the whole pool.
 */
import { parentPort } from "node:worker_threads";
import sharp from "sharp";
import { PanoError, type Pano } from "../panos/store.ts";
import { runJobs } from "./check-jobs.ts";
import type { ViewJob } from "./view-jobs.ts";

// One libvips thread per worker: the pool itself provides the parallelism.
sharp.concurrency(1);

export type SharedPano = { path: string; width: number; height: number; data: SharedArrayBuffer } | { path: string; error: string };

parentPort!.on("message", async (msg: { id: number; jobs: ViewJob[]; keepImages: boolean; panos: SharedPano[] }) => {
  const panos = new Map(msg.panos.map((p) => [p.path, p]));
  const getPano = async (path: string): Promise<Pano> => {
    const p = panos.get(path);
    if (!p) throw new PanoError(`panorama ${path}: not sent to the worker`);
    if ("error" in p) throw new PanoError(p.error);
    return { path, width: p.width, height: p.height, data: new Uint8Array(p.data) };
  };
  const results = await runJobs(getPano, msg.jobs, msg.keepImages);
  // JPEGs are copied (structured clone); ~60 KB each, cheaper than tracking ownership.
  parentPort!.postMessage({ id: msg.id, results });
});
