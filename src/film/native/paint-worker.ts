/**
 * Worker thread for the native renderer: paints the video's frames and
 * writes them into ffmpeg itself (paint-into-encoder.ts), telling the main
 * thread only how far it got. The main thread's `abort` message kills ffmpeg
 * and removes its output before the worker reports back.
 */
import { parentPort, workerData, Worker } from "node:worker_threads";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { inPaintOrder } from "./paint-frames.ts";
import { paintIntoEncoder, type PaintJob } from "./paint-into-encoder.ts";
import type { DeferredImage } from "../shared/encode-options.ts";
import { errorMessage } from "../../../replay/io/errors.ts";
import { aheadRing, type AheadRing } from "./views-ahead.ts";

export type PaintWorkerData = PaintJob;

/** What the worker reports: ffmpeg's pid first, then each frame ffmpeg has taken, then done or the error. */
export type PaintWorkerMessage = { type: "encoder"; pid: number } | { type: "frame"; frame: number } | { type: "done" } | { type: "error"; message: string };
/** The main thread stops the render. */
export type PaintWorkerCommand = { type: "abort" };

const port = parentPort!;
const job = workerData as PaintWorkerData;
const stop = new AbortController();
port.on("message", (m: PaintWorkerCommand) => {
  if (m.type === "abort") stop.abort(new Error("aborted"));
});

/**
 * Each frame's pixels come out of Skia as a fresh multi-megabyte buffer that
 * only a garbage collection frees, and then only when the event loop next
 * turns (Node runs native finalizers from the loop). Left alone, collections
 * came too late (a frame grew to ~25 ms) and the freed buffers piled up
 * (memory grew ~4 MB a frame). A young-generation collection every few frames
 * followed by one turn of the loop (measured: about 1 ms a frame) keeps the
 * painter fast and flat. The flag only makes `gc` available to the new
 * context it is read from.
 */
function minorGc(): () => Promise<void> {
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as (o?: { type: "minor" | "major" }) => void;
  return () => {
    gc({ type: "minor" });
    return new Promise((r) => setImmediate(r));
  };
}

/**
 * A thread reprojecting the in-between views ahead of the painter (reproject-worker.ts): painting
 * frame n and reprojecting frame n+1 at once. None when there is nothing to reproject.
 */
function startReprojecting(deferred: DeferredImage[]): { ring: AheadRing; worker: Worker } | null {
  const file = fileURLToPath(new URL("./reproject-worker.js", import.meta.url));
  if (deferred.length === 0 || !existsSync(file)) return null;
  const ring = aheadRing(deferred);
  const worker = new Worker(file, { workerData: { ring, deferred } });
  // A producer that dies only means the painter makes the rest of the views itself.
  worker.on("error", () => undefined);
  return { ring, worker };
}

async function run(): Promise<void> {
  // The ring hands views over in its own order: the painter's.
  const deferred = job.deferred.length ? inPaintOrder(job.spec, job.frames, job.text, job.deferred) : [];
  const ahead = startReprojecting(deferred);
  try {
    await paintIntoEncoder(
      { ...job, deferred },
      {
        ahead: ahead?.ring,
        signal: stop.signal,
        breather: minorGc(),
        onEncoder: (pid) => port.postMessage({ type: "encoder", pid } satisfies PaintWorkerMessage),
        onFrame: (frame) => port.postMessage({ type: "frame", frame } satisfies PaintWorkerMessage),
      },
    );
  } finally {
    await ahead?.worker.terminate();
  }
  port.postMessage({ type: "done" } satisfies PaintWorkerMessage);
}

run().catch((e) => port.postMessage({ type: "error", message: errorMessage(e) } satisfies PaintWorkerMessage));
