/**
 * Worker thread for the native renderer: paints the frames (paint-frames.ts)
 * and posts them to the main thread, which feeds ffmpeg. It paints at most
 * `credits` frames ahead of the encoder, so memory stays flat.
 */
import { parentPort, workerData } from "node:worker_threads";
import { paintFrames } from "./paint-frames.ts";
import type { VideoSpec } from "../../video/scene/index.ts";
import { errorMessage } from "../../replay/io/errors.ts";

export interface PaintWorkerData {
  spec: VideoSpec;
  publicDir: string;
  holds: boolean;
}

export type PaintWorkerMessage =
  | { type: "new"; frame: number; rgba: Uint8Array }
  | { type: "repeat"; frame: number }
  | { type: "done" }
  | { type: "error"; message: string };

const port = parentPort!;
const data = workerData as PaintWorkerData;
let credits = 0;
let wake: (() => void) | null = null;
port.on("message", (m: { type: "credit"; n: number }) => {
  credits += m.n;
  wake?.();
  wake = null;
});

async function run(): Promise<void> {
  for await (const f of paintFrames(data.spec, { publicDir: data.publicDir, holds: data.holds })) {
    if (f.kind === "repeat") {
      port.postMessage({ type: "repeat", frame: f.frame } satisfies PaintWorkerMessage);
      continue;
    }
    while (credits <= 0) await new Promise<void>((r) => (wake = r));
    credits--;
    // A copy we own, so it can be transferred (Skia's buffer is not ours to give away).
    const rgba = new Uint8Array(f.rgba);
    port.postMessage({ type: "new", frame: f.frame, rgba } satisfies PaintWorkerMessage, [rgba.buffer as ArrayBuffer]);
  }
  port.postMessage({ type: "done" } satisfies PaintWorkerMessage);
}

run().catch((e) => port.postMessage({ type: "error", message: errorMessage(e) } satisfies PaintWorkerMessage));
