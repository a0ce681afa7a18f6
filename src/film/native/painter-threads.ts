/**
 * The native renderer's threads: the painter's worker (paint-worker.ts,
 * which plans the video and paints it, driving ffmpeg itself) and, when there
 * are in-between views, the worker reprojecting them ahead of it
 * (reproject-worker.ts). The painter's is started as early as the command
 * knows it paints (painter-worker.ts: by the CLI before the program loads,
 * else by warmUp in engine.ts before the views are verified), the
 * reprojecting one when the planning starts;
 * both get their jobs by message, so their loading overlaps other work instead
 * of delaying the first frame. On abort the painter is asked to stop (it kills ffmpeg and
 * removes its output) and given a grace period; a painter that dies or does
 * not answer is terminated and its ffmpeg killed from here.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { GeoreplayError, errorMessage } from "../../../replay/io/errors.ts";
import { onAbort } from "../../../replay/io/abort.ts";
import type { PaintWorkerCommand, PaintWorkerMessage, PlanRequest } from "./paint-worker.ts";
import type { FrameRun } from "../shared/frame-runs.ts";
import type { ShownImage } from "../shared/encode-options.ts";
import type { PaintJob } from "./paint-into-encoder.ts";
import type { ReprojectJob, ReprojectWorkerData } from "./reproject-worker.ts";
import { aheadRing } from "./views-ahead.ts";
import { claimPainterWorker } from "./painter-worker.ts";
import { paintsAlike } from "../../../video/spec.ts";

/** How long an aborted painter gets to kill ffmpeg and report back before it is terminated. */
const ABORT_GRACE_MS = 3000;

export interface PainterThreads {
  /** Starts the worker that reprojects the in-between views (the environment `env`'s) ahead of the painter (if not started yet). */
  startReprojector(env: string): void;
  /**
   * Has the painter's worker plan the video (it keeps the lines and the painted frames' scenes
   * for painting). A request like the last one (the same options, a spec that paints alike:
   * paintsAlike) gets the last one's plan: the provisional spec's, laid out while the views were
   * verified, serves the final spec.
   */
  plan(request: PlanRequest): Promise<{ runs: FrameRun[]; shown: ShownImage[] }>;
  /** Hands the planned job over and resolves once the MP4 is complete (rejects with what went wrong). */
  paint(job: PaintJob, onFrame: (frame: number) => void, signal: AbortSignal | undefined): Promise<void>;
  /** Stops both threads, and the painter's ffmpeg should the painter not have cleaned up itself (idempotent). */
  close(): Promise<void>;
}

/** The threads, started; null when running from sources (no built workers: the caller paints itself). */
export function startPainterThreads(): PainterThreads | null {
  const reprojectFile = fileURLToPath(new URL("./reproject-worker.js", import.meta.url));
  const painter = claimPainterWorker();
  if (!painter) return null;
  let reprojector: Worker | null = null;
  // Declared before `closed` is; called only after it is (below, or by encodeVideo).
  const startReprojector = (env: string) => {
    if (reprojector || closed || !existsSync(reprojectFile)) return;
    reprojector = new Worker(reprojectFile, { workerData: { env } satisfies ReprojectWorkerData });
    // A producer that dies only means the painter makes the rest of the views itself.
    reprojector.on("error", () => undefined);
  };

  let ffmpeg: number | undefined;
  let answered = false; // done, or an error after the worker's own cleanup
  let onFrame: (frame: number) => void = () => undefined;
  let failure: Error | null = null;
  // Plans asked for and not answered yet, in order (the worker answers in order); and the last asked for.
  const planning: { resolve(r: Extract<PaintWorkerMessage, { type: "planned" }>): void; reject(e: Error): void }[] = [];
  let lastPlan: { request: PlanRequest; result: Promise<{ runs: FrameRun[]; shown: ShownImage[] }> } | null = null;
  // Listened to from the start: a worker that fails while loading is reported, not thrown.
  const outcome = new Promise<void>((resolve, reject) => {
    const fail = (e: Error) => {
      failure ??= e;
      for (const p of planning.splice(0)) p.reject(e);
      reject(e);
    };
    painter.on("message", (m: PaintWorkerMessage) => {
      if (m.type === "encoder") ffmpeg = m.pid;
      else if (m.type === "frame") onFrame(m.frame);
      else if (m.type === "planned") planning.shift()?.resolve(m);
      else {
        answered = true;
        if (m.type === "done") resolve();
        else fail(new GeoreplayError(m.message));
      }
    });
    painter.on("error", (e) => fail(new GeoreplayError(`the frame painter failed: ${errorMessage(e)}`)));
    painter.on("exit", (code) => fail(new GeoreplayError(`the frame painter stopped (exit code ${code})`)));
  });
  outcome.catch(() => undefined); // awaited by paint(); closed unawaited when planning fails

  let closed: Promise<void> | null = null;
  const close = () =>
    (closed ??= Promise.all([painter.terminate(), (reprojector as Worker | null)?.terminate()]).then(() => {
      // A worker that died or hung without its own cleanup leaves its ffmpeg running (unreaped,
      // so the pid is still its): stop it from here.
      if (!answered && ffmpeg !== undefined) killQuietly(ffmpeg);
    }));

  return {
    startReprojector,
    plan(request) {
      const last = lastPlan;
      if (last && !failure && last.request.holds === request.holds && last.request.images === request.images && paintsAlike(last.request.spec, request.spec))
        return last.result;
      const result = new Promise<{ runs: FrameRun[]; shown: ShownImage[] }>((resolve, reject) => {
        if (failure) return reject(failure);
        planning.push({ resolve: ({ runs, shown }) => resolve({ runs, shown }), reject });
        painter.postMessage({ type: "plan", request } satisfies PaintWorkerCommand);
      });
      lastPlan = { request, result };
      return result;
    },
    async paint(job, frame, signal) {
      onFrame = frame;
      const ring = reprojector && job.deferred.length ? aheadRing(job.deferred) : undefined;
      if (ring) reprojector!.postMessage({ ring, deferred: job.deferred } satisfies ReprojectJob);
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
