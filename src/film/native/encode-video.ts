/**
 * One video, natively: frames painted in a worker thread that writes them
 * raw into libx264 itself (paint-into-encoder.ts), the MP4 written beside
 * the target and renamed into place when complete. Cancelling stops the
 * worker and ffmpeg and leaves nothing behind.
 */
import { existsSync, renameSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { GeoreplayError, errorMessage } from "../../../replay/io/errors.ts";
import { onAbort, throwIfAborted } from "../../../replay/io/abort.ts";
import { videoFps, videoFrames, videoSize, type VideoSpec } from "../../../video/compositions.ts";
import { measuringLayouter } from "../../../video/text/layouter.ts";
import { pipedFrames } from "../../ffmpeg/raw-encoder.ts";
import { frameRuns } from "../shared/frame-runs.ts";
import { nodeMeasure } from "../shared/fonts.ts";
import { readPlaces } from "../shared/map-data.ts";
import type { PaintWorkerCommand, PaintWorkerMessage } from "./paint-worker.ts";
import type { PaintJob } from "./paint-into-encoder.ts";
import { tempPathFor } from "../../../replay/io/atomic.ts";
import type { EncodeVideoOptions, EncodeVideoResult } from "../shared/encode-options.ts";

/** How long an aborted painter gets to kill ffmpeg and report back before it is terminated. */
const ABORT_GRACE_MS = 3000;

export async function encodeVideo(spec: VideoSpec, o: EncodeVideoOptions): Promise<EncodeVideoResult> {
  throwIfAborted(o.signal);
  const t0 = performance.now();
  const { width, height } = videoSize(spec);
  const total = videoFrames(spec);
  // Every scene once, up front: the runs of equal frames, and the text plan the painter replays.
  const tx = measuringLayouter(nodeMeasure(), readPlaces);
  const runs = frameRuns(spec, tx, o.holds ?? true);
  const tmp = tempPathFor(o.out);
  const job: PaintJob = {
    spec,
    frames: pipedFrames(runs),
    publicDir: o.publicDir,
    text: tx.plan(),
    deferred: o.deferred ?? [],
    encoder: { out: tmp, width, height, fps: videoFps(spec), runs, preset: o.preset, crf: o.crf },
  };
  const onFrame = (frame: number) => o.onProgress?.(Math.min(total, frame + 1), total);
  try {
    const workerFile = fileURLToPath(new URL("./paint-worker.js", import.meta.url));
    if (import.meta.url.endsWith(".js") && existsSync(workerFile)) await inWorker(workerFile, job, onFrame, o.signal);
    else {
      // Tests from sources paint on this thread; the painter (and its map atlas) loads only here.
      const { paintIntoEncoder } = await import("./paint-into-encoder.ts");
      await paintIntoEncoder(job, { signal: o.signal, onFrame });
    }
    throwIfAborted(o.signal);
    renameSync(tmp, o.out);
    o.onProgress?.(total, total);
    return { frames: total, painted: runs.length, ms: performance.now() - t0 };
  } catch (e) {
    rmSync(tmp, { force: true });
    throwIfAborted(o.signal);
    if (e instanceof GeoreplayError) throw e;
    throw new GeoreplayError(`rendering ${o.out} failed: ${errorMessage(e)}`);
  }
}

/**
 * Runs the job in the painter's worker until it reports done. On abort the worker is asked to
 * stop (it kills ffmpeg and removes its output) and given a grace period; a worker that dies or
 * does not answer is terminated and its ffmpeg killed from here.
 */
async function inWorker(file: string, job: PaintJob, onFrame: (frame: number) => void, signal: AbortSignal | undefined): Promise<void> {
  // A large young generation: every frame is a multi-megabyte buffer, and small semi-spaces made
  // the painter spend a third of its time collecting them.
  const worker = new Worker(file, { workerData: job, resourceLimits: { maxYoungGenerationSizeMb: 64 } });
  let ffmpeg: number | undefined;
  let answered = false; // done, or an error after the worker's own cleanup
  const outcome = new Promise<void>((resolve, reject) => {
    worker.on("message", (m: PaintWorkerMessage) => {
      if (m.type === "encoder") ffmpeg = m.pid;
      else if (m.type === "frame") onFrame(m.frame);
      else {
        answered = true;
        if (m.type === "done") resolve();
        else reject(new GeoreplayError(m.message));
      }
    });
    worker.on("error", (e) => reject(new GeoreplayError(`the frame painter failed: ${errorMessage(e)}`)));
    worker.on("exit", (code) => reject(new GeoreplayError(`the frame painter stopped (exit code ${code})`)));
  });
  let grace: ReturnType<typeof setTimeout> | undefined;
  const off = onAbort(signal, () => {
    worker.postMessage({ type: "abort" } satisfies PaintWorkerCommand);
    grace = setTimeout(() => void worker.terminate(), ABORT_GRACE_MS);
  });
  try {
    await outcome;
  } finally {
    off();
    clearTimeout(grace);
    await worker.terminate();
    // A worker that died or hung without its own cleanup leaves its ffmpeg running (unreaped, so
    // the pid is still its): stop it from here.
    if (!answered && ffmpeg !== undefined) killQuietly(ffmpeg);
  }
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    /* already gone */
  }
}
