/**
 * One in-between view's pixels, as opaque RGBA words, straight from its
 * panorama: the frame generator's reprojection (the index map and gather that
 * envs/geoguesser/replay/render/frame-file.ts encodes to a JPEG file) without the file, from
 * a panorama decoded to RGBA words so that a pixel is one copy. GeoGuesser's deferred views
 * (envs/deferred-views.ts): used by the native painter's own thread and by the thread that
 * reprojects ahead of it.
 */
import { PanoStore } from "../../replay/panos/store.ts";
import { viewWords, type ViewSpec } from "../../replay/render/reproject.ts";
import type { DeferredImage, DeferredViews } from "../../../../src/film/shared/encode-options.ts";

/** Views ahead of the one being made whose panorama starts decoding now. */
export const LOOKAHEAD = 24;
/** Decoded panoramas kept per thread: a camera path revisits few, and the painter holds little else. */
export const STORE_BYTES = 64 * 1024 * 1024;

/** A store of whole panoramas as RGBA words (what viewPixels reads). */
export const wordStore = (): PanoStore => new PanoStore("", STORE_BYTES, Infinity, 4);

/** Fills `out` (width x height words) with the view; rejects as the panorama store does (a named, specific error). */
export async function viewPixels(store: PanoStore, d: DeferredImage, out: Uint32Array): Promise<void> {
  const pano = await store.get(d.pano);
  if (pano.channels !== 4) throw new Error("viewPixels reads a store of RGBA words (wordStore())");
  const words = new Uint32Array(pano.data.buffer, pano.data.byteOffset, pano.data.byteLength >> 2); // aligned: decodePano

  // A deferred view is GeoGuesser's ViewSpec: the painter passed it through untouched.
  viewWords(d.view as ViewSpec, pano.width, pano.height, words, pano.top * pano.width, out);
}

/** Starts decoding the panoramas of views [from, to] (a head start: a failure is reported when its view is asked for). */
export function prefetchPanos(store: PanoStore, deferred: DeferredImage[], from: number, to: number): void {
  for (let i = Math.max(from, 0); i <= Math.min(to, deferred.length - 1); i++) {
    if (!store.has(deferred[i].pano)) store.get(deferred[i].pano).catch(() => undefined);
  }
}

/** GeoGuesser's deferred views for the native painter (the store is opaque to it: it only holds it). */
export const panoramaViews: DeferredViews<PanoStore> = { lookahead: LOOKAHEAD, store: wordStore, pixels: viewPixels, prefetch: prefetchPanos };
