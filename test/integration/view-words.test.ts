/**
 * The video's in-between views (viewWords, from panoramas decoded to RGBA
 * words) are the environment's views pixel for pixel: the same pixels as the
 * verified index map gathered from the RGB decode, on every deferred view
 * of the Trieste episode (wide and zoomed, so both the panoramas and their
 * full-resolution originals) and on views whose headings sit on column
 * edges, where the exact per-pixel path decides.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { triesteDeferred } from "../helpers.ts";
import type { FramesResult } from "../../envs/geoguesser/replay/frames/frames.ts";
import { deferredImages } from "../../envs/geoguesser/src/film/render-episode.ts";
import { PanoStore, decodePano } from "../../envs/geoguesser/replay/panos/store.ts";
import { indexMap, type ViewSpec } from "../../envs/geoguesser/replay/render/reproject.ts";
import { viewPixels, wordStore } from "../../envs/geoguesser/src/film/view-pixels.ts";
import type { DeferredImage } from "../../src/film/shared/encode-options.ts";

const tmp = mkdtempSync(join(tmpdir(), "georeplay-words-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The verified path: the index map, gathered from the RGB decode, widened to opaque RGBA bytes. */
async function expected(rgb: PanoStore, d: DeferredImage<ViewSpec>): Promise<Buffer> {
  const pano = await rgb.get(d.pano);
  const { width: w, height: h } = d.view;
  const out = new Uint8Array(w * h * 3);
  indexMap(d.view, pano.width, pano.height, undefined, false, undefined, { src: pano.data, base: 0, rgb: out });
  const rgba = Buffer.alloc(w * h * 4, 255);
  for (let p = 0, q = 0; p < out.length; p += 3, q += 4) {
    rgba[q] = out[p];
    rgba[q + 1] = out[p + 1];
    rgba[q + 2] = out[p + 2];
  }
  return rgba;
}

async function words(store: PanoStore, d: DeferredImage): Promise<Buffer> {
  const out = new Uint32Array(d.view.width * d.view.height);
  await viewPixels(store, d, out);
  return Buffer.from(out.buffer);
}

describe("in-between views as RGBA words", () => {
  let frames: FramesResult;
  beforeAll(async () => {
    frames = await triesteDeferred(tmp);
  });

  it("decodes the same colour bytes as the RGB decode, with an opaque alpha after each pixel", async () => {
    const file = deferredImages(frames)[0].pano;
    const [rgb, rgba] = await Promise.all([decodePano(file), decodePano(file, undefined, 4)]);
    expect(rgba.channels).toBe(4);
    expect(rgba.data.byteOffset % 4).toBe(0);
    expect(rgba.data.length).toBe((rgb.data.length / 3) * 4);
    let differ = 0;
    for (let p = 0, n = rgb.data.length / 3; p < n; p++) {
      for (let c = 0; c < 3; c++) if (rgba.data[4 * p + c] !== rgb.data[3 * p + c]) differ++;
      if (rgba.data[4 * p + 3] !== 255) differ++;
    }
    expect(differ).toBe(0);
  });

  it("gives every deferred Trieste view exactly the verified renderer's pixels, wide and zoomed", async () => {
    const deferred = deferredImages(frames);
    const rgb = new PanoStore("", 256 * 1024 * 1024);
    const store = wordStore();
    const fovs = new Set<number>();
    for (let i = 0; i < deferred.length; i++) {
      fovs.add(deferred[i].view.fovDeg);
      expect(Buffer.compare(await words(store, deferred[i]), await expected(rgb, deferred[i])), `view ${i} (${JSON.stringify(deferred[i].view)})`).toBe(0);
    }
    expect(deferred.length).toBeGreaterThan(100);
    expect(Math.min(...fovs)).toBeLessThan(45); // zoomed: the full-resolution originals too
    expect(Math.max(...fovs)).toBeGreaterThan(45);
  });

  it("matches on headings and pitches at column and row edges, where pixels take the exact path", async () => {
    const pano = deferredImages(frames)[0].pano;
    const rgb = new PanoStore("", 256 * 1024 * 1024);
    const store = wordStore();
    const views: ViewSpec[] = [];
    for (const headingDeg of [0, 90, 180, -180, 359.99999999, 45 + 1e-12, 0.087890625])
      for (const pitchDeg of [0, 30, -89.9, 90])
        for (const [width, height] of [
          [640, 640],
          [64, 48],
        ])
          views.push({ headingDeg, pitchDeg, fovDeg: 90, width, height });
    for (const view of views) {
      const d = { src: "x", env: "geoguesser", pano, view };
      expect(Buffer.compare(await words(store, d), await expected(rgb, d)), JSON.stringify(view)).toBe(0);
    }
  });

  it("refuses a store of RGB bytes, which it would read as words", async () => {
    const d = deferredImages(frames)[0];
    await expect(viewPixels(new PanoStore(""), d, new Uint32Array(d.view.width * d.view.height))).rejects.toThrow(/RGBA words/);
  });
});
