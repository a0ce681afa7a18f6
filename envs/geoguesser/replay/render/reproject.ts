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
  /** Packed RGB out (what a JPEG encoder takes). */
  rgb?: Uint8Array;
  /** Or opaque RGBA out, one little-endian word a pixel (what a canvas takes): no second pass to widen it. */
  rgba?: Uint32Array;
}

export interface IndexMapResult {
  /** Source pixel index (v * SW + u) per output pixel, row-major. */
  map: Int32Array;
  /** Output pixels whose u or v sits within BOUNDARY_EPS of an integer: the only ones an ulp can move. */
  sensitive: Int32Array;
}

/*
 * How a map is made exactly without per-pixel trig.
 *
 * Heading is a rotation about the vertical axis: up to rounding, a pixel's
 * longitude is atan2(rx0, d) + t, with d = ry0*sin(p) + focal*cos(p) and t
 * the heading angle, and its latitude, asin(c / sqrt(rx0^2 + q)) with
 * c = ry0*cos(p) - focal*sin(p) and q = ry0^2 + focal^2, does not depend on t
 * at all. So per (tan(fov/2), cos and sin of pitch, output size, panorama
 * size) one geometry serves every heading (see below). v steps where rx0^2
 * reaches c^2 / sin(L_j)^2 - q, L_j the latitude of source row edge j: a walk
 * along the row finds each pixel's row with no trig. Every pixel within a
 * safe band of an edge (wide enough to hold every pixel an ulp could move,
 * and every pixel the boundary search must see), and every row where the
 * geometry is ill-conditioned (the forward component d near 0: the camera
 * sees a pole), is computed by `projectFull` in the reference's own
 * operation order. No rounding can move the others.
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

/** Scratch reused across calls (per thread): one row's walk. */
let rowV = new Int32Array(0);

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
 * see above). When `collectSensitive` is set, also lists, in ascending
 * order, the pixels sitting on a sampling boundary. With `gather`, copies
 * each row's pixels while its indices are in cache.
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
  const map = out ?? new Int32Array(view.width * view.height);
  return mapFromGeometry(geometryFor(k, view.width, view.height, srcW, srcH), k, view.width, view.height, srcW, srcH, collectSensitive, map, gather);
}

/*
 * The heading-free geometry: per (tan(fov/2), cos and sin of pitch, output
 * size, panorama size), the row (v * SW, or -1 where the pixel is computed
 * exactly) and the heading-free longitude in source columns,
 * atan2(rx0, d) * SW / 2pi, as a float32. A view then costs one add, one
 * truncation and two compares a pixel. Pixels within a row's band of a
 * column edge (the exact band, the rounding budget against the reference's
 * order, the float32 quantum and atan2Approx's error, all bounded over the
 * row) are computed by `projectFull` in the reference's own order, as are the
 * excluded rows; no rounding can move the others. Building one costs about
 * 1.5x applying it; geometries that fit the cache are kept for the next view
 * of the same pitch and fov.
 */
interface Geometry {
  key: string;
  /** v * SW per output pixel, or -1: computed exactly (near a row edge, or a pole row). */
  rowIndex: Int32Array;
  /** Heading-free longitude in source columns per output pixel. */
  column: Float32Array;
  /** Per output row: fractional distance to a column edge below which a pixel is computed exactly. */
  band: Float64Array;
}

/** Geometries kept per thread, by bytes (a 640x640 one is 3.3 MB). */
const GEOMETRY_BYTES = 16 * 1024 * 1024;
const geometries = new Map<string, Geometry>();
let geometryBytes = 0;

function geometryFor(k: TrigConstants, W: number, H: number, srcW: number, srcH: number): Geometry {
  const key = `${k.tanHalfFov}:${k.cosPitch}:${k.sinPitch}:${W}x${H}:${srcW}x${srcH}`;
  const hit = geometries.get(key);
  if (hit) {
    geometries.delete(key); // refresh recency
    geometries.set(key, hit);
    return hit;
  }
  const bytes = W * H * 8;
  if (bytes > GEOMETRY_BYTES) return buildGeometry(key, k, W, H, srcW, srcH, null); // too big to keep
  // Make room first, and build into the arrays of an evicted geometry of the same size:
  // no new external memory while the cache is full.
  let spare: Geometry | null = null;
  while (geometries.size && geometryBytes + bytes > GEOMETRY_BYTES) {
    const [oldKey, old] = geometries.entries().next().value!;
    geometries.delete(oldKey);
    geometryBytes -= old.rowIndex.byteLength + old.column.byteLength;
    if (old.rowIndex.length === W * H && old.band.length === H) spare = old;
  }
  const g = buildGeometry(key, k, W, H, srcW, srcH, spare);
  geometries.set(key, g);
  geometryBytes += bytes;
  return g;
}

