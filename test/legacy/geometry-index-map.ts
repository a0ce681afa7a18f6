/**
 * The per-(fov, pitch) geometry index map the engine used before the row walk
 * (envs/geoguesser/replay/render/reproject.ts at cf36faa), kept unchanged for one test: the row
 * walk's boundary-sensitive pixel list must be a superset of this one's, or the
 * boundary search would lose cases it resolved.
 */
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
function project(rx0: number, ry0: number, focal: number, cp: number, sp: number, ch: number, sh: number, srcW: number, srcH: number): number {
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
 * Per-pixel geometry that does not depend on the heading: for a camera at
 * heading 0, the longitude and latitude every pixel samples. Heading only
 * rotates about the vertical axis, so it leaves latitude (and thus v) exactly
 * unchanged and shifts longitude by the heading angle.
 */
interface Geometry {
  lon0: Float64Array;
  lat: Float64Array;
  /** 1 / horizontal radius of the ray: how much component rounding can move its longitude. */
  invR: Float32Array;
  /** Per source size: v * srcW for every pixel (exact, as the reference computes v), and v's boundary flags. */
  rows: Map<string, { vBase: Int32Array; vOnBoundary: Uint8Array }>;
  bytes: number;
}

const geometryCache = new Map<string, Geometry>();
let geometryBytes = 0;
/** Six (fov, pitch) pairs at 640x640 per thread: most views share a handful (fov 90, pitch 0). */
export const GEOMETRY_CACHE_BYTES = 64 * 1024 * 1024;

function geometryFor(W: number, H: number, k: TrigConstants): Geometry {
  const key = `${W}x${H}:${k.tanHalfFov}:${k.cosPitch}:${k.sinPitch}`;
  const hit = geometryCache.get(key);
  if (hit) {
    geometryCache.delete(key);
    geometryCache.set(key, hit);
    return hit;
  }

  const n = W * H;
  const g: Geometry = { lon0: new Float64Array(n), lat: new Float64Array(n), invR: new Float32Array(n), rows: new Map(), bytes: n * 25 };
  const focal = (0.5 * W) / k.tanHalfFov;
  const cp = k.cosPitch;
  const sp = k.sinPitch;
  const halfW = W / 2;
  const halfH = H / 2;
  // Mirror symmetries, exact in IEEE arithmetic (atan2 and asin are odd, the norm is even):
  // column W - x has rx0 negated, so the same latitude and the negated longitude; for a level
  // camera (pitch exactly 0, cos = 1, sin = 0) row H - y has ry negated, so the same longitude
  // and the negated latitude. A level camera pays a quarter of the trigonometry, others half.
  const level = sp === 0 && cp === 1;
  const { lon0, lat, invR } = g;
  for (let y = 0; y < H; y++) {
    const row = y * W;
    const ym = H - y;
    if (level && y > halfH && ym < y) {
      const src = ym * W;
      for (let x = 0; x < W; x++) {
        lon0[row + x] = lon0[src + x];
        lat[row + x] = -lat[src + x];
        invR[row + x] = invR[src + x];
      }
      continue;
    }
    const ry0 = -(y - halfH);
    for (let x = 0; x < W; x++) {
      const i = row + x;
      const xm = W - x;
      if (x > halfW && xm < x) {
        lon0[i] = -lon0[row + xm];
        lat[i] = lat[row + xm];
        invR[i] = invR[row + xm];
        continue;
      }
      const rx0 = x - halfW;
      const nrm = Math.sqrt(rx0 * rx0 + ry0 * ry0 + focal * focal);
      const rx = rx0 / nrm;
      const ry = ry0 / nrm;
      const rz = focal / nrm;
      const a1 = ry * cp + rz * -sp;
      const a2 = ry * sp + rz * cp;
      lon0[i] = Math.atan2(rx, a2);
      lat[i] = Math.asin(a1 < -1 ? -1 : a1 > 1 ? 1 : a1);
      invR[i] = 1 / Math.sqrt(rx * rx + a2 * a2);
    }
  }
  geometryCache.set(key, g);
  geometryBytes += g.bytes;
  for (const [k2, v] of geometryCache) {
    if (geometryBytes <= GEOMETRY_CACHE_BYTES || geometryCache.size <= 1) break;
    geometryCache.delete(k2);
    geometryBytes -= v.bytes;
  }
  return g;
}

function rowsFor(g: Geometry, srcW: number, srcH: number) {
  const key = `${srcW}x${srcH}`;
  let r = g.rows.get(key);
  if (!r) {
    const n = g.lat.length;
    r = { vBase: new Int32Array(n), vOnBoundary: new Uint8Array(n) };
    for (let i = 0; i < n; i++) {
      const fv = (0.5 - g.lat[i] / Math.PI) * srcH;
      let v = Math.trunc(fv);
      if (v < 0) v = 0;
      else if (v > srcH - 1) v = srcH - 1;
      r.vBase[i] = v * srcW;
      r.vOnBoundary[i] = Math.abs(fv - Math.round(fv)) < BOUNDARY_EPS ? 1 : 0;
    }
    g.rows.set(key, r);
  }
  return r;
}

/**
 * Computes the source index of every output pixel. When `collectSensitive` is
 * set, also lists pixels sitting on a sampling boundary.
 *
 * Fast path: v comes exactly from the cached latitude (the heading rotation
 * does not touch the ray's y component), and u from the cached heading-0
 * longitude plus the heading, which agrees with the reference's
 * atan2(rotated ray) to ~1e-12 of a source pixel. Wherever that margin could
 * decide the truncation (u within `tol` of an integer), the pixel is
 * recomputed exactly in the reference's operation order, so the result is
 * the same index map as `project` on every pixel, at a fraction of the cost.
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
  const g = geometryFor(W, H, k);
  const { vBase, vOnBoundary } = rowsFor(g, srcW, srcH);
  const focal = (0.5 * W) / k.tanHalfFov;
  const { cosPitch: cp, sinPitch: sp, cosHeading: ch, sinHeading: sh } = k;
  // The heading angle the constants encode, in (-pi, pi].
  const t = Math.atan2(sh, ch);
  const uScale = srcW / TWO_PI;
  const halfSrcW = srcW / 2;
  // Error budget for the approximate u, in source pixels: generous against rounding in
  // lon0 + t, the multiply, and atan2 itself (which grows as the ray nears a pole).
  const tolAbs = 1e-12 * uScale;
  const tolRel = 1e-13 * uScale;
  const halfW = W / 2;
  const halfH = H / 2;
  const sensitive: number[] = [];
  const close: number[] = [];
  const { lon0, invR } = g;
  // Hot loop kept tiny: pixels too close to call are only listed here, and recomputed below.
  for (let i = 0, n = W * H; i < n; i++) {
    let lon = lon0[i] + t;
    if (lon > Math.PI) lon -= TWO_PI;
    else if (lon <= -Math.PI) lon += TWO_PI;
    const fu = lon * uScale + halfSrcW;
    const fl = Math.floor(fu);
    const frac = fu - fl;
    const tol = tolAbs + tolRel * invR[i];
    if (frac <= tol || frac >= 1 - tol) {
      close.push(i);
      continue;
    }
    map[i] = vBase[i] + fl;
    if (collectSensitive && (frac < BOUNDARY_EPS || frac > 1 - BOUNDARY_EPS || vOnBoundary[i] === 1)) sensitive.push(i);
  }
  // The reference's own operation order decides the close calls.
  for (const i of close) {
    const x = i % W;
    map[i] = project(x - halfW, -((i - x) / W - halfH), focal, cp, sp, ch, sh, srcW, srcH);
    if (collectSensitive) sensitive.push(i);
  }
  if (collectSensitive && close.length) sensitive.sort((a, b) => a - b);
  return { map, sensitive: Int32Array.from(sensitive) };
}

/** The reference computation on every pixel (no cache, no fast path): the oracle for tests. */
export function indexMapExact(view: ViewSpec, srcW: number, srcH: number, k: TrigConstants = trigConstants(view)): Int32Array {
  const W = view.width;
  const H = view.height;
  const map = new Int32Array(W * H);
  const focal = (0.5 * W) / k.tanHalfFov;
  const halfW = W / 2;
  const halfH = H / 2;
  let i = 0;
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++, i++) {
      map[i] = project(x - halfW, -(y - halfH), focal, k.cosPitch, k.sinPitch, k.cosHeading, k.sinHeading, srcW, srcH);
    }
  }
  return map;
}

/** Source index of selected output pixels (the boundary search re-evaluates only these). */
export function indexAt(view: ViewSpec, srcW: number, srcH: number, k: TrigConstants, pixels: Int32Array, out: Int32Array): void {
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
