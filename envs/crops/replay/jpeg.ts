/**
 * The gym's JPEG bytes without sharp: a port of the parts of libjpeg-turbo that Pillow's
 * `save(format="JPEG", quality=85, optimize=True)` runs on an RGB image (baseline, 4:2:0), so
 * the output is the same bytes (sharp stays the test oracle). Followed step by step:
 *  - jccolor.c rgb_ycc_convert: 16-bit fixed-point tables, Cb/Cr offset by 128 with
 *    ONE_HALF - 1 rounding;
 *  - jcprepct.c / jcsample.c: rows padded by repeating the last row (to an even count before
 *    downsampling, to whole blocks after), columns by repeating the last column; h2v2_downsample
 *    averages 2x2 with the bias alternating 1, 2 along a row;
 *  - jfdctint.c islow FDCT, jcdctmgr.c's quantisation by reciprocal (compute_reciprocal) of the
 *    quality-85 scaled standard tables times 8;
 *  - jccoefct.c: luma blocks past the image's blocks in an edge MCU are dummies (zero AC, the DC
 *    of the block before them in the MCU);
 *  - jchuff.c: the statistics pass, jpeg_gen_optimal_table, the encode with 0xFF00 stuffing and
 *    1-bit padding;
 *  - jcmarker.c's order: SOI, APP0 JFIF 1.1 (density 1:1), DQT 0, DQT 1, SOF0, DHT DC0 AC0 DC1
 *    AC1, SOS, data, EOI.
 * Quantised coefficients are kept per block so a caller can re-encode an image that differs
 * from a previous one in a few blocks (see `JpegEncoder.encodePatched`).
 */

/** Zigzag position -> natural (row-major) index in an 8x8 block. */
const NATURAL = Int32Array.from([
  0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22,
  15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63,
]);

const STD_LUMA = [
  16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22, 29, 51, 87, 80, 62, 18, 22, 37, 56, 68, 109, 103,
  77, 24, 35, 55, 64, 81, 104, 113, 92, 49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99,
];
const STD_CHROMA = [
  17, 18, 24, 47, 99, 99, 99, 99, 18, 21, 26, 66, 99, 99, 99, 99, 24, 26, 56, 99, 99, 99, 99, 99, 47, 66, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99,
  99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99,
];

/** jcparam.c jpeg_set_quality + jpeg_add_quant_table(force_baseline): natural order. */
export function quantTable(base: readonly number[], quality: number): Int32Array {
  const scale = quality < 50 ? Math.floor(5000 / quality) : 200 - quality * 2;
  return Int32Array.from(base, (b) => Math.min(255, Math.max(1, Math.floor((b * scale + 50) / 100))));
}

/** jcdctmgr.c compute_reciprocal for 16-bit DCTELEM: per zigzag position, reciprocal, correction, shift. */
function reciprocals(q: Int32Array): { recip: Int32Array; corr: Int32Array; shift: Int32Array } {
  const recip = new Int32Array(64);
  const corr = new Int32Array(64);
  const shift = new Int32Array(64);
  for (let i = 0; i < 64; i++) {
    const d = q[NATURAL[i]] << 3;
    let r = 16 + (31 - Math.clz32(d));
    let fq = Math.floor(2 ** r / d);
    const fr = 2 ** r % d;
    let c = d >> 1;
    if (fr === 0) {
      fq = Math.floor(fq / 2);
      r--;
    } else if (fr <= d >> 1) c++;
    else fq++;
    recip[i] = fq;
    corr[i] = c;
    shift[i] = r;
  }
  return { recip, corr, shift };
}

// jccolor.c's coefficients (SCALEBITS 16): Y rounds with ONE_HALF, Cb and Cr are offset by
// 128 with ONE_HALF - 1 (the B->Cb and R->Cr tables).
const FIX = (x: number) => Math.floor(x * 65536 + 0.5);
const Y_R = FIX(0.299),
  Y_G = FIX(0.587),
  Y_B = FIX(0.114),
  CB_R = -FIX(0.16874),
  CB_G = -FIX(0.33126),
  HALF = FIX(0.5),
  CR_G = -FIX(0.41869),
  CR_B = -FIX(0.08131);
