/**
 * Pillow 9.4's bicubic resize with a float box (ImagingResample, 8-bit RGB), bit for bit:
 * float32 box, per-axis coefficient tables in 22-bit fixed point, a horizontal pass over only
 * the source rows the vertical pass reads into an 8-bit intermediate, then the vertical pass.
 * Pillow's shortcuts (skip a pass, copy, crop) are identities under these rules, so both passes
 * always run. Contract: crops-trace-format.md "How a view is rendered", step 2.
 *
 * `resizeBicubic` runs the passes as WebAssembly SIMD (resize-wasm.ts): ~3x less CPU than the
 * scalar passes, and no tier-up (the scalar loops ran ~60 ms before V8 optimized them).
 * `resizeBicubicScalar` is the same arithmetic in plain code: the rule as written, and the oracle
 * the SIMD passes are tested against.
 */
import { resizeKernels } from "./resize-wasm.ts";

const PRECISION_BITS = 22;
const ONE = 1 << PRECISION_BITS;
const HALF = 1 << (PRECISION_BITS - 1);

/** One axis: for output index i, taps start at `min[i]`, `count[i]` of them, weights `k[i * ksize ...]`. */
export interface Coeffs {
  min: Int32Array;
  count: Int32Array;
  k: Int32Array;
  ksize: number;
}

function bicubic(x: number): number {
  const a = -0.5;
  if (x < 0) x = -x;
  if (x < 1) return ((a + 2.0) * x - (a + 3.0)) * x * x + 1;
  if (x < 2) return (((x - 5) * x + 8) * x - 4) * a;
  return 0;
}

/**
 * Coefficient tables by (input size, float32 box edges, output size): siblings, pans along one
 * axis and every thumbnail share them. Bounded; the oldest go first.
 */
const coeffCache = new Map<string, Coeffs>();
const COEFF_CACHE_SIZE = 256;

function cachedCoeffs(inSize: number, in0: number, in1: number, outSize: number): Coeffs {
  const key = `${inSize},${in0},${in1},${outSize}`;
  let c = coeffCache.get(key);
  if (!c) {
    c = coeffs(inSize, in0, in1, outSize);
    coeffCache.set(key, c);
    if (coeffCache.size > COEFF_CACHE_SIZE) coeffCache.delete(coeffCache.keys().next().value!);
  }
  return c;
}

/** Pillow's precompute_coeffs + normalize_coeffs_8bpc for [in0, in1] (already float32) of an inSize axis. */
export function coeffs(inSize: number, in0: number, in1: number, outSize: number): Coeffs {
  const scale = Math.fround(in1 - in0) / outSize; // the subtraction is float32 in C
  const filterscale = scale >= 1 ? scale : 1;
  const support = 2.0 * filterscale;
  const ksize = Math.ceil(support) * 2 + 1;
  const ss = 1.0 / filterscale;
  const min = new Int32Array(outSize);
  const count = new Int32Array(outSize);
  const k = new Int32Array(outSize * ksize);
  const w = new Float64Array(ksize);
  for (let xx = 0; xx < outSize; xx++) {
    const center = in0 + (xx + 0.5) * scale;
    let xmin = Math.trunc(center - support + 0.5);
    if (xmin < 0) xmin = 0;
    let xmax = Math.trunc(center + support + 0.5);
    if (xmax > inSize) xmax = inSize;
    const n = xmax - xmin;
    let ww = 0;
    for (let x = 0; x < n; x++) {
      w[x] = bicubic((x + xmin - center + 0.5) * ss);
      ww += w[x];
    }
    for (let x = 0; x < n; x++) {
      const v = ww !== 0 ? w[x] / ww : w[x];
      k[xx * ksize + x] = v < 0 ? Math.trunc(-0.5 + v * ONE) : Math.trunc(0.5 + v * ONE);
    }
    min[xx] = xmin;
    count[xx] = n;
  }
  return { min, count, k, ksize };
}

