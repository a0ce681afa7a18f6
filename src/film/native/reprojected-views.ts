/**
 * In-between views painted straight from their panorama (view-pixels.ts),
 * handed to Skia as pixels: no JPEG encode and decode per frame, and no frame
 * waits for the others to be written. When the painter runs in its worker, a
 * second worker reprojects the views ahead of it into a shared ring
 * (views-ahead.ts), so a view is usually ready when the painter reaches it;
 * a view the ring does not hold (asked for again, or the ring stopped) is
 * made here. Panoramas are decoded whole into a byte-bounded store, the next
 * ones a few views ahead.
 */
import { createCanvas, ImageData, type Canvas } from "@napi-rs/canvas";
import type { DeferredImage } from "../shared/encode-options.ts";
import { ringReader, type AheadRing } from "./views-ahead.ts";
import type { DeferredViews } from "../shared/encode-options.ts";

export interface ReprojectedViews {
  has(src: string): boolean;
  /** The view as a canvas Skia can draw from (the caller's until it releases it). */
  get(src: string): Promise<Canvas>;
  /** A canvas the painter no longer shows: the next view is put into it (no new pixel buffers a frame). */
  release(canvas: Canvas): void;
}

/** Released canvases kept for reuse: a scene shows at most two views (a blend). */
const SPARE_CANVASES = 3;

async function maker(env: string): Promise<{ views: DeferredViews; store: unknown }> {
  const views = await (await import("../../../envs/deferred-views.ts")).deferredViewsOf(env);
  return { views, store: views.store() };
}

export function reprojectedViews(deferred: DeferredImage[], ring?: AheadRing): ReprojectedViews {
  const index = new Map(deferred.map((d, i) => [d.src, i]));
  const ahead = ring ? ringReader(ring) : null;
  // The environment's maker (DeferredImage.env: a video's deferred views are one environment's),
  // loaded on the first view this thread makes (with a ring, usually none): the painter's thread
  // then starts without its decoder (sharp: ~0.1 s of loading). The store is made with it: with a
  // ring, this thread decodes a panorama only for a view the ring missed.
  let made: { views: DeferredViews; store: unknown } | null = null;
  let image: ImageData | null = null;
  const spare: Canvas[] = [];
  let prefetched = -1;
  return {
    has: (src) => index.has(src),
    async get(src) {
      const i = index.get(src)!;
      const d = deferred[i];
      const { width: w, height: h } = d.view;
      if (!image || image.width !== w || image.height !== h) image = new ImageData(new Uint8ClampedArray(w * h * 4), w, h);
      const words = new Uint32Array(image.data.buffer, image.data.byteOffset, w * h);
      if (!ahead?.take(i, words)) {
        made ??= await maker(d.env);
        if (!ahead) {
          made.views.prefetch(made.store, deferred, Math.max(prefetched + 1, i), i + made.views.lookahead);
          prefetched = Math.max(prefetched, i + made.views.lookahead);
        }
        await made.views.pixels(made.store, d, words);
      }
      // Every pixel is opaque and overwritten: a reused canvas keeps nothing of its last view.
      const reused = spare.findIndex((c) => c.width === w && c.height === h);
      const canvas = reused >= 0 ? spare.splice(reused, 1)[0] : createCanvas(w, h);
      canvas.getContext("2d").putImageData(image, 0, 0);
      return canvas;
    },
    release(canvas) {
      if (spare.length < SPARE_CANVASES) spare.push(canvas);
    },
  };
}
