/**
 * Renderer parity with the environment's reference (look_reference.py):
 * index maps produced by the reference itself (see
 * test/fixtures/reference/make_reference_fixtures.py) against ours.
 */
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { ATAN_ERR, atan2Approx, indexMap, indexMapExact, indexAt, trigConstants, type ViewSpec } from "../../envs/geoguesser/replay/render/reproject.ts";
import { OFFSETS, perturb } from "../../envs/geoguesser/replay/render/boundary.ts";
import { ulpStep } from "../../envs/geoguesser/replay/render/ulp.ts";
import { FIXTURES } from "../helpers.ts";
import { indexMap as legacyIndexMap } from "../legacy/geometry-index-map.ts";
import { indexMap as rowWalkIndexMap } from "../legacy/row-walk-index-map.ts";

interface Case {
  heading: number;
  pitch: number;
  fov: number;
  width: number;
  height: number;
  srcWidth: number;
  srcHeight: number;
  sha256: string;
  indices?: number[];
}
const cases: Case[] = JSON.parse(readFileSync(join(FIXTURES, "reference", "index-maps.json"), "utf8"));
const sha = (a: Int32Array) =>
  createHash("sha256")
    .update(Buffer.from(a.buffer, a.byteOffset, a.byteLength))
    .digest("hex");

/** Ours, plain; or, on a sampling boundary, the ulp candidate that reproduces the reference. */
function reproduce(c: Case): "plain" | "boundary" | "none" {
  const view: ViewSpec = { headingDeg: c.heading, pitchDeg: c.pitch, fovDeg: c.fov, width: c.width, height: c.height };
  const k = trigConstants(view);
  const { map, sensitive } = indexMap(view, c.srcWidth, c.srcHeight, k, true);
  if (sha(map) === c.sha256) return "plain";
  const idx = new Int32Array(sensitive.length);
  const cand = new Int32Array(map);
  for (const off of OFFSETS) {
    indexAt(view, c.srcWidth, c.srcHeight, perturb(k, off), sensitive, idx);
    sensitive.forEach((p, j) => (cand[p] = idx[j]));
    if (sha(cand) === c.sha256) return "boundary";
  }
  return "none";
}

describe("reprojection source indices match the reference", () => {
  it.each(cases.map((c) => [`h=${c.heading} p=${c.pitch} fov=${c.fov} ${c.width}x${c.height} src ${c.srcWidth}`, c] as const))("%s", (_name, c) => {
    expect(reproduce(c)).not.toBe("none");
  });

  it("matches the reference plainly on generic parameters and most round ones", () => {
    const results = cases.map(reproduce);
    const plain = results.filter((r) => r === "plain").length;
    // Only exact-boundary views may need the ulp search; generic ones never do.
    expect(plain).toBeGreaterThanOrEqual(cases.length - 3);
    cases.slice(0, 4).forEach((c, i) => expect(results[i], `generic case ${i}`).toBe("plain"));
  });

  it("small outputs agree pixel by pixel, including non-square ones", () => {
    for (const c of cases.filter((x) => x.indices)) {
      const view = { headingDeg: c.heading, pitchDeg: c.pitch, fovDeg: c.fov, width: c.width, height: c.height };
      const { map } = indexMap(view, c.srcWidth, c.srcHeight);
      expect(Array.from(map)).toEqual(c.indices);
    }
  });
});

describe("ulp stepping", () => {
  it("moves to the adjacent float64 values", () => {
    expect(ulpStep(1, 1)).toBe(1 + Number.EPSILON);
    expect(ulpStep(1, -1)).toBe(1 - Number.EPSILON / 2);
    expect(ulpStep(-1, 1)).toBe(-1 + Number.EPSILON / 2);
    expect(ulpStep(0, 1)).toBe(Number.MIN_VALUE);
    expect(ulpStep(Math.tan(Math.PI / 4), 1)).toBe(1); // V8's tan(pi/4) is one ulp below numpy's 1.0
  });

  it("enumerates every +-1 ulp combination of the five constants once, fewest changes first", () => {
    expect(OFFSETS.length).toBe(242);
    expect(new Set(OFFSETS.map((o) => o.join())).size).toBe(242);
    const weights = OFFSETS.map((o) => o.filter((x) => x !== 0).length);
    expect(weights).toEqual([...weights].sort((a, b) => a - b));
  });
});

