/**
 * The row-walk index map the engine used before the heading-free geometry
 * (envs/geoguesser/replay/render/reproject.ts at 8387a6a), kept unchanged as the oracle of a
 * property test: the geometry path must give the same map and the same
 * boundary-sensitive pixels on every camera.
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

/** Where indexMap gathers the pixels as it goes (what sampleRgb(src, map, rgb, base) would give). */
export interface Gather {
  src: Uint8Array;
  /** The first source pixel `src` holds (a band of rows). */
  base: number;
  rgb: Uint8Array;
}

export interface IndexMapResult {
  /** Source pixel index (v * SW + u) per output pixel, row-major. */
  map: Int32Array;
  /** Output pixels whose u or v sits within BOUNDARY_EPS of an integer: the only ones an ulp can move. */
  sensitive: Int32Array;
}

/*
 * The exact row walk.
 *
 * Within one output row (ry0 fixed) the reference's longitude is, up to
 * rounding, atan2(rx0, d) + t with d = ry0*sin(p) + focal*cos(p) and t the
 * heading angle; so u steps where rx0 = d * tan(E_k - t), E_k being the
 * longitude of source column edge k. One tan per column edge and view, then
 * a walk along the row. Latitude is asin(c / sqrt(rx0^2 + q)) with
 * c = ry0*cos(p) - focal*sin(p), q = ry0^2 + focal^2: v steps where rx0^2
 * reaches c^2 / sin(L_j)^2 - q, L_j the latitude of source row edge j, and v
 * depends on |rx0| only. Every pixel within a safe band of an edge (wide
 * enough to hold every pixel an ulp could move, and every pixel the boundary
 * search must see), and every row where the walk is ill-conditioned (the
 * forward component d near 0: the camera sees a pole), is computed by
 * `project` in the reference's own operation order. Everything else gets its
 * indices from the walk, which no rounding can move. No per-pixel trig, no
 * cache.
 */

/** Half-width of the exactly-computed band around an edge, in source pixels (> BOUNDARY_EPS). */
const BAND_PX = 1.25e-7;
/** Rounding budget of the walk against the reference, relative to the components' scale (~1e4 ulps). */
const ROUND_REL = 1e-12;

/** Per source height: the a1 (sine of latitude) interval around each row edge j = 0..SH that counts as "near". */
const rowEdgeCache = new Map<number, { lo: Float64Array; hi: Float64Array }>();
function rowEdges(srcH: number) {
  let r = rowEdgeCache.get(srcH);
  if (!r) {
    const lo = new Float64Array(srcH + 1);
    const hi = new Float64Array(srcH + 1);
    const dl = (BAND_PX * Math.PI) / srcH;
    for (let j = 0; j <= srcH; j++) {
      const L = Math.PI * (0.5 - j / srcH);
      const s1 = Math.sin(L - dl);
      const s2 = Math.sin(L + dl);
      lo[j] = (s1 < s2 ? s1 : s2) - 1e-13;
      hi[j] = (s1 < s2 ? s2 : s1) + 1e-13;
    }
    lo[srcH] = -Infinity;
    hi[0] = Infinity;
    r = { lo, hi };
    if (rowEdgeCache.size > 8) rowEdgeCache.clear();
    rowEdgeCache.set(srcH, r);
  }
  return r;
}

/** Scratch reused across calls (per thread): nothing is allocated per view but the output. */
let colTan = new Float64Array(0);
let colFront = new Uint8Array(0);
let rowU = new Int32Array(0);
let rowV = new Int32Array(0);
let rowExact = new Uint8Array(0);

