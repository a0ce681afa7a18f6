/**
 * The native painter loop: the scene of each requested frame, painted with
 * the one painter on a Skia canvas and handed over as raw RGBA. Lines come
 * from the text plan laid out before painting, so every frame of a video
 * uses the same lines.
 */
// The environments' compositions, registered before any scene is built.
import "../../../envs/compositions.ts";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { createCanvas, loadImage, Path2D, type Canvas, type Image } from "@napi-rs/canvas";
import { paint, type Ctx } from "../../../video/paint.ts";
import { sceneAt, videoSize, type VideoSpec } from "../../../video/compositions.ts";
import type { Scene } from "../../../video/scene/types.ts";
import { planLayouter, type TextPlan } from "../../../video/text/layouter.ts";
import { nodeMeasure } from "../shared/fonts.ts";
import { GeoreplayError } from "../../../replay/io/errors.ts";
import { readMapCell, readPlaces } from "../shared/map-data.ts";
import type { DeferredImage } from "../shared/encode-options.ts";
import { reprojectedViews } from "./reprojected-views.ts";
import type { AheadRing } from "./views-ahead.ts";

export interface PaintOptions {
  /** Where the scenes' frame files are (each image's src is relative to it). */
  publicDir: string;
  text: TextPlan;
  /** In-between views to reproject from their panorama (no frame file), in frame order. */
  deferred?: DeferredImage[];
  /** Where another thread puts the deferred views ahead of the painter (absent: made on the painter's thread). */
  ahead?: AheadRing;
  signal?: AbortSignal;
  /** Scenes already built while planning, by frame (the others are built here); each is taken out once painted. */
  scenes?: Map<number, Scene>;
}

export async function* paintFrames(spec: VideoSpec, frames: number[], o: PaintOptions): AsyncGenerator<{ frame: number; rgba: Uint8Array }> {
  const { width, height } = videoSize(spec);
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext("2d") as unknown as Ctx;
  const tx = planLayouter(o.text, nodeMeasure(), undefined, readPlaces);
  const images = new Map<string, Image | Canvas>();
  const views = reprojectedViews(o.deferred ?? [], o.ahead);
  const env = {
    image: (src: string) => (images.get(src) as unknown as CanvasImageSource) ?? null,
    path2d: () => new Path2D() as unknown as globalThis.Path2D,
    cell: readMapCell,
  };
  for (const frame of frames) {
    if (o.signal?.aborted) throw o.signal.reason;
    const planned = o.scenes?.get(frame);
    o.scenes?.delete(frame); // painted once: its memory goes with the next collection
    const scene = planned ?? sceneAt(spec, frame, tx);
    // Decode this scene's frame files; keep only what it shows (frames move on, they rarely come back).
    const wanted = new Set<string>();
    for (const p of scene.prims) {
      if (p.t !== "image") continue;
      wanted.add(p.src);
      if (!images.has(p.src)) images.set(p.src, views.has(p.src) ? await views.get(p.src) : await decode(join(o.publicDir, p.src)));
    }
    for (const [k, img] of images) {
      if (wanted.has(k)) continue;
      images.delete(k);
      if (views.has(k)) views.release(img as Canvas);
    }
    paint(ctx, scene, env);
    yield { frame, rgba: canvas.data() };
  }
}

async function decode(path: string): Promise<Image> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (e) {
    throw new GeoreplayError(`${path}: cannot read a frame file (${(e as Error).message})`);
  }
  // Skia draws what it can of a cut-off file: refuse it instead of filming grey half-frames.
  if (truncated(bytes)) throw new GeoreplayError(`${path}: not a decodable image (truncated: it does not end where its format ends)`);
  try {
    return await loadImage(bytes);
  } catch (e) {
    throw new GeoreplayError(`${path}: not a decodable image (${(e as Error).message})`);
  }
}

/** A JPEG must end with its EOI marker, a PNG with its IEND chunk (the only formats frame files come in). */
function truncated(b: Buffer): boolean {
  if (b.length >= 2 && b[0] === 0xff && b[1] === 0xd8) {
    // Some writers pad after EOI: look for it near the end.
    const tail = b.subarray(Math.max(0, b.length - 64));
    return !tail.includes(Buffer.from([0xff, 0xd9]));
  }
  if (b.length >= 8 && b.toString("latin1", 1, 4) === "PNG") return b.length < 12 || b.toString("latin1", b.length - 8, b.length - 4) !== "IEND";
  return false;
}
