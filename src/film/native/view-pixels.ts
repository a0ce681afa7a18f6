/**
 * One in-between view's pixels, as opaque RGBA words, straight from its
 * panorama: the frame generator's reprojection (the index map and gather that
 * replay/render/frame-file.ts encodes to a JPEG file) without the file. Used
 * by the painter's own thread and by the thread that reprojects ahead of it.
 */
import type { PanoStore } from "../../../replay/panos/store.ts";
import { indexMap } from "../../../replay/render/reproject.ts";
import type { DeferredImage } from "../shared/encode-options.ts";

/** Views ahead of the one being made whose panorama starts decoding now. */
export const LOOKAHEAD = 24;
/** Decoded panoramas kept per thread: a camera path revisits few, and the painter holds little else. */
export const STORE_BYTES = 64 * 1024 * 1024;

/** Words are read as RGBA bytes only on a little-endian host (every platform Node ships for today). */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** Scratch index map, per thread. */
let map = new Int32Array(0);

/** Fills `out` (width x height words) with the view; rejects as the panorama store does (a named, specific error). */
export async function viewPixels(store: PanoStore, d: DeferredImage, out: Uint32Array): Promise<void> {
  const pano = await store.get(d.pano);
  const { width: w, height: h } = d.view;
  if (map.length !== w * h) map = new Int32Array(w * h);
  const base = pano.top * pano.width;
  if (LITTLE_ENDIAN) {
    indexMap(d.view, pano.width, pano.height, undefined, false, map, { src: pano.data, base, rgba: out });
    return;
  }
  const rgb = new Uint8Array(w * h * 3);
  indexMap(d.view, pano.width, pano.height, undefined, false, map, { src: pano.data, base, rgb });
  const bytes = new Uint8Array(out.buffer, out.byteOffset, w * h * 4);
  for (let p = 0, q = 0; p < rgb.length; p += 3, q += 4) {
    bytes[q] = rgb[p];
    bytes[q + 1] = rgb[p + 1];
    bytes[q + 2] = rgb[p + 2];
    bytes[q + 3] = 255;
  }
}

/** Starts decoding the panoramas of views [from, to] (a head start: a failure is reported when its view is asked for). */
export function prefetchPanos(store: PanoStore, deferred: DeferredImage[], from: number, to: number): void {
  for (let i = Math.max(from, 0); i <= Math.min(to, deferred.length - 1); i++) {
    if (!store.has(deferred[i].pano)) store.get(deferred[i].pano).catch(() => undefined);
  }
}
