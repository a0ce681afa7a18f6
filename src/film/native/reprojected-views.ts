/**
 * In-between views painted straight from their panorama: the frame
 * generator's reprojection (the same index map and gather that
 * replay/render/frame-file.ts encodes to a JPEG file), handed to Skia as
 * pixels. No JPEG encode and decode per frame, and no frame waits for the
 * others to be written: each is made when the painter reaches it.
 * Panoramas are decoded whole into a byte-bounded store, the next ones a
 * few frames ahead, so the painter rarely waits on a decode.
 */
import { createCanvas, ImageData, type Canvas } from "@napi-rs/canvas";
import { PanoStore } from "../../../replay/panos/store.ts";
import { indexMap } from "../../../replay/render/reproject.ts";
import type { DeferredImage } from "../shared/encode-options.ts";

/** Deferred frames ahead of the one painted whose panorama starts decoding now. */
const LOOKAHEAD = 24;
/** Decoded panoramas kept: a camera path revisits few, and the painter holds little else. */
const STORE_BYTES = 64 * 1024 * 1024;

export interface ReprojectedViews {
  has(src: string): boolean;
  /** The view as a canvas Skia can draw from (the caller's until it releases it). */
  get(src: string): Promise<Canvas>;
  /** A canvas the painter no longer shows: the next view is put into it (no new pixel buffers a frame). */
  release(canvas: Canvas): void;
}

/** Words are read as RGBA bytes only on a little-endian host (every platform Node ships for today). */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** Released canvases kept for reuse: a scene shows at most two views (a blend). */
const SPARE_CANVASES = 3;

export function reprojectedViews(deferred: DeferredImage[]): ReprojectedViews {
  const index = new Map(deferred.map((d, i) => [d.src, i]));
  const store = new PanoStore("", STORE_BYTES);
  let map: Int32Array | null = null;
  let image: ImageData | null = null;
  const spare: Canvas[] = [];
  let prefetched = -1;
  const prefetch = (upTo: number) => {
    for (let i = Math.max(prefetched + 1, 0); i <= Math.min(upTo, deferred.length - 1); i++) {
      // A failed decode is reported when its frame is reached (the promise here is only a head start).
      if (!store.has(deferred[i].pano)) store.get(deferred[i].pano).catch(() => undefined);
      prefetched = i;
    }
  };
  return {
    has: (src) => index.has(src),
    async get(src) {
      const i = index.get(src)!;
      const { pano: path, view } = deferred[i];
      prefetch(i + LOOKAHEAD);
      const pano = await store.get(path);
      const { width: w, height: h } = view;
      if (!map || map.length !== w * h) map = new Int32Array(w * h);
      if (!image || image.width !== w || image.height !== h) image = new ImageData(new Uint8ClampedArray(w * h * 4), w, h);
      const rgba = image.data;
      const base = pano.top * pano.width;
      // The gather writes the canvas's RGBA words itself: no RGB buffer, no widening pass.
      if (LITTLE_ENDIAN)
        indexMap(view, pano.width, pano.height, undefined, false, map, { src: pano.data, base, rgba: new Uint32Array(rgba.buffer, rgba.byteOffset, w * h) });
      else {
        const rgb = new Uint8Array(w * h * 3);
        indexMap(view, pano.width, pano.height, undefined, false, map, { src: pano.data, base, rgb });
        for (let p = 0, q = 0; p < rgb.length; p += 3, q += 4) {
          rgba[q] = rgb[p];
          rgba[q + 1] = rgb[p + 1];
          rgba[q + 2] = rgb[p + 2];
          rgba[q + 3] = 255;
        }
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