describe("fast index map equals the reference operation order on every pixel", () => {
  // A deterministic spread of views: random, round, polar, huge headings, odd sizes.
  let seed = 12345;
  const rnd = (a: number, b: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return a + (seed / 2147483648) * (b - a);
  };
  const views = Array.from({ length: 40 }, (_, i) => ({
    headingDeg: i % 3 ? rnd(-3600, 3600) : Math.round(rnd(0, 8)) * 45,
    pitchDeg: i % 2 ? rnd(-90, 90) : [0, 5, 10, -10, 20, 90, -90][i % 7],
    fovDeg: i % 4 ? rnd(10, 120) : [30, 45, 60, 90, 100, 120][i % 6],
    width: i % 5 ? 320 : 97,
    height: i % 5 ? 240 : 55,
  }));
  it.each(views.map((v, i) => [i, v] as const))("view %i", (_i, view) => {
    indexMap(view, 2048, 1024); // first sight builds the geometry; the checks below reuse or rebuild it
    for (const sw of [2048, 4096]) {
      const fast = indexMap(view, sw, sw / 2).map;
      const exact = indexMapExact(view, sw, sw / 2);
      expect(Buffer.compare(Buffer.from(fast.buffer), Buffer.from(exact.buffer))).toBe(0);
    }
  });
});

describe("row-walk index map: fuzz against the exact per-pixel port", () => {
  // Poles, tiny and huge fovs, headings at multiples of 90 degrees, odd and tiny sizes, three source widths.
  let seed = 20261201;
  const rnd = (a: number, b: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return a + (seed / 2147483648) * (b - a);
  };
  const pick = <T>(xs: T[]) => xs[Math.floor(rnd(0, xs.length))];
  const views: ViewSpec[] = Array.from({ length: 48 }, (_, i) => ({
    headingDeg: i % 2 ? Math.round(rnd(-40, 40)) * 90 : rnd(-3600, 3600),
    pitchDeg: i % 3 === 0 ? pick([90, -90, 89.999, -89.9, 85, -85, 60, -60]) : i % 3 === 1 ? pick([0, 5, -5, 10, 45]) : rnd(-90, 90),
    fovDeg: i % 4 === 0 ? pick([0.5, 1, 5, 10]) : i % 4 === 1 ? pick([120, 150, 170, 179]) : rnd(5, 120),
    width: i % 5 === 0 ? pick([1, 2, 3, 17, 97]) : pick([64, 101, 160]),
    height: i % 7 === 0 ? pick([1, 2, 5, 33]) : pick([48, 77, 120]),
  }));
  it.each(views.map((v, i) => [i, JSON.stringify(v), v] as const))("view %i %s", (_i, _s, view) => {
    for (const sw of [2048, 4096, 1002]) {
      const fast = indexMap(view, sw, sw / 2).map;
      const exact = indexMapExact(view, sw, sw / 2);
      expect(Buffer.compare(Buffer.from(fast.buffer), Buffer.from(exact.buffer))).toBe(0);
    }
  });

  it("a 640x640 view at the boundary case (pitch 5, fov 100) and at the pole, pixel for pixel", () => {
    for (const v of [
      { headingDeg: 0, pitchDeg: 5, fovDeg: 100, width: 640, height: 640 },
      { headingDeg: 90, pitchDeg: 90, fovDeg: 90, width: 640, height: 640 },
      { headingDeg: 180, pitchDeg: -85, fovDeg: 120, width: 640, height: 640 },
    ]) {
      expect(Buffer.from(indexMap(v, 4096, 2048).map.buffer).equals(Buffer.from(indexMapExact(v, 4096, 2048).buffer))).toBe(true);
    }
  });
});

