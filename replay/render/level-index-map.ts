/**
 * Exact source indices for a level camera (pitch exactly 0), at about half
 * the cost of the per-pixel reference computation.
 *
 * With pitch 0 the constants are cos = 1, sin = 0 exactly, so the reference's
 * rotated ray (see src/render/reproject.ts, same operation order here) has
 * a1 = ry and a2 = rz bit for bit. Rows y and H - y have ry0 values that are
 * exact negatives with the same norm, so their rays differ only in the sign of
 * ry: the longitude (atan2 of components without ry) is identical, and the
 * latitude is the exact negative (asin is odd in IEEE arithmetic, fdlibm's
 * included). Each mirrored pixel therefore costs no transcendental call and
 * gets the very index the reference computes. Zooms at pitch 0 (the common
 * case) are where this matters: their geometry changes every frame.
 */
import { trigConstants, type ViewSpec } from "./reproject.ts";

const TWO_PI = 2 * Math.PI;

/** Fills `out` and returns true for a level view; returns false (out untouched) otherwise. */
export function levelIndexMap(view: ViewSpec, srcW: number, srcH: number, out: Int32Array): boolean {
  const k = trigConstants(view);
  if (k.sinPitch !== 0 || k.cosPitch !== 1) return false;
  const W = view.width;
  const H = view.height;
  const focal = (0.5 * W) / k.tanHalfFov;
  const ch = k.cosHeading;
  const sh = k.sinHeading;
  const halfW = W / 2;
  const halfH = H / 2;
  const mirrored = new Uint8Array(H);
  for (let y = 0; y < H; y++) {
    if (mirrored[y]) continue;
    const ry0 = -(y - halfH);
    const ym = H - y;
    const mirror = ry0 > 0 && ym < H;
    if (mirror) mirrored[ym] = 1;
    const row = y * W;
    const rowM = ym * W;
    for (let x = 0; x < W; x++) {
      const rx0 = x - halfW;
      const n = Math.sqrt(rx0 * rx0 + ry0 * ry0 + focal * focal);
      const rx = rx0 / n;
      const ry = ry0 / n;
      const rz = focal / n;
      const a1 = ry * 1 + rz * -0;
      const a2 = ry * 0 + rz * 1;
      const b0 = rx * ch + a2 * sh;
      const b2 = rx * -sh + a2 * ch;
      const lon = Math.atan2(b0, b2);
      const lat = Math.asin(a1 < -1 ? -1 : a1 > 1 ? 1 : a1);
      let u = Math.trunc((lon / TWO_PI + 0.5) * srcW) % srcW;
      if (u < 0) u += srcW;
      let v = Math.trunc((0.5 - lat / Math.PI) * srcH);
      if (v < 0) v = 0;
      else if (v > srcH - 1) v = srcH - 1;
      out[row + x] = v * srcW + u;
      if (mirror) {
        let vm = Math.trunc((0.5 - -lat / Math.PI) * srcH);
        if (vm < 0) vm = 0;
        else if (vm > srcH - 1) vm = srcH - 1;
        out[rowM + x] = vm * srcW + u;
      }
    }
  }
  return true;
}