const Y_ROUND = 1 << 15;
const CBCR_ROUND = (128 << 16) + (1 << 15) - 1;

const QUALITY = 85;
const Q = [quantTable(STD_LUMA, QUALITY), quantTable(STD_CHROMA, QUALITY)];
const RECIP = Q.map(reciprocals);

/**
 * jfdctint.c jpeg_fdct_islow on `ws` (64 centred samples, natural order), then the
 * quantisation: block `b`'s DC into `c.dc`, its AC coefficients straight into their symbols
 * (jchuff.c's run/size with extra bits, ZRL, EOB) in `c.ac`.
 */
function fdctQuantize(ws: Int32Array, c: Coefficients, b: number, t: number): void {
  for (let r = 0; r < 64; r += 8) {
    const d0 = ws[r],
      d1 = ws[r + 1],
      d2 = ws[r + 2],
      d3 = ws[r + 3],
      d4 = ws[r + 4],
      d5 = ws[r + 5],
      d6 = ws[r + 6],
      d7 = ws[r + 7];
    const tmp0 = d0 + d7,
      tmp7 = d0 - d7,
      tmp1 = d1 + d6,
      tmp6 = d1 - d6,
      tmp2 = d2 + d5,
      tmp5 = d2 - d5,
      tmp3 = d3 + d4,
      tmp4 = d3 - d4;
    const tmp10 = tmp0 + tmp3,
      tmp13 = tmp0 - tmp3,
      tmp11 = tmp1 + tmp2,
      tmp12 = tmp1 - tmp2;
    ws[r] = (tmp10 + tmp11) << 2;
    ws[r + 4] = (tmp10 - tmp11) << 2;
    const z1 = (tmp12 + tmp13) * 4433;
    ws[r + 2] = (z1 + tmp13 * 6270 + 1024) >> 11;
    ws[r + 6] = (z1 - tmp12 * 15137 + 1024) >> 11;
    const z5 = (tmp4 + tmp6 + tmp5 + tmp7) * 9633;
    const a1 = (tmp4 + tmp7) * -7373,
      a2 = (tmp5 + tmp6) * -20995,
      a3 = (tmp4 + tmp6) * -16069 + z5,
      a4 = (tmp5 + tmp7) * -3196 + z5;
    ws[r + 7] = (tmp4 * 2446 + a1 + a3 + 1024) >> 11;
    ws[r + 5] = (tmp5 * 16819 + a2 + a4 + 1024) >> 11;
    ws[r + 3] = (tmp6 * 25172 + a2 + a3 + 1024) >> 11;
    ws[r + 1] = (tmp7 * 12299 + a1 + a4 + 1024) >> 11;
  }
  for (let c = 0; c < 8; c++) {
    const d0 = ws[c],
      d1 = ws[c + 8],
      d2 = ws[c + 16],
      d3 = ws[c + 24],
      d4 = ws[c + 32],
      d5 = ws[c + 40],
      d6 = ws[c + 48],
      d7 = ws[c + 56];
    const tmp0 = d0 + d7,
      tmp7 = d0 - d7,
      tmp1 = d1 + d6,
      tmp6 = d1 - d6,
      tmp2 = d2 + d5,
      tmp5 = d2 - d5,
      tmp3 = d3 + d4,
      tmp4 = d3 - d4;
    const tmp10 = tmp0 + tmp3,
      tmp13 = tmp0 - tmp3,
      tmp11 = tmp1 + tmp2,
      tmp12 = tmp1 - tmp2;
    ws[c] = (tmp10 + tmp11 + 2) >> 2;
    ws[c + 32] = (tmp10 - tmp11 + 2) >> 2;
    const z1 = (tmp12 + tmp13) * 4433;
    ws[c + 16] = (z1 + tmp13 * 6270 + 16384) >> 15;
    ws[c + 48] = (z1 - tmp12 * 15137 + 16384) >> 15;
    const z5 = (tmp4 + tmp6 + tmp5 + tmp7) * 9633;
    const a1 = (tmp4 + tmp7) * -7373,
      a2 = (tmp5 + tmp6) * -20995,
      a3 = (tmp4 + tmp6) * -16069 + z5,
      a4 = (tmp5 + tmp7) * -3196 + z5;
    ws[c + 56] = (tmp4 * 2446 + a1 + a3 + 16384) >> 15;
    ws[c + 40] = (tmp5 * 16819 + a2 + a4 + 16384) >> 15;
    ws[c + 24] = (tmp6 * 25172 + a2 + a3 + 16384) >> 15;
    ws[c + 8] = (tmp7 * 12299 + a1 + a4 + 16384) >> 15;
  }
  const { recip, corr, shift } = RECIP[t];
  // (|v| + corr) * recip < 2^32 for 8-bit samples: imul's low 32 bits read unsigned by >>>.
  const v0 = ws[0];
  c.dc[b] = v0 < 0 ? -(Math.imul(corr[0] - v0, recip[0]) >>> shift[0]) : Math.imul(v0 + corr[0], recip[0]) >>> shift[0];
  const ac = c.ac;
  const o = b * 64;
  let n = 0,
    r = 0;
  for (let k = 1; k < 64; k++) {
    const v = ws[NATURAL[k]];
    let q: number, nb: number;
    if (v < 0) {
      q = Math.imul(corr[k] - v, recip[k]) >>> shift[k];
      if (q === 0) {
        r++;
        continue;
      }
      nb = nbitsOf(q);
      q = ~q; // -q - 1: the low nb bits are the extra bits of a negative value
    } else {
      q = Math.imul(v + corr[k], recip[k]) >>> shift[k];
      if (q === 0) {
        r++;
        continue;
      }
      nb = nbitsOf(q);
    }
    while (r > 15) {
      ac[o + n++] = 0xf0;
      r -= 16;
    }
    ac[o + n++] = ((q & ((1 << nb) - 1)) << 8) | (r << 4) | nb;
    r = 0;
  }
  if (r > 0) ac[o + n++] = 0;
  c.n[b] = n;
}

