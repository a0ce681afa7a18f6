/**
 * The SIMD resize (resize-wasm.ts) against the scalar passes it replaces, byte for byte: random
 * image sizes, float boxes (upscaling and downscaling, boxes touching the edges, tiny boxes),
 * output sizes whose rows are not a multiple of 16 bytes, saturated pixels (the clamp), images
 * that alternate (the resident copy) and grow (the memory), with and without an `out` buffer.
 * The scalar passes are themselves held to the reference's bytes by crops-render.test.ts.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { resizeBicubic, resizeBicubicScalar } from "../../envs/crops/replay/resize.ts";

/** Pixels that reach the clamp: runs of 0 and 255 between noise. */
function pixels(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n);
  let s = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    const r = s >>> 24;
    out[i] = r < 50 ? 0 : r < 100 ? 255 : (s >>> 16) & 255;
  }
  return out;
}

/** The first byte where a and b differ (-1: none): a plain loop, as deep equality on 100k-byte arrays is slow. */
function firstDiff(a: Uint8Array, b: Uint8Array): number {
  if (a.length !== b.length) return -2;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return i;
  return -1;
}

const caseArb = fc
  .record({
    iw: fc.integer({ min: 1, max: 220 }),
    ih: fc.integer({ min: 1, max: 160 }),
    W: fc.integer({ min: 1, max: 300 }),
    H: fc.integer({ min: 1, max: 200 }),
    a: fc.double({ min: 0, max: 1, noNaN: true }),
    b: fc.double({ min: 0, max: 1, noNaN: true }),
    c: fc.double({ min: 0, max: 1, noNaN: true }),
    d: fc.double({ min: 0, max: 1, noNaN: true }),
    seed: fc.nat(),
  })
  .map(({ iw, ih, W, H, a, b, c, d, seed }) => {
    const x0 = a * iw * 0.95;
    const y0 = b * ih * 0.95;
    const x1 = Math.min(iw, x0 + Math.max(0.05, c * (iw - x0)));
    const y1 = Math.min(ih, y0 + Math.max(0.05, d * (ih - y0)));
    return { iw, ih, W, H, box: [x0, y0, x1, y1], seed };
  });

describe("the SIMD resize equals the scalar passes", () => {
  it("random images, float boxes and output sizes, byte for byte", () => {
    fc.assert(
      fc.property(caseArb, ({ iw, ih, W, H, box, seed }) => {
        const src = pixels(iw * ih * 3, seed);
        expect(firstDiff(resizeBicubic(src, iw, ih, W, H, box), resizeBicubicScalar(src, iw, ih, W, H, box))).toBe(-1);
      }),
      { numRuns: 300 },
    );
  });

  it("the whole image down to a thumbnail and up to a view (many taps, few taps)", () => {
    for (const [iw, ih, W, H] of [
      [640, 480, 128, 96],
      [600, 400, 512, 341],
      [97, 61, 512, 322],
      [1, 1, 5, 3],
    ]) {
      const src = pixels(iw * ih * 3, iw * ih);
      expect(firstDiff(resizeBicubic(src, iw, ih, W, H, [0, 0, iw, ih]), resizeBicubicScalar(src, iw, ih, W, H, [0, 0, iw, ih]))).toBe(-1);
    }
  });

  it("alternating images, a growing memory and a reused output buffer give the same bytes", () => {
    const small = { iw: 50, ih: 40, src: pixels(50 * 40 * 3, 1) };
    const big = { iw: 900, ih: 700, src: pixels(900 * 700 * 3, 2) };
    const out = new Uint8Array(64 * 48 * 3);
    for (const im of [small, big, small, big]) {
      const box = [im.iw * 0.1, im.ih * 0.2, im.iw * 0.7, im.ih * 0.9];
      const want = resizeBicubicScalar(im.src, im.iw, im.ih, 64, 48, box);
      expect(resizeBicubic(im.src, im.iw, im.ih, 64, 48, box, out)).toBe(out);
      expect(firstDiff(out, want)).toBe(-1);
      expect(firstDiff(resizeBicubic(im.src, im.iw, im.ih, 64, 48, box), want)).toBe(-1);
    }
  });

  it("an output buffer of the wrong size is refused", () => {
    expect(() => resizeBicubic(new Uint8Array(12), 2, 2, 2, 2, [0, 0, 2, 2], new Uint8Array(11))).toThrow(/expected 12/);
  });
});
