/**
 * The crops renderer against the reference gym (Pillow 9.4 + libjpeg-turbo), byte for byte:
 * 200 random image sizes, views, view sizes and boxes (render-cases.json, generated once by
 * make_fixtures.py with pixels from a formula reimplemented here), and fast-check properties
 * for the identities the contract states (Pillow's shortcuts are exact under the rules).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { encodeView, renderThumb, renderView, sha256Hex, thumbBase, type RgbImage } from "../../envs/crops/replay/render.ts";
import { resizeBicubic } from "../../envs/crops/replay/resize.ts";
import { drawRectangle } from "../../envs/crops/replay/draw.ts";
import { FIXTURES } from "../helpers.ts";

/** make_fixtures.py's pixel(): 32-bit mixing, noise or a noisy gradient. */
function pixel(x: number, y: number, c: number, seed: number, kind: string): number {
  let v = (Math.imul(x, 374761393) + Math.imul(y, 668265263) + Math.imul(c, 2246822519 | 0) + Math.imul(seed, 3266489917 | 0)) >>> 0;
  v = Math.imul((v ^ (v >>> 13)) >>> 0, 1274126177) >>> 0;
  v = (v ^ (v >>> 16)) >>> 0;
  if (kind === "noise") return v & 255;
  return (Math.floor((x * 255) / 97) + Math.floor((y * 128) / 61) + c * 40 + (v & 15)) & 255;
}

function image(iw: number, ih: number, seed: number, kind: string): RgbImage {
  const data = new Uint8Array(iw * ih * 3);
  for (let y = 0; y < ih; y++) for (let x = 0; x < iw; x++) for (let k = 0; k < 3; k++) data[(y * iw + x) * 3 + k] = pixel(x, y, k, seed, kind);
  return { width: iw, height: ih, data };
}

describe("the renderer equals the reference gym's bytes", () => {
  const cases = JSON.parse(readFileSync(join(FIXTURES, "crops", "render-cases.json"), "utf8"));

  it("200 random images, views and boxes: the view and thumbnail JPEGs have the reference's sha256", async () => {
    expect(cases.length).toBe(200);
    const wrong: string[] = [];
    for (const c of cases) {
      const img = image(c.iw, c.ih, c.seed, c.kind);
      const [W, H] = c.size;
      const v = sha256Hex(await encodeView(renderView(img, c.view, c.boxes, W, H), W, H));
      const tb = thumbBase(img);
      const t = sha256Hex(await encodeView(renderThumb(tb, c.view, c.iw, c.ih), tb.width, tb.height));
      if (v !== c.view_sha256) wrong.push(`view ${c.iw}x${c.ih} ${JSON.stringify(c.view)} -> ${W}x${H}`);
      if (t !== c.thumb_sha256) wrong.push(`thumb ${c.iw}x${c.ih} ${JSON.stringify(c.view)}`);
    }
    expect(wrong).toEqual([]);
  }, 120_000);
});

describe("properties of the resize (the identities Pillow takes as shortcuts)", () => {
  const img = fc.record({ iw: fc.integer({ min: 1, max: 40 }), ih: fc.integer({ min: 1, max: 40 }), seed: fc.integer({ min: 0, max: 1e6 }) });

  it("the whole image at its own size is a copy", () => {
    fc.assert(
      fc.property(img, ({ iw, ih, seed }) => {
        const im = image(iw, ih, seed, "noise");
        expect(resizeBicubic(im.data, iw, ih, iw, ih, [0, 0, iw, ih])).toEqual(im.data);
      }),
      { numRuns: 100 },
    );
  });

  it("an integral box of exactly W x H is a crop", () => {
    fc.assert(
      fc.property(img, fc.nat(), fc.nat(), fc.nat(), fc.nat(), ({ iw, ih, seed }, a, b, c, d) => {
        const im = image(iw, ih, seed, "noise");
        const x0 = a % iw;
        const y0 = b % ih;
        const W = 1 + (c % (iw - x0));
        const H = 1 + (d % (ih - y0));
        const out = resizeBicubic(im.data, iw, ih, W, H, [x0, y0, x0 + W, y0 + H]);
        const crop = new Uint8Array(W * H * 3);
        for (let y = 0; y < H; y++) crop.set(im.data.subarray(((y0 + y) * iw + x0) * 3, ((y0 + y) * iw + x0 + W) * 3), y * W * 3);
        expect(out).toEqual(crop);
      }),
      { numRuns: 150 },
    );
  });

  it("outlines stay within their width of the rectangle (Pillow's line quirks spill just outside tiny boxes)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -5, max: 30 }),
        fc.integer({ min: -5, max: 30 }),
        fc.nat(8),
        fc.nat(8),
        fc.integer({ min: 1, max: 3 }),
        (x0, y0, w, h, width) => {
          const W = 24;
          const H = 20;
          const px = new Uint8Array(W * H * 3);
          drawRectangle(px, W, H, [x0, y0, x0 + w, y0 + h], [255, 0, 0], width);
          for (let y = 0; y < H; y++)
            for (let x = 0; x < W; x++) {
              if (!px[(y * W + x) * 3]) continue;
              // Every set pixel is within `width` pixels of the rectangle (tiny boxes spill over).
              expect(x >= x0 - width && x <= x0 + w + width, `${x},${y}`).toBe(true);
              expect(y >= y0 - width && y <= y0 + h + width, `${x},${y}`).toBe(true);
            }
        },
      ),
      { numRuns: 200 },
    );
  });
});