/** jchuff.c jpeg_gen_optimal_table: `freq` (257 counts, [256] set here) -> bits[1..16] and huffval. */
export function optimalTable(counts: ArrayLike<number>): { bits: Uint8Array; vals: Uint8Array } {
  const freq = new Float64Array(257);
  const nz = new Int32Array(257);
  const codesize = new Int32Array(257);
  const others = new Int32Array(257).fill(-1);
  const bits = new Int32Array(34);
  let n = 0;
  for (let i = 0; i < 257; i++) {
    const f = i === 256 ? 1 : i < counts.length ? counts[i] : 0;
    if (f) {
      nz[n] = i;
      freq[n++] = f;
    }
  }
  for (;;) {
    let c1 = -1,
      c2 = -1,
      v = 1e9,
      v2 = 1e9;
    for (let i = 0; i < n; i++) {
      const f = freq[i];
      if (f <= v2) {
        if (f <= v) {
          c2 = c1;
          v2 = v;
          v = f;
          c1 = i;
        } else {
          v2 = f;
          c2 = i;
        }
      }
    }
    if (c2 < 0) break;
    freq[c1] += freq[c2];
    freq[c2] = 1000000001;
    codesize[c1]++;
    while (others[c1] >= 0) codesize[(c1 = others[c1])]++;
    others[c1] = c2;
    codesize[c2]++;
    while (others[c2] >= 0) codesize[(c2 = others[c2])]++;
  }
  for (let i = 0; i < n; i++) {
    if (codesize[i] > 32) throw new Error("JPEG Huffman code length overflow");
    bits[codesize[i]]++;
  }
  const bitPos = new Int32Array(33);
  for (let i = 1, p = 0; i <= 32; i++) {
    bitPos[i] = p;
    p += bits[i];
  }
  let i = 32;
  for (; i > 16; i--) {
    while (bits[i] > 0) {
      let j = i - 2;
      while (bits[j] === 0) j--;
      bits[i] -= 2;
      bits[i - 1]++;
      bits[j + 1] += 2;
      bits[j]--;
    }
  }
  while (bits[i] === 0) i--;
  bits[i]--;
  const vals = new Uint8Array(n - 1);
  for (let k = 0; k < n - 1; k++) vals[bitPos[codesize[k]]++] = nz[k];
  return { bits: Uint8Array.from(bits.subarray(1, 17)), vals };
}

