/**
 * Renderer parity with the environment's reference (look_reference.py):
 * index maps produced by the reference itself (see
 * test/fixtures/reference/make_reference_fixtures.py) against ours.
 */
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { indexMap, indexMapExact, indexAt, trigConstants, type ViewSpec } from "../replay/render/reproject.ts";
import { OFFSETS, perturb } from "../replay/render/boundary.ts";
import { ulpStep } from "../replay/render/ulp.ts";
import { FIXTURES } from "./helpers.ts";

interface Case {
  heading: number; pitch: number; fov: number; width: number; height: number;
  srcWidth: number; srcHeight: number; sha256: string; indices?: number[];
}
const cases: Case[] = JSON.parse(readFileSync(join(FIXTURES, "reference", "index-maps.json"), "utf8"));
const sha = (a: Int32Array) => createHash("sha256").update(Buffer.from(a.buffer, a.byteOffset, a.byteLength)).digest("hex");

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
    indexMap(view, 2048, 1024); // first sight: computed directly; the geometry cache is built on the second
    for (const sw of [2048, 4096]) {
      const fast = indexMap(view, sw, sw / 2).map;
      const exact = indexMapExact(view, sw, sw / 2);
      expect(Buffer.compare(Buffer.from(fast.buffer), Buffer.from(exact.buffer))).toBe(0);
    }
  });
});