/** Exact pixel with the quantities the sensitivity rule needs. */
const exactOut = { index: 0, fu: 0, fv: 0, invR: 0 };
function projectFull(rx0: number, ry0: number, focal: number, cp: number, sp: number, ch: number, sh: number, srcW: number, srcH: number): void {
  const n = Math.sqrt(rx0 * rx0 + ry0 * ry0 + focal * focal);
  const rx = rx0 / n;
  const ry = ry0 / n;
  const rz = focal / n;
  const a1 = ry * cp + rz * -sp;
  const a2 = ry * sp + rz * cp;
  const b0 = rx * ch + a2 * sh;
  const b2 = rx * -sh + a2 * ch;
  const lon = Math.atan2(b0, b2);
  const lat = Math.asin(a1 < -1 ? -1 : a1 > 1 ? 1 : a1);
  const fu = (lon / TWO_PI + 0.5) * srcW;
  const fv = (0.5 - lat / Math.PI) * srcH;
  let u = Math.trunc(fu) % srcW;
  if (u < 0) u += srcW;
  let v = Math.trunc(fv);
  if (v < 0) v = 0;
  else if (v > srcH - 1) v = srcH - 1;
  exactOut.index = v * srcW + u;
  exactOut.fu = fu;
  exactOut.fv = fv;
  exactOut.invR = 1 / Math.sqrt(rx * rx + a2 * a2);
}

/**
 * The boundary-sensitivity rule: a superset of what the per-(fov, pitch)
 * geometry renderer flagged (u or v within BOUNDARY_EPS of an integer, or u
 * within that renderer's rounding tolerance), evaluated on exact values.
 */
function isSensitive(fu: number, fv: number, invR: number, uScale: number): boolean {
  const fracU = fu - Math.floor(fu);
  const tol = 2 * (1e-12 * uScale + 1e-13 * uScale * invR) + 1e-9;
  const epsU = BOUNDARY_EPS + 1e-9 > tol ? BOUNDARY_EPS + 1e-9 : tol;
  if (fracU < epsU || fracU > 1 - epsU) return true;
  return Math.abs(fv - Math.round(fv)) < BOUNDARY_EPS + 1e-12;
}

/**
 * Computes the source index of every output pixel (exactly the reference's,
 * see the row walk above). When `collectSensitive` is set, also lists, in
 * ascending order, the pixels sitting on a sampling boundary.
 */
export function indexMap(
  view: ViewSpec,
  srcW: number,
  srcH: number,
  k: TrigConstants = trigConstants(view),
  collectSensitive = false,
  out?: Int32Array,
  gather?: Gather,
): IndexMapResult {
  const W = view.width;
  const H = view.height;
  const map = out ?? new Int32Array(W * H);
  const focal = (0.5 * W) / k.tanHalfFov;
  const { cosPitch: cp, sinPitch: sp, cosHeading: ch, sinHeading: sh } = k;
  const t = Math.atan2(sh, ch); // the heading angle the constants encode
  const uScale = srcW / TWO_PI;
  const halfSrcW = srcW / 2;
  const halfW = W / 2;
  const halfH = H / 2;

  if (colTan.length < srcW) {
    colTan = new Float64Array(srcW);
    colFront = new Uint8Array(srcW);
  }
  // Column edge k sits at longitude (k - SW/2) / uScale; relative to the heading it is phi.
  for (let c = 0; c < srcW; c++) {
    let phi = (c - halfSrcW) / uScale - t;
    if (phi > Math.PI) phi -= TWO_PI;
    else if (phi <= -Math.PI) phi += TWO_PI;
    colTan[c] = Math.tan(phi);
    colFront[c] = phi > -Math.PI / 2 && phi < Math.PI / 2 ? 1 : 0;
  }
  const { lo: aLo, hi: aHi } = rowEdges(srcH);
  if (rowU.length < W) {
    rowU = new Int32Array(W);
    rowV = new Int32Array(W);
    rowExact = new Uint8Array(W);
  }
  const uBand = BAND_PX / uScale; // the band's angular half-width
  const sensitive: number[] = [];
  // First column with rx0 >= 0: the v walk goes outward from there, both ways.
  const xc = Math.ceil(halfW);

  for (let y = 0; y < H; y++) {
    const ry0 = -(y - halfH);
    const row = y * W;
    const scale = Math.abs(ry0) + focal + halfW;
    const d = ry0 * sp + focal * cp;
    const c = ry0 * cp - focal * sp;
    const q = ry0 * ry0 + focal * focal;
    const degenerate = !(Math.abs(d) > 1e-6 * scale) || c === 0;
    if (degenerate) {
      rowExact.fill(1, 0, W);
    } else {
      rowExact.fill(0, 0, W);
      walkColumns(W, halfW, d, ry0, focal, t, uScale, halfSrcW, srcW, uBand);
      walkRows(W, xc, halfW, c, q, srcH, aLo, aHi, 1);
      walkRows(W, xc, halfW, c, q, srcH, aLo, aHi, -1);
    }
    for (let x = 0; x < W; x++) {
      if (rowExact[x] === 0) {
        map[row + x] = rowV[x] * srcW + rowU[x];
        continue;
      }
      projectFull(x - halfW, ry0, focal, cp, sp, ch, sh, srcW, srcH);
      map[row + x] = exactOut.index;
      if (collectSensitive && isSensitive(exactOut.fu, exactOut.fv, exactOut.invR, uScale)) sensitive.push(row + x);
    }
    // The row's pixels while its indices are still in cache: sampleRgb's work without a second pass.
    if (gather) {
      const { src, base, rgb } = gather;
      for (let x = 0, i = row, o = row * 3; x < W; x++, i++, o += 3) {
        const si = (map[i] - base) * 3;
        rgb[o] = src[si];
        rgb[o + 1] = src[si + 1];
        rgb[o + 2] = src[si + 2];
      }
    }
  }
  return { map, sensitive: Int32Array.from(sensitive) };
}

