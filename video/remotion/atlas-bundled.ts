/**
 * Natural Earth for the browser composition: the world-atlas topologies
 * bundled with it, cut on demand into the cells the native painter reads
 * from dist/map/ (the same cutCell on the same data: the same shapes).
 */
import countries10m from "world-atlas/countries-10m.json" with { type: "json" };
import countries50m from "world-atlas/countries-50m.json" with { type: "json" };
import countries110m from "world-atlas/countries-110m.json" with { type: "json" };
import land10m from "world-atlas/land-10m.json" with { type: "json" };
import land50m from "world-atlas/land-50m.json" with { type: "json" };
import land110m from "world-atlas/land-110m.json" with { type: "json" };
import { atlasShapes, cutCell, type Atlas, type AtlasShapes, type MapCell } from "../map/atlas.ts";

const TOPOLOGIES: Record<Atlas, [unknown, unknown]> = {
  "10m": [land10m, countries10m],
  "50m": [land50m, countries50m],
  "110m": [land110m, countries110m],
};
const shapes = new Map<Atlas, AtlasShapes>();
const cells = new Map<string, MapCell | null>();

export function bundledCell(key: string): MapCell | null {
  let c = cells.get(key);
  if (c === undefined) {
    const [atlas, at] = key.split("/") as [Atlas, string];
    const [col, row] = at.split("_").map(Number);
    let s = shapes.get(atlas);
    if (!s) shapes.set(atlas, (s = atlasShapes(...TOPOLOGIES[atlas])));
    const cut = cutCell(s, atlas, col, row);
    c = cut.land.length || cut.borders.length ? cut : null;
    cells.set(key, c);
  }
  return c;
}
