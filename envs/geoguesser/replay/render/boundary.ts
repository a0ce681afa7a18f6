/**
 * Exact-boundary resolution.
 *
 * Recorded hashes come from numpy, whose tan/sin/cos can differ from V8's by
 * an ulp. For almost every pixel that is invisible, but a pixel whose exact
 * source coordinate lies on an integer (pitch 5 and fov 100 put a row exactly
 * on 45 degrees latitude) moves by one source pixel. Measured: in every such
 * case the cause was the five scalar constants, and moving them by +-1 ulp
 * reproduces the recorded render.
 *
 * So: only the pixels the base render flagged as on-boundary can change.
 * Re-evaluate just those pixels for each combination of +-1 ulp on the five
 * constants (3^5 - 1 = 242, fewest changes first), dedupe the resulting index
 * patterns, and encode each distinct candidate once, up to a fixed bound.
 */
import { indexAt, type TrigConstants, type ViewSpec } from "./reproject.ts";
import { ulpStep } from "./ulp.ts";
import type { Pano } from "../panos/store.ts";

/** Most distinct candidate renders encoded for one view: bounds the time a true mismatch takes. */
export const MAX_CANDIDATE_ENCODES = 64;

const KEYS = ["tanHalfFov", "cosPitch", "sinPitch", "cosHeading", "sinHeading"] as const;

/** All non-zero ulp offset vectors in {-1,0,1}^5, fewest non-zero entries first (deterministic order). */
export const OFFSETS: readonly (readonly number[])[] = (() => {
  const all: number[][] = [];
  for (let code = 0; code < 243; code++) {
    const v: number[] = [];
    let c = code;
    for (let j = 0; j < 5; j++) {
      v.push((c % 3) - 1);
      c = Math.floor(c / 3);
    }
    if (v.some((x) => x !== 0)) all.push(v);
  }
  const weight = (v: number[]) => v.filter((x) => x !== 0).length;
  return all.sort((a, b) => weight(a) - weight(b));
})();

export function perturb(k: TrigConstants, offsets: readonly number[]): TrigConstants {
  const out = { ...k };
  KEYS.forEach((key, j) => {
    out[key] = ulpStep(k[key], offsets[j]);
  });
  return out;
}

export interface BoundarySearch {
  /** Encoded bytes of the candidate that matched, or null. */
  bytes: Buffer | null;
  /** Distinct candidate renders encoded. */
  tried: number;
}

export async function searchBoundary(
  pano: Pano,
  view: ViewSpec,
  base: TrigConstants,
  baseMap: Int32Array,
  sensitive: Int32Array,
  tryMap: (map: Int32Array) => Promise<Buffer | null>,
): Promise<BoundarySearch> {
  const baseIdx = new Int32Array(sensitive.length);
  for (let j = 0; j < sensitive.length; j++) baseIdx[j] = baseMap[sensitive[j]];
  const seen = new Set<string>([signature(baseIdx)]);
  const idx = new Int32Array(sensitive.length);
  const cand = new Int32Array(baseMap);
  let tried = 0;
  for (const off of OFFSETS) {
    indexAt(view, pano.width, pano.height, perturb(base, off), sensitive, idx);
    const sig = signature(idx);
    if (seen.has(sig)) continue;
    seen.add(sig);
    for (let j = 0; j < sensitive.length; j++) cand[sensitive[j]] = idx[j];
    tried++;
    const bytes = await tryMap(cand);
    if (bytes) return { bytes, tried };
    if (tried >= MAX_CANDIDATE_ENCODES) break;
  }
  return { bytes: null, tried };
}

function signature(idx: Int32Array): string {
  return Buffer.from(idx.buffer, idx.byteOffset, idx.byteLength).toString("base64");
}