/** jchuff.c jpeg_make_c_derived_tbl: code and length per symbol. */
function derived(t: { bits: Uint8Array; vals: Uint8Array }): { code: Int32Array; size: Int32Array } {
  const code = new Int32Array(256);
  const size = new Int32Array(256);
  let c = 0,
    p = 0;
  for (let l = 1; l <= 16; l++) {
    for (let k = 0; k < t.bits[l - 1]; k++) {
      code[t.vals[p]] = c++;
      size[t.vals[p++]] = l;
    }
    c <<= 1;
  }
  return { code, size };
}

const nbitsOf = (v: number) => 32 - Math.clz32(v);

/** Blocks per MCU (4 luma, Cb, Cr) and the luma block (row, column) of each. */
const BLOCKS = 6;

/** A layout: the sizes everything else is derived from. */
interface Layout {
  W: number;
  H: number;
  mcuX: number;
  mcuY: number;
  /** Luma blocks across and down that hold image data (the rest of the MCU grid is dummies). */
  yBlocksX: number;
  yBlocksY: number;
  /** Padded luma plane (whole blocks) and chroma plane widths/heights. */
  yW: number;
  yH: number;
  cW: number;
  cH: number;
}

function layout(W: number, H: number): Layout {
  const yBlocksX = Math.ceil(W / 8),
    yBlocksY = Math.ceil(H / 8);
  const cBlocksX = Math.ceil(Math.ceil(W / 2) / 8),
    cBlocksY = Math.ceil(Math.ceil(H / 2) / 8);
  return {
    W,
    H,
    mcuX: Math.ceil(W / 16),
    mcuY: Math.ceil(H / 16),
    yBlocksX,
    yBlocksY,
    yW: yBlocksX * 8,
    yH: yBlocksY * 8,
    cW: cBlocksX * 8,
    cH: cBlocksY * 8,
  };
}

const JFIF_APP0 = [0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00];

/**
 * One image quantised, 6 blocks per MCU in scan order: each block's DC, and its AC coefficients
 * as the entries the entropy pass writes (extra bits << 8 | run << 4 | size; at most 64 per block).
 */
export interface Coefficients {
  W: number;
  H: number;
  dc: Int16Array;
  ac: Int32Array;
  n: Uint8Array;
}

/** Coefficient storage for `blocks` blocks: `into`'s when large enough. */
function storage(W: number, H: number, blocks: number, into?: Coefficients): Coefficients {
  if (into && into.dc.length >= blocks) return { W, H, dc: into.dc.subarray(0, blocks), ac: into.ac.subarray(0, blocks * 64), n: into.n.subarray(0, blocks) };
  return { W, H, dc: new Int16Array(blocks), ac: new Int32Array(blocks * 64), n: new Uint8Array(blocks) };
}

/**
 * One encoder, its buffers reused between calls (one image at a time: not re-entrant).
 */
