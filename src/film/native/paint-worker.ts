/**
 * Worker thread for the native renderer: paints the requested frames
 * (paint-frames.ts) into a few shared slots and tells the main thread, which
 * feeds ffmpeg from the slot and hands it back. Nothing is allocated or
 * copied across threads per frame beyond one copy into the slot, and the
 * painter is at most `slots` frames ahead of the encoder.
 */
import { parentPort, workerData, Worker } from "node:worker_threads";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { inPaintOrder, paintFrames } from "./paint-frames.ts";
import type { VideoSpec } from "../../../video/compositions.ts";
import type { TextPlan } from "../../../video/text/layouter.ts";
import type { DeferredImage } from "../shared/encode-options.ts";
import { errorMessage } from "../../../replay/io/errors.ts";
import { aheadRing, type AheadRing } from "./views-ahead.ts";

export interface PaintWorkerData {
  spec: VideoSpec;
  frames: number[];
  publicDir: string;
  text: TextPlan;
  deferred: DeferredImage[];
  /** `slotCount` slots of width x height x 4 bytes each. */
  slots: SharedArrayBuffer;
  slotCount: number;
}

export type PaintWorkerMessage = { type: "frame"; frame: number; slot: number } | { type: "done" } | { type: "error"; message: string };
/** The main thread hands a slot back once ffmpeg's pipe has taken its bytes. */
export type PaintWorkerCredit = { type: "free"; slot: number };

const port = parentPort!;
const data = workerData as PaintWorkerData;
const free: number[] = Array.from({ length: data.slotCount }, (_, i) => i);
const slotBytes = data.slots.byteLength / data.slotCount;
let wake: (() => void) | null = null;
port.on("message", (m: PaintWorkerCredit) => {
  free.push(m.slot);
  wake?.();
  wake = null;
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
function minorGc(): () => void {
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as (o?: { type: "minor" | "major" }) => void;
  return () => gc({ type: "minor" });
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
  const deferred = data.deferred.length ? inPaintOrder(data.spec, data.frames, data.text, data.deferred) : [];
  const ahead = startReprojecting(deferred);
  try {
    await paintAll(deferred, ahead?.ring);
  } finally {
    await ahead?.worker.terminate();
  }
  port.postMessage({ type: "done" } satisfies PaintWorkerMessage);
}

async function paintAll(deferred: DeferredImage[], ring: AheadRing | undefined): Promise<void> {
  const collect = minorGc();
  let painted = 0;
  for await (const f of paintFrames(data.spec, data.frames, { publicDir: data.publicDir, text: data.text, deferred, ahead: ring })) {
    if (++painted % 4 === 0) {
      collect();
      await new Promise((r) => setImmediate(r));
    }
    while (free.length === 0) await new Promise<void>((r) => (wake = r));
    const slot = free.shift()!;
    new Uint8Array(data.slots, slot * slotBytes, slotBytes).set(f.rgba);
    port.postMessage({ type: "frame", frame: f.frame, slot } satisfies PaintWorkerMessage);
  }
}

run().catch((e) => port.postMessage({ type: "error", message: errorMessage(e) } satisfies PaintWorkerMessage));
