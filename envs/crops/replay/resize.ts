/**
 * Pillow 9.4's bicubic resize with a float box (ImagingResample, 8-bit RGB), bit for bit:
 * float32 box, per-axis coefficient tables in 22-bit fixed point, a horizontal pass over only
 * the source rows the vertical pass reads into an 8-bit intermediate, then the vertical pass.
 * Pillow's shortcuts (skip a pass, copy, crop) are identities under these rules, so both passes
 * always run. Contract: crops-trace-format.md "How a view is rendered", step 2.
 */

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

const clip8 = (v: number): number => {
  const s = v >> PRECISION_BITS;
  return s < 0 ? 0 : s > 255 ? 255 : s;
};

/**
 * `src` (iw x ih RGB, row-major) resized to W x H from `box` (whole-image pixels), as
 * `img.resize((W, H), BICUBIC, box=box)` does. Returns W x H RGB.
 */
export function resizeBicubic(src: Uint8Array, iw: number, ih: number, W: number, H: number, box: readonly number[]): Uint8Array {
  const b0 = Math.fround(box[0]);
  const b1 = Math.fround(box[1]);
  const b2 = Math.fround(box[2]);
  const b3 = Math.fround(box[3]);
  const hc = coeffs(iw, b0, b2, W);
  const vc = coeffs(ih, b1, b3, H);
  // Only the rows the vertical pass reads.
  const first = vc.min[0];
  const last = vc.min[H - 1] + vc.count[H - 1];
  const rows = Math.max(0, last - first);
  const tmp = new Uint8Array(W * rows * 3);
  const srcRow = iw * 3;
  const hk = hc.k;
  const hks = hc.ksize;
  for (let r = 0; r < rows; r++) {
    const base = (first + r) * srcRow;
    let o = r * W * 3;
    for (let xx = 0; xx < W; xx++) {
      let s0 = HALF;
      let s1 = HALF;
      let s2 = HALF;
      let p = base + hc.min[xx] * 3;
      const kb = xx * hks;
      const n = hc.count[xx];
      for (let x = 0; x < n; x++, p += 3) {
        const kv = hk[kb + x];
        s0 += src[p] * kv;
        s1 += src[p + 1] * kv;
        s2 += src[p + 2] * kv;
      }
      tmp[o++] = clip8(s0);
      tmp[o++] = clip8(s1);
      tmp[o++] = clip8(s2);
    }
  }
  const rowLen = W * 3;
  const out = new Uint8Array(rowLen * H);
  const acc = new Float64Array(rowLen);
  const vk = vc.k;
  const vks = vc.ksize;
  for (let yy = 0; yy < H; yy++) {
    acc.fill(HALF);
    const n = vc.count[yy];
    const kb = yy * vks;
    let rowStart = (vc.min[yy] - first) * rowLen;
    for (let y = 0; y < n; y++, rowStart += rowLen) {
      const kv = vk[kb + y];
      if (kv === 0) continue;
      for (let j = 0; j < rowLen; j++) acc[j] += tmp[rowStart + j] * kv;
    }
    const o = yy * rowLen;
    for (let j = 0; j < rowLen; j++) out[o + j] = clip8(acc[j]);
  }
  return out;
}