/** clip8 of Pillow: (v >> 22) clamped to 0..255 (v is an int32 sum). */
const clip8 = (v: number): number => {
  const s = v >> PRECISION_BITS;
  return s < 0 ? 0 : s > 255 ? 255 : s;
};

/** Scratch for the horizontal pass's 8-bit intermediate, reused across calls (one thread, synchronous). */
let scratch = new Uint8Array(0);
let accScratch = new Int32Array(0);

/**
 * `src` (iw x ih RGB, row-major) resized to W x H from `box` (whole-image pixels), as
 * `img.resize((W, H), BICUBIC, box=box)` does. Returns W x H RGB. Sums are int32 as in C
 * (they fit: |K| sums stay under 2^31 / 255).
 */
export function resizeBicubicScalar(src: Uint8Array, iw: number, ih: number, W: number, H: number, box: readonly number[]): Uint8Array {
  const hc = cachedCoeffs(iw, Math.fround(box[0]), Math.fround(box[2]), W);
  const vc = cachedCoeffs(ih, Math.fround(box[1]), Math.fround(box[3]), H);
  // Only the rows the vertical pass reads.
  const first = vc.min[0];
  const rows = Math.max(0, vc.min[H - 1] + vc.count[H - 1] - first);
  const rowLen = W * 3;
  if (scratch.length < rowLen * rows) scratch = new Uint8Array(rowLen * rows);
  const tmp = scratch;
  const srcRow = iw * 3;
  const hk = hc.k;
  const hks = hc.ksize;
  const hmin = hc.min;
  const hcount = hc.count;
  for (let r = 0; r < rows; r++) {
    const base = (first + r) * srcRow;
    let o = r * rowLen;
    for (let xx = 0; xx < W; xx++) {
      let p = base + hmin[xx] * 3;
      const kb = xx * hks;
      const n = hcount[xx];
      if (n === 4 || n === 5) {
        // The common upscaling case, unrolled (a fifth tap of weight 0 reads a pixel in range).
        const k0 = hk[kb];
        const k1 = hk[kb + 1];
        const k2 = hk[kb + 2];
        const k3 = hk[kb + 3];
        const k4 = n === 5 ? hk[kb + 4] : 0;
        const p4 = n === 5 ? p + 12 : p;
        tmp[o++] = clip8((HALF + src[p] * k0 + src[p + 3] * k1 + src[p + 6] * k2 + src[p + 9] * k3 + src[p4] * k4) | 0);
        p++;
        tmp[o++] = clip8((HALF + src[p] * k0 + src[p + 3] * k1 + src[p + 6] * k2 + src[p + 9] * k3 + src[p4 + 1] * k4) | 0);
        p++;
        tmp[o++] = clip8((HALF + src[p] * k0 + src[p + 3] * k1 + src[p + 6] * k2 + src[p + 9] * k3 + src[p4 + 2] * k4) | 0);
        continue;
      }
      let s0 = HALF;
      let s1 = HALF;
      let s2 = HALF;
      const end = kb + n;
      for (let x = kb; x < end; x++, p += 3) {
        const kv = hk[x];
        s0 = (s0 + src[p] * kv) | 0;
        s1 = (s1 + src[p + 1] * kv) | 0;
        s2 = (s2 + src[p + 2] * kv) | 0;
      }
      tmp[o++] = clip8(s0);
      tmp[o++] = clip8(s1);
      tmp[o++] = clip8(s2);
    }
  }
  const out = new Uint8Array(rowLen * H);
  const vk = vc.k;
  const vks = vc.ksize;
  const vmin = vc.min;
  const vcount = vc.count;
  for (let yy = 0; yy < H; yy++) {
    const n = vcount[yy];
    const kb = yy * vks;
    const r0 = (vmin[yy] - first) * rowLen;
    const o = yy * rowLen;
    if (n === 4 || n === 5) {
      // The common upscaling case: every tap's weight in a register, one pass over the row.
      const k0 = vk[kb];
      const k1 = vk[kb + 1];
      const k2 = vk[kb + 2];
      const k3 = vk[kb + 3];
      const k4 = n === 5 ? vk[kb + 4] : 0;
      const r1 = r0 + rowLen;
      const r2 = r1 + rowLen;
      const r3 = r2 + rowLen;
      const r4 = n === 5 ? r3 + rowLen : r0; // weight 0 when n is 4
      for (let j = 0; j < rowLen; j++) {
        const v = (HALF + tmp[r0 + j] * k0 + tmp[r1 + j] * k1 + tmp[r2 + j] * k2 + tmp[r3 + j] * k3 + tmp[r4 + j] * k4) | 0;
        out[o + j] = clip8(v);
      }
      continue;
    }
    if (accScratch.length < rowLen) accScratch = new Int32Array(rowLen);
    const acc = accScratch;
    acc.fill(HALF, 0, rowLen);
    let rowStart = r0;
    for (let y = 0; y < n; y++, rowStart += rowLen) {
      const kv = vk[kb + y];
      if (kv === 0) continue;
      for (let j = 0; j < rowLen; j++) acc[j] = (acc[j] + tmp[rowStart + j] * kv) | 0;
    }
    for (let j = 0; j < rowLen; j++) out[o + j] = clip8(acc[j]);
  }
  return out;
}

