/**
 * Our JPEG encoder (envs/crops/replay/jpeg.ts) against sharp (libjpeg-turbo, the bytes Pillow
 * writes), byte for byte: random and flat pixels at random sizes (odd, 1x1, 17x9, the view and
 * thumbnail sizes), and the incremental path (a base image's coefficients patched where boxes
 * were drawn) against encoding the drawn image whole.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { encodeJpeg } from "../../replay/render/encode.ts";
import { JpegEncoder } from "../../envs/crops/replay/jpeg.ts";
import { drawBoxes, outlineRects } from "../../envs/crops/replay/render.ts";

/** Pixels of one kind: noise, one flat colour, or a noisy gradient (what photos compress like). */
function pixels(w: number, h: number, seed: number, kind: "noise" | "flat" | "gradient"): Uint8Array {
  const px = new Uint8Array(w * h * 3);
  let s = seed >>> 0 || 1;
  const rnd = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) >>> 24;
  for (let y = 0, o = 0; y < h; y++)
    for (let x = 0; x < w; x++)
      for (let c = 0; c < 3; c++, o++)
        px[o] = kind === "noise" ? rnd() : kind === "flat" ? (seed * (c + 3)) & 255 : (x * (c + 1) + y * 2 + (rnd() & 15) + seed) & 255;
  return px;
}

const KINDS = ["noise", "flat", "gradient"] as const;

describe("the JPEG encoder writes sharp's (libjpeg-turbo's) bytes", () => {
  const enc = new JpegEncoder();

  it("fixed sizes: 1x1, 17x9, 512x341, 512x384, 128x96 and the edge cases around 8 and 16", async () => {
    const wrong: string[] = [];
    const sizes = [
      [1, 1],
      [17, 9],
      [512, 341],
      [512, 384],
      [128, 96],
      [96, 128],
      [2, 1],
      [8, 8],
      [15, 17],
      [16, 16],
      [31, 33],
      [7, 200],
    ];
    for (const [w, h] of sizes)
      for (const kind of KINDS) {
        const px = pixels(w, h, w * 31 + h, kind);
        if (!enc.encode(px, w, h).equals(await encodeJpeg(px, w, h, 85))) wrong.push(`${w}x${h} ${kind}`);
      }
    expect(wrong).toEqual([]);
  }, 60_000);

  it("random sizes and pixels", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 300 }),
        fc.integer({ min: 1, max: 300 }),
        fc.integer({ min: 0, max: 1e6 }),
        fc.constantFrom(...KINDS),
        async (w, h, seed, kind) => {
          const px = pixels(w, h, seed, kind);
          expect(enc.encode(px, w, h).equals(await encodeJpeg(px, w, h, 85))).toBe(true);
        },
      ),
      { numRuns: 150 },
    );
  }, 120_000);
});

describe("a base's coefficients patched where boxes were drawn equal the drawn image encoded whole", () => {
  const enc = new JpegEncoder();
  const box = fc.record({
    id: fc.integer({ min: 1, max: 12 }),
    box: fc.tuple(
      fc.integer({ min: -50, max: 1100 }),
      fc.integer({ min: -50, max: 1100 }),
      fc.integer({ min: -50, max: 1100 }),
      fc.integer({ min: -50, max: 1100 }),
    ),
  });

  it("random views, sizes and boxes (tiny, crossing the edges, outside)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 200 }),
        fc.integer({ min: 1, max: 200 }),
        fc.integer({ min: 0, max: 1e6 }),
        fc.array(box, { maxLength: 5 }),
        (w, h, seed, raw) => {
          const view = [0, 0, 1000, 1000];
          const boxes = raw.map((b) => ({
            id: b.id,
            box: [Math.min(b.box[0], b.box[2]), Math.min(b.box[1], b.box[3]), Math.max(b.box[0], b.box[2]) + 1, Math.max(b.box[1], b.box[3]) + 1],
          }));
          const base = pixels(w, h, seed, "gradient");
          const baseCoef = enc.coefficients(base, w, h, undefined);
          const saved = { ...baseCoef, dc: baseCoef.dc.slice(), ac: baseCoef.ac.slice(), n: baseCoef.n.slice() };
          const drawn = drawBoxes(base.slice(), w, h, view, boxes);
          const whole = enc.encode(drawn, w, h);
          const patched = enc.entropy(enc.patched(saved, drawn, outlineRects(w, h, view, boxes)));
          expect(patched.equals(whole)).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});
