/** Worker thread for `georeplay frames`: renders the frame files it is sent, one at a time. */
import { parentPort, workerData } from "node:worker_threads";
import sharp from "sharp";
import { PanoStore } from "../panos/store.ts";
import { renderFrameFile, type RenderTask } from "./frame-render.ts";

// One libvips thread per worker: the workers themselves use the cores.
sharp.concurrency(1);
const store = new PanoStore(workerData.panos as string, workerData.cacheBytes as number);

parentPort!.on("message", async (msg: { id: number; task: RenderTask }) => {
  try {
    parentPort!.postMessage({ id: msg.id, sha256: await renderFrameFile(store, msg.task) });
  } catch (e) {
    parentPort!.postMessage({ id: msg.id, error: (e as Error).message });
  }
});
