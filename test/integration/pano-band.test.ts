/**
 * Decoding only a band of a panorama's rows gives exactly the rows a full
 * decode gives (every JPEG flavour the fixtures hold: baseline 4:2:0,
 * progressive, 4:4:4, 2048 and 4096 wide), and the band a view needs holds
 * every row its index map samples.
 */
import { describe, expect, it } from "vitest";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { decodePano, alignBand } from "../../envs/geoguesser/replay/panos/store.ts";
import { indexMap, viewRows, viewRowsAt, type ViewSpec } from "../../envs/geoguesser/replay/render/reproject.ts";
import { FIXTURES } from "../helpers.ts";

const dirs = [join(FIXTURES, "mixed", "panos"), join(FIXTURES, "trieste", "panos")];
const files = dirs.flatMap((d) =>
  readdirSync(d)
    .filter((f) => f.endsWith(".jpg"))
    .map((f) => join(d, f)),
);

describe("band decode", () => {
  it.each(files.map((f) => [f] as const))("%s: bands equal the full decode's rows", async (file) => {
    const full = await decodePano(file);
    const H = full.height;
    for (const band of [
      { top: 0, bottom: 40 },
      { top: 17, bottom: 300 },
      { top: H / 2 - 33, bottom: H / 2 + 100 },
      { top: H - 50, bottom: H },
    ]) {
      const p = await decodePano(file, () => band);
      const a = alignBand(band, H);
      expect(p.top).toBe(a.top);
      expect(p.rows).toBe(a.bottom - a.top);
      expect(p.top % 16).toBe(0);
      const rowBytes = full.width * 3;
      const want = full.data.subarray(p.top * rowBytes, (p.top + p.rows) * rowBytes);
      expect(Buffer.from(p.data.buffer, p.data.byteOffset, p.data.byteLength).equals(Buffer.from(want.buffer, want.byteOffset, want.byteLength))).toBe(true);
    }
  });

  it("a view's rows hold every row its index map samples (poles, tilts, zooms)", () => {
    const views: ViewSpec[] = [];
    for (const pitch of [-90, -85, -45, -10, 0, 5, 30, 60, 89, 90])
      for (const fov of [10, 45, 90, 120]) views.push({ headingDeg: pitch * 7, pitchDeg: pitch, fovDeg: fov, width: 96, height: 80 });
    for (const v of views) {
      for (const sw of [2048, 4096]) {
        const r = viewRows(v, sw, sw / 2, 0);
        const { map } = indexMap(v, sw, sw / 2);
        let lo = Infinity;
        let hi = -Infinity;
        for (const i of map) {
          const row = Math.floor(i / sw);
          lo = Math.min(lo, row);
          hi = Math.max(hi, row);
        }
        expect(r.top, JSON.stringify(v)).toBeLessThanOrEqual(lo);
        expect(r.bottom, JSON.stringify(v)).toBeGreaterThan(hi);
      }
    }
  });

  it("a view's rows do not depend on its heading (what lets viewRows answer once per pitch and fov)", () => {
    for (const pitch of [-90, -60, -7.5, 0, 12.25, 45, 89.9, 90])
      for (const fov of [10, 45, 90, 120])
        for (const sw of [2048, 4096]) {
          const at = (h: number) => viewRowsAt({ headingDeg: h, pitchDeg: pitch, fovDeg: fov, width: 96, height: 80 }, sw, sw / 2);
          const want = at(0);
          for (const h of [-179.5, -90, 13.37, 90, 180, 359.99, 1234.5]) expect(at(h), `${pitch} ${fov} ${h}`).toEqual(want);
          expect(viewRows({ headingDeg: 77, pitchDeg: pitch, fovDeg: fov, width: 96, height: 80 }, sw, sw / 2)).toEqual(want);
        }
  });
});