/** The source image last copied into the kernels' memory (at offset 0): siblings' views of one image copy it once. */
let resident: Uint8Array | null = null;

const align16 = (n: number) => (n + 15) & ~15;
/** Past each buffer: the SIMD passes read and write up to 15 bytes beyond a row. */
const SLACK = 16;

/**
 * `resizeBicubicScalar`'s result, computed by the SIMD passes, written into `out` when given
 * (W x H x 3 bytes): a reused buffer, where a fresh 0.5 MB one per view cost twice the passes
 * themselves (page faults, and the garbage collections that external memory triggers).
 */
export function resizeBicubic(src: Uint8Array, iw: number, ih: number, W: number, H: number, box: readonly number[], out?: Uint8Array): Uint8Array {
  const hc = cachedCoeffs(iw, Math.fround(box[0]), Math.fround(box[2]), W);
  const vc = cachedCoeffs(ih, Math.fround(box[1]), Math.fround(box[3]), H);
  const first = vc.min[0];
  const rows = Math.max(0, vc.min[H - 1] + vc.count[H - 1] - first);
  const rowLen = W * 3;
  // Layout: source image, intermediate rows, output, then the coefficient tables.
  const tmpAt = align16(src.length + SLACK);
  const outAt = align16(tmpAt + rows * rowLen + SLACK);
  const tablesAt = align16(outAt + H * rowLen + SLACK);
  const hMin = tablesAt;
  const hCount = hMin + W * 4;
  const hK = hCount + W * 4;
  const vMin = hK + hc.k.length * 4;
  const vCount = vMin + H * 4;
  const vK = vCount + H * 4;
  const end = vK + vc.k.length * 4;
  const k = resizeKernels();
  const have = k.memory.buffer.byteLength;
  if (end > have) k.memory.grow(Math.ceil((end - have) / 65536)); // keeps the contents
  const mem = k.memory.buffer;
  const bytes = new Uint8Array(mem);
  if (resident !== src) {
    bytes.set(src, 0);
    resident = src;
  }
  const words = new Int32Array(mem);
  words.set(hc.min, hMin >> 2);
  words.set(hc.count, hCount >> 2);
  words.set(hc.k, hK >> 2);
  words.set(vc.min, vMin >> 2);
  words.set(vc.count, vCount >> 2);
  words.set(vc.k, vK >> 2);
  k.hpass(0, iw * 3, first, rows, W, hMin, hCount, hK, hc.ksize, tmpAt);
  k.vpass(tmpAt, rowLen, first, H, vMin, vCount, vK, vc.ksize, outAt);
  const result = bytes.subarray(outAt, outAt + H * rowLen);
  if (!out) return result.slice();
  if (out.length !== result.length) throw new Error(`resizeBicubic: out holds ${out.length} bytes, expected ${result.length}`);
  out.set(result);
  return out;
}