/** Fills rowU for one row by walking the column edges; marks pixels near an edge in rowExact. */
function walkColumns(
  W: number,
  halfW: number,
  d: number,
  ry0: number,
  focal: number,
  t: number,
  uScale: number,
  halfSrcW: number,
  srcW: number,
  uBand: number,
): void {
  const front = d > 0 ? 1 : 0;
  const dir = d > 0 ? 1 : -1; // fu grows with x when the row looks forward, shrinks when it looks back
  const absD = Math.abs(d);
  const d2 = d * d;
  const base = Math.abs(ry0) + focal + absD;
  const invD = 1 / absD;
  // 1.5x the angular band plus a rounding budget relative to the components' scale over the
  // horizontal radius (bounded below by |d|: an over-estimate, which only widens the band).
  const bandK = 1.5 * (uBand + ROUND_REL);
  const roundK = 1.5 * ROUND_REL * invD;
  const tan = colTan;
  const fr = colFront;
  const uOut = rowU;
  const exact = rowExact;
  const rx0Start = -halfW;
  let lon = Math.atan2(rx0Start, d) + t;
  if (lon > Math.PI) lon -= TWO_PI;
  else if (lon <= -Math.PI) lon += TWO_PI;
  let u = Math.floor(lon * uScale + halfSrcW);
  if (u >= srcW) u -= srcW;
  else if (u < 0) u += srcW;
  // Edge e's position in rx0 is d * tan(phi_e); its band half-width converts the angular
  // band (plus a rounding budget that grows near the poles) through d(angle)/d(rx0).
  // The edge behind the first pixel: if the pixel is within its band, it is computed exactly.
  let e = dir > 0 ? u : u + 1 === srcW ? 0 : u + 1;
  if (fr[e] === front) {
    const pos = d * tan[e];
    const ap = Math.abs(pos);
    const w = (bandK + roundK * (ap + base)) * (pos * pos + d2) * invD + 1e-9 * (ap + 1);
    if (Math.abs(rx0Start - pos) <= w) exact[0] = 1;
  }
  e = dir > 0 ? (u + 1 === srcW ? 0 : u + 1) : u;
  let lo = Infinity; // next edge's band [lo, hi] in rx0; Infinity when the row never reaches it
  let hi = Infinity;
  if (fr[e] === front) {
    const pos = d * tan[e];
    const ap = Math.abs(pos);
    const w = (bandK + roundK * (ap + base)) * (pos * pos + d2) * invD + 1e-9 * (ap + 1);
    lo = pos - w;
    hi = pos + w;
  }
  let steps = 0;
  for (let x = 0; x < W; x++) {
    const rx0 = x - halfW;
    while (rx0 > hi) {
      u += dir;
      if (u >= srcW) u -= srcW;
      else if (u < 0) u += srcW;
      e = dir > 0 ? (u + 1 === srcW ? 0 : u + 1) : u;
      lo = hi = Infinity;
      if (fr[e] === front && ++steps <= srcW) {
        const pos = d * tan[e];
        const ap = Math.abs(pos);
        const w = (bandK + roundK * (ap + base)) * (pos * pos + d2) * invD + 1e-9 * (ap + 1);
        lo = pos - w;
        hi = pos + w;
      }
    }
    if (rx0 >= lo) exact[x] = 1;
    uOut[x] = u;
  }
}

