/**
 * The environment's view renderer: a gnomonic reprojection of an
 * equirectangular panorama with integer (truncating) sampling.
 *
 * Operation order follows ../shared/reference/look_reference.py exactly, so
 * that float64 rounding matches numpy's:
 *   focal = 0.5*W / tan(radians(fov)/2)
 *   ray   = (x - W/2, -(y - H/2), focal) / sqrt(x*x + y*y + z*z)
 *   ray   = ray @ Rx(pitch).T @ Ry(heading).T     (two rotations, not one premultiplied matrix)
 *   u     = int(trunc((atan2(x, z)/2pi + 0.5) * SW)) mod SW
 *   v     = clip(int(trunc((0.5 - asin(clip(y))/pi) * SH)), 0, SH-1)
 * Everything is typed arrays; nothing allocates per pixel.
 */

export interface ViewSpec {
  headingDeg: number; // absolute: camera heading + frame compass angle
  pitchDeg: number;
  fovDeg: number;
  width: number;
  height: number;
}

/** The five scalars every pixel depends on. Boundary resolution perturbs these by ulps. */
export interface TrigConstants {
  tanHalfFov: number;
  cosPitch: number;
  sinPitch: number;
  cosHeading: number;
  sinHeading: number;
}

const DEG = Math.PI / 180; // numpy's radians(): x * (pi / 180)
const TWO_PI = 2 * Math.PI;

export function trigConstants(view: ViewSpec): TrigConstants {
  const p = view.pitchDeg * DEG;
  const t = view.headingDeg * DEG;
  return {
    tanHalfFov: Math.tan((view.fovDeg * DEG) / 2),
    cosPitch: Math.cos(p),
    sinPitch: Math.sin(p),
    cosHeading: Math.cos(t),
    sinHeading: Math.sin(t),
  };
}

/** Distance within which a pre-truncation coordinate counts as "on" an integer boundary. */
export const BOUNDARY_EPS = 1e-7;

/** Pre-truncation source coordinates of the last projected pixel (no per-pixel allocation). */
const last = { fu: 0, fv: 0 };

/** One pixel's source index, in the reference's exact operation order. */
function project(
  rx0: number, ry0: number, focal: number,
  cp: number, sp: number, ch: number, sh: number,
  srcW: number, srcH: number,
): number {
  const n = Math.sqrt(rx0 * rx0 + ry0 * ry0 + focal * focal);
  const rx = rx0 / n;
  const ry = ry0 / n;
  const rz = focal / n;
  // row @ Rx.T: the zero matrix entries add exact zeros, so only these terms matter.
  const a1 = ry * cp + rz * -sp;
  const a2 = ry * sp + rz * cp;
  // row @ Ry.T
  const b0 = rx * ch + a2 * sh;
  const b2 = rx * -sh + a2 * ch;
  const lon = Math.atan2(b0, b2);
  const lat = Math.asin(a1 < -1 ? -1 : a1 > 1 ? 1 : a1);
  const fu = (lon / TWO_PI + 0.5) * srcW;
  const fv = (0.5 - lat / Math.PI) * srcH;
  last.fu = fu;
  last.fv = fv;
  let u = Math.trunc(fu) % srcW;
  if (u < 0) u += srcW;
  let v = Math.trunc(fv);
  if (v < 0) v = 0;
  else if (v > srcH - 1) v = srcH - 1;
  return v * srcW + u;
}

export interface IndexMapResult {
  /** Source pixel index (v * SW + u) per output pixel, row-major. */
  map: Int32Array;
  /** Output pixels whose u or v sits within BOUNDARY_EPS of an integer: the only ones an ulp can move. */
  sensitive: Int32Array;
}

/**
 * Computes the source index of every output pixel. When `collectSensitive` is
 * set, also lists pixels sitting on a sampling boundary (one compare each).
 */
export function indexMap(
  view: ViewSpec,
  srcW: number,
  srcH: number,
  k: TrigConstants = trigConstants(view),
  collectSensitive = false,
  out?: Int32Array,
): IndexMapResult {
  const W = view.width;
  const H = view.height;
  const map = out ?? new Int32Array(W * H);
  const focal = (0.5 * W) / k.tanHalfFov;
  const { cosPitch: cp, sinPitch: sp, cosHeading: ch, sinHeading: sh } = k;
  const halfW = W / 2;
  const halfH = H / 2;
  const sensitive: number[] = [];
  let i = 0;
  for (let y = 0; y < H; y++) {
    const ry0 = -(y - halfH);
    for (let x = 0; x < W; x++, i++) {
      map[i] = project(x - halfW, ry0, focal, cp, sp, ch, sh, srcW, srcH);
      if (collectSensitive) {
        const { fu, fv } = last;
        if (Math.abs(fu - Math.round(fu)) < BOUNDARY_EPS || Math.abs(fv - Math.round(fv)) < BOUNDARY_EPS) sensitive.push(i);
      }
    }
  }
  return { map, sensitive: Int32Array.from(sensitive) };
}

/** Source index of selected output pixels (the boundary search re-evaluates only these). */
export function indexAt(
  view: ViewSpec,
  srcW: number,
  srcH: number,
  k: TrigConstants,
  pixels: Int32Array,
  out: Int32Array,
): void {
  const W = view.width;
  const focal = (0.5 * W) / k.tanHalfFov;
  const { cosPitch: cp, sinPitch: sp, cosHeading: ch, sinHeading: sh } = k;
  const halfW = W / 2;
  const halfH = view.height / 2;
  for (let j = 0; j < pixels.length; j++) {
    const x = pixels[j] % W;
    const y = (pixels[j] - x) / W;
    out[j] = project(x - halfW, -(y - halfH), focal, cp, sp, ch, sh, srcW, srcH);
  }
}

/** Gathers RGB pixels: out[i] = src[map[i]]. */
export function sampleRgb(src: Uint8Array, map: Int32Array, out: Uint8Array = new Uint8Array(map.length * 3)): Uint8Array {
  for (let i = 0, o = 0; i < map.length; i++, o += 3) {
    const s = map[i] * 3;
    out[o] = src[s];
    out[o + 1] = src[s + 1];
    out[o + 2] = src[s + 2];
  }
  return out;
}