function buildGeometry(key: string, k: TrigConstants, W: number, H: number, srcW: number, srcH: number, spare: Geometry | null): Geometry {
  // Every entry is written below, so a spare's old contents never show through.
  const rowIndex = spare?.rowIndex ?? new Int32Array(W * H);
  const column = spare?.column ?? new Float32Array(W * H);
  const band = spare?.band ?? new Float64Array(H);
  fillGeometry(rowIndex, column, band, k, W, H, srcW, srcH);
  return { key, rowIndex, column, band };
}

/*
 * The rows of a geometry. Its own function: V8 optimizes the loop while it runs (on-stack
 * replacement), and optimized code that ran on to the object literal after the loop gave up
 * there (no type feedback) once for almost every fresh view, recompiling each time.
 */
function fillGeometry(
  rowIndex: Int32Array,
  column: Float32Array,
  band: Float64Array,
  k: TrigConstants,
  W: number,
  H: number,
  srcW: number,
  srcH: number,
): void {
  const focal = (0.5 * W) / k.tanHalfFov;
  const { cosPitch: cp, sinPitch: sp } = k;
  const uScale = srcW / TWO_PI;
  const uBand = BAND_PX / uScale;
  const halfW = W / 2;
  const halfH = H / 2;
  const xc = Math.ceil(halfW);
  const { lo: aLo, hi: aHi } = rowEdges(srcH);
  if (rowV.length < W + 1) rowV = new Int32Array(W + 1);
  // float32 rounding of a longitude of at most pi * uScale columns, the polynomial's error, and the
  // double-precision rounding of the per-view add (far below both).
  const quantum = (Math.PI * uScale + 1) * 2 ** -24 + ATAN_ERR * uScale + 1e-9;
  let lastD = NaN; // the d whose longitudes row `lastRow` holds
  let lastRow = 0;
  for (let y = 0; y < H; y++) {
    const ry0 = -(y - halfH);
    const row = y * W;
    const scale = Math.abs(ry0) + focal + halfW;
    const d = ry0 * sp + focal * cp;
    const c = ry0 * cp - focal * sp;
    const q = ry0 * ry0 + focal * focal;
    if (!(Math.abs(d) > 1e-6 * scale) || c === 0) {
      rowIndex.fill(-1, row, row + W);
      column.fill(NaN, row, row + W);
      band[y] = 1;
      continue;
    }
    // v depends on |rx0| only: the right half is walked one pixel past the row (to x = W, the
    // mirror of x = 0) and the left half takes its mirror's row, pixel x from pixel W - x.
    walkRows(W + 1, xc, halfW, c, q, srcW, srcH, aLo, aHi);
    rowIndex.set(rowV.subarray(xc, W), row + xc);
    for (let x = 0, i = row; x < xc; x++, i++) rowIndex[i] = rowV[W - x];
    // Longitudes depend on d alone: at pitch 0 every row has d = focal and takes the row above's.
    // atan2Approx is odd in its first argument (exactly): the right half (rx0 > 0) takes its
    // mirror's negated value, so half the row needs no atan2.
    if (d === lastD) column.copyWithin(row, lastRow, lastRow + W);
    else {
      const right = Math.floor(halfW) + 1; // the first x with rx0 > 0
      for (let x = 0, i = row; x < right; x++, i++) column[i] = atan2Approx(x - halfW, d) * uScale;
      for (let x = right, i = row + right; x < W; x++, i++) column[i] = -column[row + W - x];
      lastD = d;
      lastRow = row;
    }
    // The row walk's band at any column edge of this row, bounded over the row (|rx0| <= halfW + 1),
    // in angle and then in columns; plus the float32 quantum.
    const absD = Math.abs(d);
    const angle = 1.5 * (uBand + ROUND_REL) + (1.5 * ROUND_REL * (halfW + 1 + Math.abs(ry0) + focal + absD)) / absD + (1e-9 * (halfW + 2)) / absD;
    band[y] = angle * uScale + quantum;
  }
}

/*
 * atan2 to within ATAN_ERR radians, for building geometries: a geometry's longitudes only decide
 * which pixels are far enough from a column edge to skip the exact computation, and its band
 * already allows for the float32 quantum, so a polynomial serves where Math.atan2 cost a third of
 * a fresh view. Abramowitz & Stegun 4.4.49 (|error| <= 2e-8 on [0, 1]), after the reductions
 * |y| > |x| -> pi/2 - atan(x/y) and x < 0 -> pi - atan; the bound is checked against Math.atan2
 * in test/renderer.test.ts.
 */
