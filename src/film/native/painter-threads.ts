/**
 * The native renderer's threads: the painter's worker (paint-worker.ts,
 * which also drives ffmpeg) and, when there are in-between views, the worker
 * reprojecting them ahead of it (reproject-worker.ts). Both are started
 * before the video is planned and handed their jobs by message once it is:
 * their loading overlaps the planning on the main thread instead of delaying
 * the first frame. On abort the painter is asked to stop (it kills ffmpeg and
 * removes its output) and given a grace period; a painter that dies or does
 * not answer is terminated and its ffmpeg killed from here.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { GeoreplayError, errorMessage } from "../../../replay/io/errors.ts";
import { onAbort } from "../../../replay/io/abort.ts";
import type { PaintWorkerCommand, PaintWorkerMessage } from "./paint-worker.ts";
import type { PaintJob } from "./paint-into-encoder.ts";
import type { ReprojectJob } from "./reproject-worker.ts";
import { aheadRing } from "./views-ahead.ts";

/** How long an aborted painter gets to kill ffmpeg and report back before it is terminated. */
const ABORT_GRACE_MS = 3000;

export interface PainterThreads {
  /** Hands the planned job over and resolves once the MP4 is complete (rejects with what went wrong). */
  paint(job: PaintJob, onFrame: (frame: number) => void, signal: AbortSignal | undefined): Promise<void>;
  /** Stops both threads, and the painter's ffmpeg should the painter not have cleaned up itself (idempotent). */
  close(): Promise<void>;
}

/** The threads, started; null when running from sources (no built workers: the caller paints itself). */
export function startPainterThreads(reprojecting: boolean): PainterThreads | null {
  const painterFile = fileURLToPath(new URL("./paint-worker.js", import.meta.url));
  const reprojectFile = fileURLToPath(new URL("./reproject-worker.js", import.meta.url));
  if (!import.meta.url.endsWith(".js") || !existsSync(painterFile)) return null;
  // A large young generation: every frame is a multi-megabyte buffer, and small semi-spaces made
  // the painter spend a third of its time collecting them.
  const painter = new Worker(painterFile, { resourceLimits: { maxYoungGenerationSizeMb: 64 } });
  const reprojector = reprojecting && existsSync(reprojectFile) ? new Worker(reprojectFile) : null;
  // A producer that dies only means the painter makes the rest of the views itself.
  reprojector?.on("error", () => undefined);

  let ffmpeg: number | undefined;
  let answered = false; // done, or an error after the worker's own cleanup
  let onFrame: (frame: number) => void = () => undefined;
  // Listened to from the start: a worker that fails while loading is reported, not thrown.
  const outcome = new Promise<void>((resolve, reject) => {
    painter.on("message", (m: PaintWorkerMessage) => {
      if (m.type === "encoder") ffmpeg = m.pid;
      else if (m.type === "frame") onFrame(m.frame);
      else {
        answered = true;
        if (m.type === "done") resolve();
        else reject(new GeoreplayError(m.message));
      }
    });
    painter.on("error", (e) => reject(new GeoreplayError(`the frame painter failed: ${errorMessage(e)}`)));
    painter.on("exit", (code) => reject(new GeoreplayError(`the frame painter stopped (exit code ${code})`)));
  });
  outcome.catch(() => undefined); // awaited by paint(); closed unawaited when planning fails

  let closed: Promise<void> | null = null;
  const close = () =>
    (closed ??= Promise.all([painter.terminate(), reprojector?.terminate()]).then(() => {
      // A worker that died or hung without its own cleanup leaves its ffmpeg running (unreaped,
      // so the pid is still its): stop it from here.
      if (!answered && ffmpeg !== undefined) killQuietly(ffmpeg);
    }));

  return {
    async paint(job, frame, signal) {
      onFrame = frame;
      const ring = reprojector && job.deferred.length ? aheadRing(job.deferred) : undefined;
      if (ring) reprojector!.postMessage({ ring, deferred: job.deferred } satisfies ReprojectJob);
      else void reprojector?.terminate(); // started early (warmUp), but this video has no in-between views
      painter.postMessage({ type: "job", job: { ...job, ring } } satisfies PaintWorkerCommand);
      let grace: ReturnType<typeof setTimeout> | undefined;
      const off = onAbort(signal, () => {
        painter.postMessage({ type: "abort" } satisfies PaintWorkerCommand);
        grace = setTimeout(() => void painter.terminate(), ABORT_GRACE_MS);
      });
      try {
        await outcome;
      } finally {
        off();
        clearTimeout(grace);
        await close();
      }
    },
    close,
  };
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    /* already gone */
  }
}