export class JpegEncoder {
  private yPlane = new Uint8Array(0);
  private cbPlane = new Uint8Array(0);
  private crPlane = new Uint8Array(0);
  private cbRow = new Int32Array(0);
  private crRow = new Int32Array(0);
  private readonly ws = new Int32Array(64);
  private out = new Uint8Array(1 << 16);

  /** The JPEG bytes of `rgb` (W x H, 8-bit RGB), as a fresh buffer. */
  encode(rgb: Uint8Array, W: number, H: number): Buffer {
    return this.entropy(this.coefficients(rgb, W, H));
  }

  /** Colour conversion, downsampling, FDCT and quantisation of a whole image, into `into` when it fits. */
  coefficients(rgb: Uint8Array, W: number, H: number, into?: Coefficients): Coefficients {
    if (!(W >= 1 && H >= 1 && W <= 65535 && H <= 65535) || rgb.length < W * H * 3) throw new Error(`JPEG: bad image ${W}x${H}`);
    const L = layout(W, H);
    const c = storage(W, H, L.mcuX * L.mcuY * BLOCKS, into);
    this.planes(rgb, L, 0, L.mcuY, 0, L.mcuX);
    for (let my = 0; my < L.mcuY; my++) for (let mx = 0; mx < L.mcuX; mx++) this.mcu(L, c, mx, my);
    return c;
  }

  /**
   * The planes (Y at full size, Cb/Cr downsampled) for MCU rows my0..my1-1 and columns
   * mx0..mx1-1 (elsewhere the planes keep whatever they held).
   */
  private planes(rgb: Uint8Array, L: Layout, my0: number, my1: number, mx0: number, mx1: number): void {
    const { W, H, yW, yH, cW, cH } = L;
    if (this.yPlane.length < yW * yH) this.yPlane = new Uint8Array(yW * yH);
    if (this.cbPlane.length < cW * cH) {
      this.cbPlane = new Uint8Array(cW * cH);
      this.crPlane = new Uint8Array(cW * cH);
    }
    const rowW = cW * 2;
    if (this.cbRow.length < rowW * 2) {
      this.cbRow = new Int32Array(rowW * 2);
      this.crRow = new Int32Array(rowW * 2);
    }
    const Y = this.yPlane,
      Cb = this.cbPlane,
      Cr = this.crPlane,
      cbRow = this.cbRow,
      crRow = this.crRow;
    const last = mx1 === L.mcuX;
    const xs = mx0 * 16,
      xe = Math.min(mx1 * 16, W);
    const realC = Math.ceil(H / 2);
    const cy0 = my0 * 8,
      cy1 = Math.min(my1 * 8, realC);
    for (let cy = cy0; cy < cy1; cy++) {
      // Two source rows (the last repeated when H is odd): Y into the plane, Cb/Cr into full-width rows.
      for (let k = 0; k < 2; k++) {
        const y = Math.min(cy * 2 + k, H - 1);
        const yRow = cy * 2 + k;
        const ro = k * rowW;
        let s = (y * W + xs) * 3;
        if (yRow < yH) {
          const yo = yRow * yW;
          for (let x = xs; x < xe; x++, s += 3) {
            const r = rgb[s],
              g = rgb[s + 1],
              b = rgb[s + 2];
            Y[yo + x] = (Y_R * r + Y_G * g + Y_B * b + Y_ROUND) >> 16;
            cbRow[ro + x] = (CB_R * r + CB_G * g + HALF * b + CBCR_ROUND) >> 16;
            crRow[ro + x] = (HALF * r + CR_G * g + CR_B * b + CBCR_ROUND) >> 16;
          }
          if (last) for (let x = W; x < yW; x++) Y[yo + x] = Y[yo + W - 1];
        } else {
          for (let x = xs; x < xe; x++, s += 3) {
            const r = rgb[s],
              g = rgb[s + 1],
              b = rgb[s + 2];
            cbRow[ro + x] = (CB_R * r + CB_G * g + HALF * b + CBCR_ROUND) >> 16;
            crRow[ro + x] = (HALF * r + CR_G * g + CR_B * b + CBCR_ROUND) >> 16;
          }
        }
        if (last)
          for (let x = W; x < rowW; x++) {
            cbRow[ro + x] = cbRow[ro + W - 1];
            crRow[ro + x] = crRow[ro + W - 1];
          }
      }
      const co = cy * cW;
      for (let x = mx0 * 8, xEnd = Math.min(mx1 * 8, cW), bias = 1; x < xEnd; x++, bias ^= 3) {
        const a = 2 * x;
        Cb[co + x] = (cbRow[a] + cbRow[a + 1] + cbRow[rowW + a] + cbRow[rowW + a + 1] + bias) >> 2;
        Cr[co + x] = (crRow[a] + crRow[a + 1] + crRow[rowW + a] + crRow[rowW + a + 1] + bias) >> 2;
      }
    }
    // Rows past the image: copies of the last real row (luma rows past an odd H were written above).
    for (let y = Math.max(H, my0 * 16); y < Math.min(yH, my1 * 16); y++) Y.copyWithin(y * yW, (H - 1) * yW, H * yW);
    for (let y = Math.max(realC, my0 * 8); y < Math.min(cH, my1 * 8); y++) {
      Cb.copyWithin(y * cW, (realC - 1) * cW, realC * cW);
      Cr.copyWithin(y * cW, (realC - 1) * cW, realC * cW);
    }
  }