export const ATAN_ERR = 5e-8;
const A2 = -0.3333314528;
const A4 = 0.1999355085;
const A6 = -0.142088994;
const A8 = 0.1065626393;
const A10 = -0.07528964;
const A12 = 0.0429096138;
const A14 = -0.0161657367;
const A16 = 0.0028662257;
export function atan2Approx(y: number, x: number): number {
  const ay = y < 0 ? -y : y;
  const ax = x < 0 ? -x : x;
  const swap = ay > ax;
  const r = swap ? ax / ay : ay / ax;
  const r2 = r * r;
  let a = r * (1 + r2 * (A2 + r2 * (A4 + r2 * (A6 + r2 * (A8 + r2 * (A10 + r2 * (A12 + r2 * (A14 + r2 * A16))))))));
  if (swap) a = Math.PI / 2 - a;
  if (x < 0) a = Math.PI - a;
  return y < 0 ? -a : a;
}

/**
 * What a view's heading adds to a geometry's heading-free column: the column of longitude t,
 * shifted by one turn more so that every column is positive (in (SW/2, 5SW/2]) and truncation is
 * floor.
 */
function headingShift(k: TrigConstants, srcW: number): number {
  const t = Math.atan2(k.sinHeading, k.cosHeading);
  // Column of longitude t + heading-free longitude, before wrapping: in (-SW/2, 3SW/2].
  const shift = t * (srcW / TWO_PI) + srcW / 2;
  return shift + srcW;
}

/** indexMap through a geometry: the heading is one add per pixel (see above). */
function mapFromGeometry(
  g: Geometry,
  k: TrigConstants,
  W: number,
  H: number,
  srcW: number,
  srcH: number,
  collectSensitive: boolean,
  map: Int32Array,
  gather?: Gather,
): IndexMapResult {
  const focal = (0.5 * W) / k.tanHalfFov;
  const { cosPitch: cp, sinPitch: sp, cosHeading: ch, sinHeading: sh } = k;
  const uScale = srcW / TWO_PI;
  const shift1 = headingShift(k, srcW);
  const halfW = W / 2;
  const halfH = H / 2;
  const { rowIndex, column, band } = g;
  const srcW2 = 2 * srcW;
  if (exactAt.length < W) exactAt = new Int32Array(W);
  const sensitive: number[] = [];
  for (let y = 0; y < H; y++) {
    const lo = band[y];
    const hi = 1 - lo;
    const ry0 = -(y - halfH);
    const row = y * W;
    // Integer work only; the pixels near an edge (and rows computed exactly) are listed, then done
    // in the reference's order.
    let nExact = 0;
    for (let x = 0, i = row; x < W; x++, i++) {
      const f = column[i] + shift1;
      const u = f | 0;
      const frac = f - u;
      const vIdx = rowIndex[i];
      if (vIdx >= 0 && frac > lo && frac < hi) map[i] = vIdx + (u >= srcW2 ? u - srcW2 : u >= srcW ? u - srcW : u);
      else exactAt[nExact++] = x;
    }
    for (let j = 0; j < nExact; j++) {
      const x = exactAt[j];
      projectFull(x - halfW, ry0, focal, cp, sp, ch, sh, srcW, srcH);
      map[row + x] = exactOut.index;
      if (collectSensitive && isSensitive(exactOut.fu, exactOut.fv, exactOut.invR, uScale)) sensitive.push(row + x);
    }
    if (gather) gatherRow(gather, map, row, W);
  }
  return { map, sensitive: Int32Array.from(sensitive) };
}

/**
 * A view's pixels as words, straight from a panorama of opaque RGBA words
 * (`src[v * SW + u - base]`): the index map's walk with each pixel's word
 * copied where its index is known, no map written or read back. The same
 * pixels as indexMap followed by a gather, at about two thirds of the cost:
 * what the video's in-between views are made with. Endian-neutral: words are
 * copied, never taken apart.
 */
