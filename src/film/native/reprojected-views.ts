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
import { viewBuffers, type ViewBuffers } from "../../../replay/render/view.ts";
import type { DeferredImage } from "../shared/encode-options.ts";

/** Deferred frames ahead of the one painted whose panorama starts decoding now. */
const LOOKAHEAD = 24;
/** Decoded panoramas kept: a camera path revisits few, and the painter holds little else. */
const STORE_BYTES = 64 * 1024 * 1024;

export interface ReprojectedViews {
  has(src: string): boolean;
  /** The view as a canvas Skia can draw from. */
  get(src: string): Promise<Canvas>;
}

export function reprojectedViews(deferred: DeferredImage[]): ReprojectedViews {
  const index = new Map(deferred.map((d, i) => [d.src, i]));
  const store = new PanoStore("", STORE_BYTES);
  let buffers: ViewBuffers | null = null;
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
      if (!buffers || buffers.map.length !== w * h) buffers = viewBuffers(w, h);
      indexMap(view, pano.width, pano.height, undefined, false, buffers.map, { src: pano.data, base: pano.top * pano.width, rgb: buffers.rgb });
      const rgba = new Uint8ClampedArray(w * h * 4);
      const rgb = buffers.rgb;
      for (let p = 0, q = 0; p < rgb.length; p += 3, q += 4) {
        rgba[q] = rgb[p];
        rgba[q + 1] = rgb[p + 1];
        rgba[q + 2] = rgb[p + 2];
        rgba[q + 3] = 255;
      }
      const canvas = createCanvas(w, h);
      canvas.getContext("2d").putImageData(new ImageData(rgba, w, h), 0, 0);
      return canvas;
    },
  };
}