describe("boundary-sensitive pixels: a superset of the geometry renderer's", () => {
  // The boundary search re-evaluates only listed pixels; dropping one the old renderer listed could lose a resolved view.
  const views: ViewSpec[] = [
    { headingDeg: 0, pitchDeg: 5, fovDeg: 100, width: 640, height: 640 }, // the mixed run's resolved view
    { headingDeg: 45, pitchDeg: 0, fovDeg: 90, width: 640, height: 640 },
    { headingDeg: 90, pitchDeg: 10, fovDeg: 60, width: 320, height: 240 },
    { headingDeg: -180, pitchDeg: -10, fovDeg: 30, width: 97, height: 55 },
    { headingDeg: 270, pitchDeg: 20, fovDeg: 120, width: 160, height: 120 },
    { headingDeg: 12.5, pitchDeg: 89.5, fovDeg: 45, width: 160, height: 120 },
    { headingDeg: 3600, pitchDeg: -90, fovDeg: 90, width: 64, height: 64 },
  ];
  it.each(views.map((v) => [JSON.stringify(v), v] as const))("%s", (_s, view) => {
    for (const sw of [2048, 4096]) {
      const k = trigConstants(view);
      legacyIndexMap(view, sw, sw / 2, k, true); // the legacy renderer's cached geometry (its usual path)
      const before = legacyIndexMap(view, sw, sw / 2, k, true).sensitive;
      const now = new Set(indexMap(view, sw, sw / 2, k, true).sensitive);
      const lost = Array.from(before).filter((p) => !now.has(p));
      expect(lost).toEqual([]);
    }
  });
});

describe("atan2Approx: within half its stated error everywhere a geometry uses it", () => {
  // The geometry's band counts on |atan2Approx - atan2| <= ATAN_ERR: every octant, both reductions,
  // the branch cut, ratios from 0 to 1e6 (pole rows), sampled densely.
  it("stays within ATAN_ERR / 2 of Math.atan2", () => {
    let worst = 0;
    for (let i = 0; i <= 400000; i++) {
      const r = i / 400000;
      for (const [y, x] of [
        [r, 1],
        [1, r],
        [-r, 1],
        [r, -1],
        [-1, -r],
        [r * 640, -320],
        [-320, r * 1e-3],
        [0, -r - 1e-3],
      ]) {
        const e = Math.abs(atan2Approx(y, x) - Math.atan2(y, x));
        if (e > worst) worst = e;
      }
    }
    expect(worst).toBeLessThan(ATAN_ERR / 2);
    expect(atan2Approx(0, -5)).toBe(Math.PI); // +0 on the branch cut, as Math.atan2
    expect(atan2Approx(-3, 7)).toBe(-atan2Approx(3, 7)); // odd, exactly: the geometry mirrors half a row
  });
});

