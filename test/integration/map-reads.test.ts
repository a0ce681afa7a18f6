/**
 * MapReads keeps, per gazetteer cell, one flag per place instead of every
 * framing's view: the same cut as testing each place against every view
 * (what it kept before, and what a 128,000-rollout page's millions of
 * framings made gigabytes of), for any framings, across the antimeridian too.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { MapReads } from "../../src/film/shared/map-reads.ts";
import { readPlaces } from "../../src/film/shared/map-data.ts";
import { mapProjection } from "../../video/map/projection.ts";
import { minPopulation, placeCellsFor, type Place } from "../../video/map/places.ts";
import type { MapFrame } from "../../video/map/frame.ts";

const framing = fc.record({
  lat: fc.double({ min: -70, max: 70, noNaN: true }),
  lon: fc.double({ min: -180, max: 180, noNaN: true }),
  half: fc.constantFrom(0.05, 0.4, 2, 6, 12, 30),
  w: fc.constantFrom(120, 320, 640),
  h: fc.constantFrom(120, 240, 480),
});

/** The cut as every view tested one by one: a place stays when some view holds it at or above its floor. */
function bruteForce(frames: { frame: MapFrame; w: number; h: number }[]): Map<string, Place[]> {
  const views = new Map<string, { lat: readonly [number, number]; lon: [number, number]; floor: number }[]>();
  for (const { frame, w, h } of frames) {
    const view = mapProjection(frame, w, h).view;
    const floor = minPopulation(frame.halfWidthDeg);
    for (const c of placeCellsFor(view))
      views.set(c.key, [...(views.get(c.key) ?? []), { lat: view.lat, lon: [view.lon[0] - c.shift, view.lon[1] - c.shift], floor }]);
  }
  const out = new Map<string, Place[]>();
  for (const [key, vs] of views)
    out.set(
      key,
      readPlaces(key).filter((p) => vs.some((v) => p[3] >= v.floor && p[1] >= v.lat[0] && p[1] <= v.lat[1] && p[2] >= v.lon[0] && p[2] <= v.lon[1])),
    );
  return out;
}

describe("MapReads", () => {
  it("cuts each gazetteer cell to exactly the places some framing names, with only a flag per place kept", () => {
    let named = 0;
    fc.assert(
      fc.property(fc.array(framing, { minLength: 1, maxLength: 12 }), (fs) => {
        const frames = fs.map((f) => ({ frame: { center: [f.lat, f.lon] as [number, number], halfWidthDeg: f.half }, w: f.w, h: f.h }));
        const reads = new MapReads();
        for (const m of frames) reads.visit({ t: "map", ...m });
        const want = bruteForce(frames);
        expect(reads.placeCells()).toEqual([...want.keys()].sort());
        for (const [key, places] of want) {
          expect(reads.trim(key, readPlaces(key))).toEqual(places);
          named += places.length;
        }
      }),
      { numRuns: 60 },
    );
    expect(named).toBeGreaterThan(100); // the framings named places: the cut was tested, not only empty cells
  });

  it("with places: false, reads the atlas cells alone", () => {
    const reads = new MapReads({ places: false });
    const all = new MapReads();
    for (const m of [{ t: "map", frame: { center: [45.6, 13.8], halfWidthDeg: 2 }, w: 320, h: 240 }]) {
      reads.visit(m);
      all.visit(m);
    }
    expect(reads.cells()).toEqual(all.cells());
    expect(reads.cells().length).toBeGreaterThan(0);
    expect(reads.placeCells()).toEqual([]);
    expect(all.placeCells().length).toBeGreaterThan(0);
  });
});