  /** One MCU's six blocks from the planes into `coef`, dummies as jccoefct.c makes them. */
  private mcu(L: Layout, c: Coefficients, mx: number, my: number): void {
    const base = (my * L.mcuX + mx) * BLOCKS;
    for (let j = 0; j < 4; j++) {
      const bx = mx * 2 + (j & 1),
        by = my * 2 + (j >> 1);
      if (bx < L.yBlocksX && by < L.yBlocksY) this.block(this.yPlane, L.yW, bx * 8, by * 8, c, base + j, 0);
      else {
        // All AC zero (one EOB); the DC of the block to its left (right dummy) or of the MCU's second block (bottom).
        c.dc[base + j] = c.dc[base + (by < L.yBlocksY ? j - 1 : 1)];
        c.ac[(base + j) * 64] = 0;
        c.n[base + j] = 1;
      }
    }
    this.block(this.cbPlane, L.cW, mx * 8, my * 8, c, base + 4, 1);
    this.block(this.crPlane, L.cW, mx * 8, my * 8, c, base + 5, 1);
  }

  private block(plane: Uint8Array, stride: number, x: number, y: number, c: Coefficients, b: number, t: number): void {
    const ws = this.ws;
    for (let r = 0, p = y * stride + x; r < 64; r += 8, p += stride) {
      ws[r] = plane[p] - 128;
      ws[r + 1] = plane[p + 1] - 128;
      ws[r + 2] = plane[p + 2] - 128;
      ws[r + 3] = plane[p + 3] - 128;
      ws[r + 4] = plane[p + 4] - 128;
      ws[r + 5] = plane[p + 5] - 128;
      ws[r + 6] = plane[p + 6] - 128;
      ws[r + 7] = plane[p + 7] - 128;
    }
    fdctQuantize(ws, c, b, t);
  }

