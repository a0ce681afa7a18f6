/**
 * Renders one recorded view and checks it against its recorded digest,
 * including views on exact sampling boundaries (see boundary.ts).
 */
import { encodeJpeg } from "../../../../replay/render/encode.ts";
import { imageDigest, sameDigest, type HashScheme } from "../../../../replay/render/hash.ts";
import { indexMap, sampleRgb, trigConstants, type ViewSpec } from "./reproject.ts";
import { searchBoundary } from "./boundary.ts";
import type { Pano } from "../panos/store.ts";

export interface RenderedView {
  jpeg: Buffer;
  rgb: Uint8Array;
}

/** Reusable per-view buffers (index map and RGB) for one output size; owned by the caller until the returned promise settles. */
export interface ViewBuffers {
  map: Int32Array;
  rgb: Uint8Array;
}

export function viewBuffers(width: number, height: number): ViewBuffers {
  return { map: new Int32Array(width * height), rgb: new Uint8Array(width * height * 3) };
}

/** The environment's image for this view, with V8's trig constants (right for all but boundary views). */
export async function renderView(pano: Pano, view: ViewSpec): Promise<RenderedView> {
  const { map } = indexMap(view, pano.width, pano.height);
  const rgb = sampleRgb(pano.data, map, undefined, pano.top * pano.width);
  return { rgb, jpeg: await encodeJpeg(rgb, view.width, view.height) };
}

export type ViewCheck =
  | { status: "match"; digest: string; jpeg: Buffer }
  | { status: "resolved"; digest: string; jpeg: Buffer; candidates: number }
  | { status: "mismatch"; digest: string; jpeg: Buffer; candidates: number };

/**
 * Renders the view and compares digests. On a mismatch, and only if some
 * pixel sits on a sampling boundary, searches the nearby float64 values of
 * the trig constants (bounded) for the render the environment produced.
 * A digest is only ever matched by bytes that hash to it, so a corrupted
 * hash cannot turn into a match.
 *
 * The index map and the gather run synchronously, before the first await:
 * a caller may start the next view while this one's encode runs on libuv's
 * threads. `buffers`, when given, are used instead of fresh arrays.
 */
export function checkView(pano: Pano, view: ViewSpec, expected: string, scheme: HashScheme, buffers?: ViewBuffers): Promise<ViewCheck> {
  const k = trigConstants(view);
  const rgb = buffers?.rgb ?? new Uint8Array(view.width * view.height * 3);
  const { map, sensitive } = indexMap(view, pano.width, pano.height, k, true, buffers?.map, { src: pano.data, base: pano.top * pano.width, rgb });
  return finishCheck(encodeJpeg(rgb, view.width, view.height), pano, view, expected, scheme, k, map, sensitive);
}

async function finishCheck(
  encoding: Promise<Buffer>,
  pano: Pano,
  view: ViewSpec,
  expected: string,
  scheme: HashScheme,
  k: ReturnType<typeof trigConstants>,
  map: Int32Array,
  sensitive: Int32Array,
): Promise<ViewCheck> {
  const jpeg = await encoding;
  const digest = imageDigest(jpeg, scheme);
  if (sameDigest(digest, expected)) return { status: "match", digest, jpeg };
  if (sensitive.length === 0) return { status: "mismatch", digest, jpeg, candidates: 0 };
  const found = await searchBoundary(pano, view, k, map, sensitive, async (cand) => {
    const bytes = await encodeJpeg(sampleRgb(pano.data, cand, undefined, pano.top * pano.width), view.width, view.height);
    return sameDigest(imageDigest(bytes, scheme), expected) ? bytes : null;
  });
  if (found.bytes) return { status: "resolved", digest: imageDigest(found.bytes, scheme), jpeg: found.bytes, candidates: found.tried };
  return { status: "mismatch", digest, jpeg, candidates: found.tried };
}
