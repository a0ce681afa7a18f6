/**
 * One video, natively: frames painted in a worker thread (so this thread's
 * event loop is free to feed ffmpeg), piped raw into libx264, the MP4
 * written beside the target and renamed into place when complete. Cancelling
 * stops the worker and ffmpeg and leaves nothing behind.
 */
import { existsSync, renameSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { GeoreplayError, errorMessage } from "../../../replay/io/errors.ts";
import { onAbort, throwIfAborted } from "../../../replay/io/abort.ts";
import { videoFps, videoFrames, videoSize, type VideoSpec } from "../../../video/compositions.ts";
import { measuringLayouter, type TextPlan } from "../../../video/text/layouter.ts";
import { openRawEncoder, pipedFrames } from "../../ffmpeg/raw-encoder.ts";
import { frameRuns } from "../shared/frame-runs.ts";
import { nodeMeasure } from "../shared/fonts.ts";
import { readPlaces } from "../shared/map-data.ts";
import type { PaintWorkerCredit, PaintWorkerData, PaintWorkerMessage } from "./paint-worker.ts";
import { tempPathFor } from "../../../replay/io/atomic.ts";
import type { EncodeVideoOptions, EncodeVideoResult } from "../shared/encode-options.ts";

type Painted = { frame: number; rgba: Uint8Array };

/** Frames the painter may be ahead of the encoder: shared slots of width x height x 4 bytes. */
const AHEAD = 4;

export async function encodeVideo(spec: VideoSpec, o: EncodeVideoOptions): Promise<EncodeVideoResult> {
  throwIfAborted(o.signal);
  const t0 = performance.now();
  const { width, height } = videoSize(spec);
  const total = videoFrames(spec);
  // Every scene once, up front: the runs of equal frames, and the text plan the painter replays.
  const tx = measuringLayouter(nodeMeasure(), readPlaces);
  const runs = frameRuns(spec, tx, o.holds ?? true);
  const piped = pipedFrames(runs);
  const tmp = tempPathFor(o.out);
  const encoder = openRawEncoder({ out: tmp, width, height, fps: videoFps(spec), runs, preset: o.preset, crf: o.crf });
  const stop = new AbortController();
  const offAbort = onAbort(o.signal, () => stop.abort(o.signal?.reason));
  try {
    for await (const f of frameSource(spec, piped, tx.plan(), o, stop.signal)) {
      await encoder.write(f.rgba);
      o.onProgress?.(Math.min(total, f.frame + 1), total);
    }
    throwIfAborted(o.signal);
    await encoder.finish();
    throwIfAborted(o.signal);
    renameSync(tmp, o.out);
    o.onProgress?.(total, total);
    return { frames: total, painted: runs.length, ms: performance.now() - t0 };
  } catch (e) {
    stop.abort(e);
    await encoder.abort();
    rmSync(tmp, { force: true });
    throwIfAborted(o.signal);
    if (e instanceof GeoreplayError) throw e;
    throw new GeoreplayError(`rendering ${o.out} failed: ${errorMessage(e)}`);
  } finally {
    offAbort();
  }
}

/** Painted frames from the worker when the compiled one exists, else painted on this thread (tests from sources). */
async function* frameSource(spec: VideoSpec, frames: number[], text: TextPlan, o: EncodeVideoOptions, signal: AbortSignal): AsyncGenerator<Painted> {
  const workerFile = fileURLToPath(new URL("./paint-worker.js", import.meta.url));
  if (import.meta.url.endsWith(".js") && existsSync(workerFile)) {
    const { width, height } = videoSize(spec);
    const slots = new SharedArrayBuffer(AHEAD * width * height * 4);
    return yield* workerFrames(workerFile, { spec, frames, publicDir: o.publicDir, text, deferred: o.deferred ?? [], slots, slotCount: AHEAD }, signal);
  }
  // The painter (and the atlas it draws maps from) loads only here: the main thread never needs it otherwise.
  const { paintFrames } = await import("./paint-frames.ts");
  yield* paintFrames(spec, frames, { publicDir: o.publicDir, text, deferred: o.deferred, signal });
}

async function* workerFrames(file: string, data: PaintWorkerData, signal: AbortSignal): AsyncGenerator<Painted> {
  // A large young generation: every frame is a multi-megabyte buffer, and small semi-spaces made
  // the painter spend a third of its time collecting them.
  const worker = new Worker(file, { workerData: data, resourceLimits: { maxYoungGenerationSizeMb: 64 } });
  const queue: PaintWorkerMessage[] = [];
  let wake: (() => void) | null = null;
  let failure: Error | null = null;
  const notify = () => {
    wake?.();
    wake = null;
  };
  worker.on("message", (m: PaintWorkerMessage) => (queue.push(m), notify()));
  worker.on("error", (e) => ((failure = new GeoreplayError(`the frame painter failed: ${errorMessage(e)}`)), notify()));
  worker.on("exit", (code) => {
    if (code !== 0) failure ??= new GeoreplayError(`the frame painter stopped (exit code ${code})`);
    notify();
  });
  const off = onAbort(signal, () => void worker.terminate());
  try {
    for (;;) {
      if (signal.aborted) throw signal.reason;
      const m = queue.shift();
      if (!m) {
        if (failure) throw failure;
        await new Promise<void>((r) => (wake = r));
        continue;
      }
      if (m.type === "done") return;
      if (m.type === "error") throw new GeoreplayError(m.message);
      const bytes = data.slots.byteLength / data.slotCount;
      // The consumer has written this slot to ffmpeg's pipe when it asks for the next frame.
      yield { frame: m.frame, rgba: new Uint8Array(data.slots, m.slot * bytes, bytes) };
      worker.postMessage({ type: "free", slot: m.slot } satisfies PaintWorkerCredit);
    }
  } finally {
    off();
    await worker.terminate();
  }
}
