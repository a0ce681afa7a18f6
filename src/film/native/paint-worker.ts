/**
 * Worker thread for the native renderer: paints the video's frames and
 * writes them into ffmpeg itself (paint-into-encoder.ts), telling the main
 * thread only how far it got. The main thread's `abort` message kills ffmpeg
 * and removes its output before the worker reports back.
 */
import { parentPort } from "node:worker_threads";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { paintIntoEncoder, type PaintJob } from "./paint-into-encoder.ts";
import { errorMessage } from "../../../replay/io/errors.ts";
import { warmFonts } from "../shared/fonts.ts";
import type { FrameRun } from "../shared/frame-runs.ts";
import type { ShownImage } from "../shared/encode-options.ts";
import type { TextPlan } from "../../../video/text/layouter.ts";
import type { VideoSpec } from "../../../video/spec.ts";
import { planVideo } from "./plan-video.ts";
import type { Scene } from "../../../video/scene/types.ts";
import type { AheadRing } from "./views-ahead.ts";

/** The job, and the ring another worker (started beside this one) reprojects its in-between views into. */
export type PaintWorkerData = PaintJob & { ring?: AheadRing };

/** What the worker plans for the main thread: the video's runs of equal frames (frame-runs.ts). */
export interface PlanRequest {
  spec: VideoSpec;
  holds: boolean;
  /** Report the image sources in the order frames first show them (the order the views are reprojected in). */
  images: boolean;
}

/** What the worker reports: the plan it was asked for; ffmpeg's pid, then each frame ffmpeg has taken, then done or the error. */
export type PaintWorkerMessage =
  | { type: "planned"; runs: FrameRun[]; shown: ShownImage[] }
  | { type: "encoder"; pid: number }
  | { type: "frame"; frame: number }
  | { type: "done" }
  | { type: "error"; message: string };
/** The main thread has the worker plan the video, then hands over the job built from that plan, or stops the render. */
export type PaintWorkerCommand = { type: "plan"; request: PlanRequest } | { type: "job"; job: PaintWorkerData } | { type: "abort" };

const port = parentPort!;
const stop = new AbortController();
// While the main thread verifies and plans: the fonts' registration (~25-90 ms here) is then done
// when the job comes, and their faces loaded for the whole process (the planning measures with
// them). A failure is left for the job to report (its painter registers again and throws).
try {
  warmFonts();
} catch {
  /* reported by the job */
}
// What this thread planned: the lines it laid out and the scenes of the frames it will paint. Planned
// here rather than on the main thread, the scenes are built by code this thread's JIT then has warm,
// and the painted frames' scenes are not built twice.
let planned: { text: TextPlan; scenes: Map<number, Scene> } | null = null;
port.on("message", (m: PaintWorkerCommand) => {
  const failed = (e: unknown) => port.postMessage({ type: "error", message: errorMessage(e) } satisfies PaintWorkerMessage);
  if (m.type === "abort") stop.abort(new Error("aborted"));
  else if (m.type === "plan") {
    try {
      port.postMessage({ type: "planned", ...plan(m.request) } satisfies PaintWorkerMessage);
    } catch (e) {
      failed(e);
    }
  } else run(m.job).catch(failed);
});

function plan(r: PlanRequest): { runs: FrameRun[]; shown: ShownImage[] } {
  const scenes = new Map<number, Scene>();
  const { runs, shown, text } = planVideo(r.spec, r.holds, r.images, (f, scene) => scenes.set(f, scene));
  planned = { text, scenes };
  return { runs, shown };
}

/**
 * Each frame's pixels come out of Skia as a fresh multi-megabyte buffer that
 * only a garbage collection frees, and then only when the event loop next
 * turns (Node runs native finalizers from the loop). Left alone, collections
 * came too late (a frame grew to ~25 ms) and the freed buffers piled up
 * (memory grew ~4 MB a frame). A young-generation collection after every
 * frame, followed by one turn of the loop, keeps the painter fast and flat:
 * each frame's buffer is freed before the next is copied out, so Skia copies
 * into memory still in the cache (Trieste, 8 interleaved painter-only runs:
 * 0.39 CPU-s and 0.24 s less than collecting every fourth frame, and ~25 MB
 * less at the peak). The flag only makes `gc` available to the new context
 * it is read from.
 */
function minorGc(): () => Promise<void> {
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as (o?: { type: "minor" | "major" }) => void;
  return () => {
    gc({ type: "minor" });
    return new Promise((r) => setImmediate(r));
  };
}

async function run(job: PaintWorkerData): Promise<void> {
  const own = planned;
  planned = null;
  await paintIntoEncoder(own ? { ...job, text: own.text } : job, {
    scenes: own?.scenes,
    ahead: job.ring,
    signal: stop.signal,
    breather: minorGc(),
    onEncoder: (pid) => port.postMessage({ type: "encoder", pid } satisfies PaintWorkerMessage),
    onFrame: (frame) => port.postMessage({ type: "frame", frame } satisfies PaintWorkerMessage),
  });
  port.postMessage({ type: "done" } satisfies PaintWorkerMessage);
}
