/**
 * The native frame loop: for every video frame, the scene; a frame whose
 * scene equals the previous one's is a repeat (holds, a side that has
 * guessed, the settled score card) and is not painted again; every other
 * frame is painted with the one painter on a Skia canvas and handed over as
 * raw RGBA.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { createCanvas, loadImage, Path2D, type Image } from "@napi-rs/canvas";
import { paint, type Ctx } from "../../video/paint.ts";
import { sceneAt, videoFrames, videoSize, type VideoSpec } from "../../video/scene/index.ts";
import { measuringLayouter } from "../../video/scene/text.ts";
import { nodeMeasure } from "./fonts.ts";
import { GeoreplayError } from "../../replay/io/errors.ts";

export type PaintedFrame = { kind: "new"; frame: number; rgba: Uint8Array } | { kind: "repeat"; frame: number };

export interface PaintOptions {
  /** Where the scenes' frame files are (each image's src is relative to it). */
  publicDir: string;
  /** false: paint every frame, even repeats (the reference hold-aware output is checked against). */
  holds?: boolean;
  signal?: AbortSignal;
}

export async function* paintFrames(spec: VideoSpec, o: PaintOptions): AsyncGenerator<PaintedFrame> {
  const { width, height } = videoSize(spec);
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext("2d") as unknown as Ctx;
  const tx = measuringLayouter(nodeMeasure());
  const images = new Map<string, Image>();
  const total = videoFrames(spec);
  let prev: string | null = null;
  for (let frame = 0; frame < total; frame++) {
    if (o.signal?.aborted) throw o.signal.reason;
    const scene = sceneAt(spec, frame, tx);
    const key = o.holds === false ? null : JSON.stringify(scene);
    if (key !== null && key === prev) {
      yield { kind: "repeat", frame };
      continue;
    }
    prev = key;
    // Decode this scene's frame files; keep only what it shows (frames move on, they rarely come back).
    const wanted = new Set<string>();
    for (const p of scene.prims) {
      if (p.t !== "image") continue;
      wanted.add(p.src);
      if (!images.has(p.src)) images.set(p.src, await decode(join(o.publicDir, p.src)));
    }
    for (const k of images.keys()) if (!wanted.has(k)) images.delete(k);
    paint(ctx, scene, { image: (src) => (images.get(src) as unknown as CanvasImageSource) ?? null, path2d: () => new Path2D() as unknown as globalThis.Path2D });
    yield { kind: "new", frame, rgba: canvas.data() };
  }
}

async function decode(path: string): Promise<Image> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (e) {
    throw new GeoreplayError(`${path}: cannot read a frame file (${(e as Error).message})`);
  }
  try {
    return await loadImage(bytes);
  } catch (e) {
    throw new GeoreplayError(`${path}: not a decodable image (${(e as Error).message})`);
  }
}