describe("heading-free geometry: the same map and sensitive pixels as the row walk (the oracle)", () => {
  // Each (pitch, fov, size, panorama) is seen under several headings: the first sight builds the
  // geometry, later ones reuse it. Poles, tiny and huge fovs, odd sizes.
  let seed = 20261202;
  const rnd = (a: number, b: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return a + (seed / 2147483648) * (b - a);
  };
  const pick = <T>(xs: T[]) => xs[Math.floor(rnd(0, xs.length))];
  const geometries = Array.from({ length: 60 }, (_, g) => ({
    pitchDeg: g % 3 === 0 ? pick([0, 5, -5, 10, -10, 20, 45, 85, -89.9, 90, -90]) : rnd(-90, 90),
    fovDeg: g % 2 ? pick([0.5, 10, 30, 45, 60, 90, 100, 120, 179]) : rnd(1, 150),
    size:
      g % 6 === 0
        ? pick([
            [1, 1],
            [2, 3],
            [17, 33],
            [97, 55],
          ])
        : pick([
            [64, 48],
            [101, 77],
            [160, 120],
          ]),
    srcW: pick([2048, 4096, 1002]),
  }));
  it.each(geometries.map((g, i) => [i, JSON.stringify(g), g] as const))("geometry %i %s", (_i, _s, g) => {
    for (let r = 0; r < 5; r++) {
      const view: ViewSpec = {
        headingDeg: r % 2 ? rnd(-3600, 3600) : Math.round(rnd(-16, 16)) * 45,
        pitchDeg: g.pitchDeg,
        fovDeg: g.fovDeg,
        width: g.size[0],
        height: g.size[1],
      };
      const k = trigConstants(view);
      const ours = indexMap(view, g.srcW, g.srcW / 2, k, true);
      const oracle = rowWalkIndexMap(view, g.srcW, g.srcW / 2, k, true);
      expect(Buffer.compare(Buffer.from(ours.map.buffer), Buffer.from(oracle.map.buffer)), `heading ${view.headingDeg}`).toBe(0);
      expect(Array.from(ours.sensitive), `heading ${view.headingDeg}`).toEqual(Array.from(oracle.sensitive));
    }
  });

  it("fresh 640x640 cameras on a full-resolution panorama width, and a view too big to cache, pixel for pixel", () => {
    const views: ViewSpec[] = [
      { headingDeg: rnd(-180, 180), pitchDeg: rnd(-30, 30), fovDeg: rnd(10, 45), width: 640, height: 640 },
      { headingDeg: rnd(-3600, 3600), pitchDeg: rnd(-90, 90), fovDeg: rnd(10, 45), width: 640, height: 640 },
      { headingDeg: 90, pitchDeg: 5, fovDeg: 100, width: 640, height: 640 },
      { headingDeg: rnd(-180, 180), pitchDeg: 89.5, fovDeg: 30, width: 640, height: 640 },
      { headingDeg: rnd(-180, 180), pitchDeg: rnd(-20, 20), fovDeg: rnd(60, 120), width: 1500, height: 1400 }, // > the cache's 16 MB
    ];
    for (const view of views) {
      for (const sw of [8192, 5376]) {
        const k = trigConstants(view);
        const ours = indexMap(view, sw, sw / 2, k, true);
        expect(Buffer.compare(Buffer.from(ours.map.buffer), Buffer.from(indexMapExact(view, sw, sw / 2, k).buffer)), JSON.stringify(view)).toBe(0);
        expect(Array.from(ours.sensitive)).toEqual(Array.from(rowWalkIndexMap(view, sw, sw / 2, k, true).sensitive));
      }
    }
  });

  it("640x640 views at the usual cameras, gathered pixels included, under many headings (more geometries than the cache holds: evicted arrays are rebuilt into)", () => {
    const src = new Uint8Array(2048 * 1024 * 3).map((_, i) => (i * 2654435761) >>> 24);
    for (const [pitchDeg, fovDeg] of [
      [0, 90],
      [5, 100],
      [-10, 30],
      [10, 90],
      [0, 60],
      [-5, 100],
      [0, 90],
    ]) {
      for (let r = 0; r < 4; r++) {
        const view: ViewSpec = { headingDeg: r === 0 ? 0 : rnd(-180, 180), pitchDeg, fovDeg, width: 640, height: 640 };
        const k = trigConstants(view);
        const rgb = new Uint8Array(640 * 640 * 3);
        const ours = indexMap(view, 2048, 1024, k, true, undefined, { src, base: 0, rgb });
        const oracle = rowWalkIndexMap(view, 2048, 1024, k, true);
        expect(Buffer.compare(Buffer.from(ours.map.buffer), Buffer.from(indexMapExact(view, 2048, 1024, k).buffer))).toBe(0);
        expect(Array.from(ours.sensitive)).toEqual(Array.from(oracle.sensitive));
        const want = new Uint8Array(640 * 640 * 3);
        for (let i = 0; i < oracle.map.length; i++) want.set(src.subarray(oracle.map[i] * 3, oracle.map[i] * 3 + 3), i * 3);
        expect(Buffer.compare(Buffer.from(rgb), Buffer.from(want))).toBe(0);
        // The same pixels as opaque RGBA words, what the native painter hands Skia.
        const rgba = new Uint32Array(640 * 640);
        indexMap(view, 2048, 1024, k, false, undefined, { src, base: 0, rgba });
        const bytes = new Uint8Array(rgba.buffer);
        for (let i = 0; i < 640 * 640; i += 997) expect([...bytes.subarray(i * 4, i * 4 + 4)]).toEqual([...want.subarray(i * 3, i * 3 + 3), 255]);
      }
    }
  });
});