/**
 * Fills rowV for one half row (side 1: x >= xc, rx0 >= 0; side -1: x < xc) by
 * walking the row edges outward in |rx0|; marks pixels near an edge.
 */
function walkRows(W: number, xc: number, halfW: number, c: number, q: number, srcH: number, aLo: Float64Array, aHi: Float64Array, side: number): void {
  const x0 = side > 0 ? xc : xc - 1;
  if (x0 < 0 || x0 >= W) return;
  const c2 = c * c;
  const s = c > 0 ? 1 : -1; // fv grows with |rx0| above the horizon, shrinks below it
  const vOut = rowV;
  const exact = rowExact;
  const rStart = x0 - halfW;
  const r2Start = rStart * rStart;
  const a = c / Math.sqrt(r2Start + q);
  const lat = Math.asin(a < -1 ? -1 : a > 1 ? 1 : a);
  let v = Math.trunc((0.5 - lat / Math.PI) * srcH);
  if (v < 0) v = 0;
  else if (v > srcH) v = srcH;
  // Row edge j's band is where a1 = c / sqrt(r^2 + q) falls in [aLo[j], aHi[j]]; in r^2 that is
  // [lo2, hi2]. With |a1| and the bounds mirrored below the horizon, one formula serves both halves.
  let j = s > 0 ? v : v + 1; // the edge behind the first pixel
  if (j >= 0 && j <= srcH) {
    const bl = s > 0 ? aLo[j] : -aHi[j];
    const bh = s > 0 ? aHi[j] : -aLo[j];
    if (bh > 0) {
      const lo2 = bh === Infinity ? -Infinity : c2 / (bh * bh) - q;
      const hi2 = bl <= 0 ? Infinity : c2 / (bl * bl) - q;
      if (r2Start >= lo2 && r2Start <= hi2) exact[x0] = 1;
    }
  }
  let lo2 = Infinity;
  let hi2 = Infinity;
  j = s > 0 ? v + 1 : v;
  if (j >= 0 && j <= srcH) {
    const bl = s > 0 ? aLo[j] : -aHi[j];
    const bh = s > 0 ? aHi[j] : -aLo[j];
    if (bh > 0) {
      lo2 = bh === Infinity ? -Infinity : c2 / (bh * bh) - q;
      hi2 = bl <= 0 ? Infinity : c2 / (bl * bl) - q;
    }
  }
  // Runs, not pixels: v changes only where r^2 crosses an edge's band, so each run of equal v
  // (and the tail of it inside the next edge's band) is found with the same comparisons the
  // per-pixel walk made, and filled. Pixel k of this half has |rx0| = r0 + k, growing.
  const n = side > 0 ? W - x0 : x0 + 1;
  const r0 = Math.abs(rStart);
  let k = 0;
  while (k < n) {
    const r = r0 + k;
    const r2 = r * r;
    while (r2 > hi2) {
      v += s;
      j = s > 0 ? v + 1 : v;
      lo2 = hi2 = Infinity;
      if (j >= 0 && j <= srcH) {
        const bl = s > 0 ? aLo[j] : -aHi[j];
        const bh = s > 0 ? aHi[j] : -aLo[j];
        if (bh > 0) {
          lo2 = bh === Infinity ? -Infinity : c2 / (bh * bh) - q;
          hi2 = bl <= 0 ? Infinity : c2 / (bl * bl) - q;
        }
      }
    }
    const kEnd = hi2 === Infinity ? n : firstSquareAbove(hi2, r0, k, n, true);
    const kExact = lo2 === Infinity ? kEnd : firstSquareAbove(lo2, r0, k, kEnd, false);
    const vc = v < 0 ? 0 : v > srcH - 1 ? srcH - 1 : v;
    // Plain loops: most runs are short, where TypedArray#fill's call costs more than the stores.
    if (side > 0) {
      for (let x = x0 + k, e = x0 + kEnd; x < e; x++) vOut[x] = vc;
      for (let x = x0 + kExact, e = x0 + kEnd; x < e; x++) exact[x] = 1;
    } else {
      for (let x = x0 - kEnd + 1, e = x0 - k + 1; x < e; x++) vOut[x] = vc;
      for (let x = x0 - kEnd + 1, e = x0 - kExact + 1; x < e; x++) exact[x] = 1;
    }
    k = kEnd;
  }
}

