/**
 * One video, natively: frames painted in a worker thread (so this thread's
 * event loop is free to feed ffmpeg), piped raw into libx264, the MP4
 * written beside the target and renamed into place when complete. Cancelling
 * stops the worker and ffmpeg and leaves nothing behind.
 */
import { existsSync, renameSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { GeoreplayError, errorMessage } from "../../replay/io/errors.ts";
import { onAbort, throwIfAborted } from "../../replay/io/abort.ts";
import { videoFps, videoFrames, videoSize, type VideoSpec } from "../../video/scene/index.ts";
import { openRawEncoder, type X264Preset } from "./encoder.ts";
import { paintFrames, type PaintedFrame } from "./paint-frames.ts";
import type { PaintWorkerData, PaintWorkerMessage } from "./paint-worker.ts";
import { tempFileFor } from "./temp-file.ts";

export interface EncodeVideoOptions {
  publicDir: string;
  /** The MP4 to write (atomically). */
  out: string;
  preset?: X264Preset;
  crf?: number;
  holds?: boolean;
  signal?: AbortSignal;
  /** Video frames encoded so far. */
  onProgress?: (done: number, total: number) => void;
}

export interface EncodeVideoResult {
  frames: number;
  /** Frames painted (the others repeat the previous one). */
  painted: number;
  ms: number;
}

/** Frames ahead of the encoder the painter may be (each is width x height x 4 bytes). */
const AHEAD = 4;

export async function encodeVideo(spec: VideoSpec, o: EncodeVideoOptions): Promise<EncodeVideoResult> {
  throwIfAborted(o.signal);
  const t0 = performance.now();
  const { width, height } = videoSize(spec);
  const total = videoFrames(spec);
  const tmp = tempFileFor(o.out);
  const encoder = openRawEncoder({ out: tmp, width, height, fps: videoFps(spec), preset: o.preset, crf: o.crf });
  const stop = new AbortController();
  const offAbort = onAbort(o.signal, () => stop.abort(o.signal?.reason));
  let painted = 0;
  let done = 0;
  try {
    let last: Uint8Array | null = null;
    for await (const f of frameSource(spec, o, stop.signal)) {
      if (f.kind === "new") {
        last = f.rgba;
        painted++;
      }
      if (!last) throw new GeoreplayError("internal: the first frame was a repeat");
      await encoder.write(last);
      o.onProgress?.(++done, total);
    }
    throwIfAborted(o.signal);
    await encoder.finish();
    throwIfAborted(o.signal);
    renameSync(tmp, o.out);
    return { frames: total, painted, ms: performance.now() - t0 };
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
function frameSource(spec: VideoSpec, o: EncodeVideoOptions, signal: AbortSignal): AsyncIterable<PaintedFrame> {
  const workerFile = fileURLToPath(new URL("./paint-worker.js", import.meta.url));
  if (!(import.meta.url.endsWith(".js") && existsSync(workerFile))) return paintFrames(spec, { publicDir: o.publicDir, holds: o.holds, signal });
  return workerFrames(workerFile, { spec, publicDir: o.publicDir, holds: o.holds ?? true }, signal);
}

async function* workerFrames(file: string, data: PaintWorkerData, signal: AbortSignal): AsyncGenerator<PaintedFrame> {
  // A large young generation: every frame is a multi-megabyte buffer, and small semi-spaces made
  // the painter spend a third of its time collecting them.
  const worker = new Worker(file, { workerData: data, resourceLimits: { maxYoungGenerationSizeMb: 96 } });
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
  worker.postMessage({ type: "credit", n: AHEAD });
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
      if (m.type === "new") {
        yield { kind: "new", frame: m.frame, rgba: m.rgba };
        worker.postMessage({ type: "credit", n: 1 });
      } else yield { kind: "repeat", frame: m.frame };
    }
  } finally {
    off();
    await worker.terminate();
  }
}