  /**
   * `base`'s coefficients with the MCUs that hold any pixel of `rects` ([x0, y0, x1, y1],
   * inclusive, clipped here) recomputed from `rgb`, which differs from base's image only
   * inside them; into `into` when it fits. A pixel feeds only its own MCU (chroma pairs, edge
   * padding and the dummy blocks' DC all stay inside it).
   */
  patched(base: Coefficients, rgb: Uint8Array, rects: readonly (readonly number[])[], into?: Coefficients): Coefficients {
    const { W, H } = base;
    const L = layout(W, H);
    const coef = storage(W, H, base.dc.length, into);
    coef.dc.set(base.dc);
    coef.ac.set(base.ac);
    coef.n.set(base.n);
    const dirty = new Uint8Array(L.mcuX * L.mcuY);
    for (const [x0, y0, x1, y1] of rects) {
      const ax = Math.max(0, Math.min(x0, x1)),
        bx = Math.min(W - 1, Math.max(x0, x1));
      const ay = Math.max(0, Math.min(y0, y1)),
        by = Math.min(H - 1, Math.max(y0, y1));
      if (ax > bx || ay > by) continue;
      for (let my = ay >> 4; my <= by >> 4; my++) dirty.fill(1, my * L.mcuX + (ax >> 4), my * L.mcuX + (bx >> 4) + 1);
    }
    for (let my = 0; my < L.mcuY; my++) {
      for (let mx = 0; mx < L.mcuX;) {
        if (!dirty[my * L.mcuX + mx]) {
          mx++;
          continue;
        }
        let end = mx + 1;
        while (end < L.mcuX && dirty[my * L.mcuX + end]) end++;
        this.planes(rgb, L, my, my + 1, mx, end);
        for (; mx < end; mx++) this.mcu(L, coef, mx, my);
      }
    }
    return coef;
  }

  private dcSyms = new Int32Array(0);
  private readonly freq = new Int32Array(4 * 256);
  private readonly codes = new Int32Array(4 * 256);
  private readonly sizes = new Int32Array(4 * 256);

  /**
   * The statistics pass (jchuff.c htest_one_block over the blocks' symbols), the optimal tables
   * and the entropy-coded file around them.
   */
  entropy(c: Coefficients): Buffer {
    const nBlocks = c.dc.length;
    const freq = this.freq;
    freq.fill(0);
    if (this.dcSyms.length < nBlocks) this.dcSyms = new Int32Array(nBlocks);
    const entries = gather(c, freq, this.dcSyms);
    const tables = [0, 1, 2, 3].map((t) => optimalTable(freq.subarray(t * 256, t * 256 + 256)));
    tables.forEach((t, i) => {
      const d = derived(t);
      this.codes.set(d.code, i * 256);
      this.sizes.set(d.size, i * 256);
    });
    const header = headerBytes(c.W, c.H, tables);
    const need = header.length + (entries + nBlocks) * 7 + 16; // 27 bits per symbol, each byte possibly stuffed
    if (this.out.length < need) this.out = new Uint8Array(Math.max(need, this.out.length * 2));
    this.out.set(header);
    const end = scan(c, this.dcSyms, this.codes, this.sizes, this.out, header.length);
    return Buffer.from(this.out.subarray(0, end));
  }
}

/**
 * The statistics pass (jchuff.c htest_one_block over the blocks' symbols) into `freq` (tables
 * 0 DC luma, 1 AC luma, 2 DC chroma, 3 AC chroma, 256 entries each); each block's DC symbol
 * (extra bits << 8 | size) into `dcSyms`. Returns the number of AC symbols.
 */
function gather({ dc, ac, n: counts }: Coefficients, freq: Int32Array, dcSyms: Int32Array): number {
  const nBlocks = dc.length;
  let lastY = 0,
    lastCb = 0,
    lastCr = 0,
    entries = 0;
  for (let b = 0, j = 0; b < nBlocks; b++, j = j === 5 ? 0 : j + 1) {
    let d = dc[b];
    if (j < 4) {
      d -= lastY;
      lastY = dc[b];
    } else if (j === 4) {
      d -= lastCb;
      lastCb = dc[b];
    } else {
      d -= lastCr;
      lastCr = dc[b];
    }
    let nb = 0;
    if (d < 0) {
      nb = nbitsOf(-d);
      d--;
    } else if (d) nb = nbitsOf(d);
    const dcT = j < 4 ? 0 : 512;
    freq[dcT + nb]++;
    dcSyms[b] = ((d & ((1 << nb) - 1)) << 8) | nb;
    const acT = dcT + 256;
    const cnt = counts[b];
    entries += cnt;
    for (let i = b * 64, e = i + cnt; i < e; i++) freq[acT + (ac[i] & 255)]++;
  }
  return entries;
}