export function viewWords(view: ViewSpec, srcW: number, srcH: number, src: Uint32Array, base: number, out: Uint32Array): void {
  const k = trigConstants(view);
  const { width: W, height: H } = view;
  const { rowIndex, column, band } = geometryFor(k, W, H, srcW, srcH);
  const focal = (0.5 * W) / k.tanHalfFov;
  const { cosPitch: cp, sinPitch: sp, cosHeading: ch, sinHeading: sh } = k;
  const shift1 = headingShift(k, srcW);
  const srcW2 = 2 * srcW;
  const halfW = W / 2;
  const halfH = H / 2;
  if (exactAt.length < W) exactAt = new Int32Array(W);
  // mapFromGeometry's walk, kept apart on purpose: one walk for both (a branch or a call a pixel)
  // cost the speed this exists for.
  for (let y = 0; y < H; y++) {
    const lo = band[y];
    const hi = 1 - lo;
    const row = y * W;
    let nExact = 0;
    for (let x = 0, i = row; x < W; x++, i++) {
      const f = column[i] + shift1;
      const u = f | 0;
      const frac = f - u;
      const vIdx = rowIndex[i];
      if (vIdx >= 0 && frac > lo && frac < hi) out[i] = src[vIdx + (u >= srcW2 ? u - srcW2 : u >= srcW ? u - srcW : u) - base];
      else exactAt[nExact++] = x;
    }
    for (let j = 0; j < nExact; j++) {
      const x = exactAt[j];
      projectFull(x - halfW, -(y - halfH), focal, cp, sp, ch, sh, srcW, srcH);
      out[row + x] = src[exactOut.index - base];
    }
  }
}

/** Scratch: the columns of one row computed exactly. */
let exactAt = new Int32Array(0);

/** Pixel i of the output = src[map[i] - base], over one row, while its indices are still in cache. */
function gatherRow(g: Gather, map: Int32Array, row: number, W: number): void {
  const src = g.src;
  const base = g.base;
  const rgba = g.rgba;
  if (rgba) {
    for (let i = row, e = row + W; i < e; i++) {
      const si = (map[i] - base) * 3;
      rgba[i] = (src[si] | (src[si + 1] << 8) | (src[si + 2] << 16) | 0xff000000) >>> 0;
    }
    return;
  }
  const rgb = g.rgb!;
  for (let i = row, e = row + W; i < e; i++) {
    const si = (map[i] - base) * 3;
    const o = i * 3;
    rgb[o] = src[si];
    rgb[o + 1] = src[si + 1];
    rgb[o + 2] = src[si + 2];
  }
}

/**
 * Fills rowV[x] for x0 <= x < n (rx0 = x - halfW >= 0) by walking the row
 * edges outward in rx0: v * SW, or -1 for a pixel near an edge (computed
 * exactly).
 */
function walkRows(n: number, x0: number, halfW: number, c: number, q: number, srcW: number, srcH: number, aLo: Float64Array, aHi: Float64Array): void {
  if (x0 >= n) return;
  const c2 = c * c;
  const s = c > 0 ? 1 : -1; // fv grows with |rx0| above the horizon, shrinks below it
  const vOut = rowV;
  let firstExact = false;
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
      firstExact = r2Start >= lo2 && r2Start <= hi2;
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
  // per-pixel walk made, and filled. Pixel x0 + k has rx0 = r0 + k, growing.
  const count = n - x0;
  const r0 = rStart;
  let k = 0;
  while (k < count) {
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
    const kEnd = hi2 === Infinity ? count : firstSquareAbove(hi2, r0, k, count, true);
    const kExact = lo2 === Infinity ? kEnd : firstSquareAbove(lo2, r0, k, kEnd, false);
    const vc = (v < 0 ? 0 : v > srcH - 1 ? srcH - 1 : v) * srcW; // premultiplied: a pixel's index is v * SW + u
    // Plain loops: most runs are short, where TypedArray#fill's call costs more than the stores.
    for (let x = x0 + k, e = x0 + kExact; x < e; x++) vOut[x] = vc;
    for (let x = x0 + kExact, e = x0 + kEnd; x < e; x++) vOut[x] = -1;
    k = kEnd;
  }
  if (firstExact) vOut[x0] = -1;
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
 * side (the boundary search moves a sampled row by at most one). Latitude
 * does not depend on heading (projectFull's a1 is computed before the heading
 * rotation), so one answer serves every heading of a (pitch, fov, size): a
 * group of views is often one pitch and fov turned many ways. Kept per thread,
 * bounded.
 */
const rowsMemo = new Map<string, { top: number; bottom: number }>();
export function viewRows(view: ViewSpec, srcW: number, srcH: number, margin = 2): { top: number; bottom: number } {
  const key = `${view.pitchDeg}:${view.fovDeg}:${view.width}x${view.height}:${srcW}x${srcH}:${margin}`;
  let r = rowsMemo.get(key);
  if (!r) {
    if (rowsMemo.size >= 4096) rowsMemo.clear();
    rowsMemo.set(key, (r = viewRowsAt(view, srcW, srcH, margin)));
  }
  return { ...r };
}

/**
 * viewRows computed for this very view (its heading included). Latitude has
 * no extremum inside the image except at a pole, so the border pixels and
 * the poles in view bound every row the view touches.
 */
export function viewRowsAt(view: ViewSpec, srcW: number, srcH: number, margin = 2): { top: number; bottom: number } {
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