/**
 * The first k in [from, to) with (r0 + k)^2 > limit (strict) or >= limit, else `to`.
 * A square root guesses it; the exact comparisons (monotone in k, r0 >= 0) settle it.
 */
function firstSquareAbove(limit: number, r0: number, from: number, to: number, strict: boolean): number {
  if (limit < 0) return from; // every square (>= 0) is above a negative or -Infinity limit
  let k = Math.ceil(Math.sqrt(limit) - r0);
  if (k < from) k = from;
  else if (k > to) k = to;
  while (k > from && (strict ? (r0 + k - 1) * (r0 + k - 1) > limit : (r0 + k - 1) * (r0 + k - 1) >= limit)) k--;
  while (k < to && !(strict ? (r0 + k) * (r0 + k) > limit : (r0 + k) * (r0 + k) >= limit)) k++;
  return k;
}

/**
 * The panorama rows [top, bottom) a view samples, with `margin` rows either
 * side (the boundary search moves a sampled row by at most one). Latitude has
 * no extremum inside the image except at a pole, so the border pixels and
 * the poles in view bound every row the view touches.
 */
export function viewRows(view: ViewSpec, srcW: number, srcH: number, margin = 2): { top: number; bottom: number } {
  const W = view.width;
  const H = view.height;
  const k = trigConstants(view);
  const focal = (0.5 * W) / k.tanHalfFov;
  const { cosPitch: cp, sinPitch: sp, cosHeading: ch, sinHeading: sh } = k;
  let lo = srcH;
  let hi = -1;
  const at = (x: number, y: number) => {
    projectFull(x - W / 2, -(y - H / 2), focal, cp, sp, ch, sh, srcW, srcH);
    const v = (exactOut.index / srcW) | 0;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  };
  for (let x = 0; x < W; x++) {
    at(x, 0);
    at(x, H - 1);
  }
  for (let y = 0; y < H; y++) {
    at(0, y);
    at(W - 1, y);
  }
  // The north pole is at camera direction (0, cos p, -sin p), the south pole at (0, -cos p, sin p):
  // in view when in front of the camera and within the image's vertical half-extent.
  const poleRy = Math.abs(sp) > 0 ? (focal * cp) / Math.abs(sp) : Infinity;
  if (poleRy <= H / 2 + 1) {
    if (sp < 0) lo = 0;
    else hi = srcH - 1;
  }
  return { top: Math.max(0, lo - margin), bottom: Math.min(srcH, hi + 1 + margin) };
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

/** Gathers RGB pixels: out[i] = src[map[i] - base] (base: the first source pixel `src` holds, for a band of rows). */
export function sampleRgb(src: Uint8Array, map: Int32Array, out: Uint8Array = new Uint8Array(map.length * 3), base = 0): Uint8Array {
  for (let i = 0, o = 0; i < map.length; i++, o += 3) {
    const s = (map[i] - base) * 3;
    out[o] = src[s];
    out[o + 1] = src[s + 1];
    out[o + 2] = src[s + 2];
  }
  return out;
}