/** SOI, APP0 JFIF, DQT 0 and 1, SOF0, DHT DC0 AC0 DC1 AC1, SOS: jcmarker.c's order. */
function headerBytes(W: number, H: number, tables: { bits: Uint8Array; vals: Uint8Array }[]): number[] {
  const h = [0xff, 0xd8, ...JFIF_APP0];
  for (let t = 0; t < 2; t++) {
    h.push(0xff, 0xdb, 0, 67, t);
    for (let k = 0; k < 64; k++) h.push(Q[t][NATURAL[k]]);
  }
  h.push(0xff, 0xc0, 0, 17, 8, H >> 8, H & 255, W >> 8, W & 255, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1);
  const classes = [0x00, 0x10, 0x01, 0x11];
  tables.forEach((t, i) => {
    const len = 2 + 1 + 16 + t.vals.length;
    h.push(0xff, 0xc4, len >> 8, len & 255, classes[i], ...t.bits, ...t.vals);
  });
  h.push(0xff, 0xda, 0, 12, 3, 1, 0x00, 2, 0x11, 3, 0x11, 0, 63, 0);
  return h;
}

/**
 * The entropy-coded scan into `out` from `pos`, then EOI; returns the end. At most 7 bits
 * pending, plus a code (<= 16 bits) or its extra bits (<= 11) per step; 0xFF bytes stuffed
 * with 0x00, the last byte padded with 1 bits (jchuff.c flush_bits).
 */
function scan({ dc, ac, n: counts }: Coefficients, dcSyms: Int32Array, codes: Int32Array, sizes: Int32Array, out: Uint8Array, pos: number): number {
  const nBlocks = dc.length;
  let buf = 0,
    cnt = 0;
  for (let b = 0, j = 0; b < nBlocks; b++, j = j === 5 ? 0 : j + 1) {
    const dcT = j < 4 ? 0 : 512;
    const acT = dcT + 256;
    // The DC symbol (its size category is the symbol) and its extra bits in one step: at most 13
    // DC symbols, so codes of <= 12 bits, + 11 extra + 7 pending fit in 32.
    const en = dcSyms[b];
    let nb = en & 255;
    buf = (buf << sizes[dcT + nb]) | codes[dcT + nb];
    cnt += sizes[dcT + nb];
    if (nb) {
      buf = (buf << nb) | (en >>> 8);
      cnt += nb;
    }
    while (cnt >= 8) {
      cnt -= 8;
      const v = (buf >>> cnt) & 255;
      out[pos++] = v;
      if (v === 255) out[pos++] = 0;
    }
    buf &= 255;
    for (let i = b * 64, e = i + counts[b]; i < e; i++) {
      const a = ac[i];
      const idx = acT + (a & 255);
      buf = (buf << sizes[idx]) | codes[idx];
      cnt += sizes[idx];
      while (cnt >= 8) {
        cnt -= 8;
        const v = (buf >>> cnt) & 255;
        out[pos++] = v;
        if (v === 255) out[pos++] = 0;
      }
      nb = a & 15;
      if (nb) {
        buf = ((buf & 255) << nb) | (a >>> 8);
        cnt += nb;
        while (cnt >= 8) {
          cnt -= 8;
          const v = (buf >>> cnt) & 255;
          out[pos++] = v;
          if (v === 255) out[pos++] = 0;
        }
      }
      buf &= 255;
    }
  }
  buf = (buf << 7) | 0x7f;
  cnt += 7;
  if (cnt >= 8) {
    const v = (buf >>> (cnt - 8)) & 255;
    out[pos++] = v;
    if (v === 255) out[pos++] = 0;
  }
  out[pos++] = 0xff;
  out[pos++] = 0xd9;
  return pos;
}
