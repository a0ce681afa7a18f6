/** Natural Earth for the browser composition: the world-atlas files bundled with it, converted once per page. */
import countries10m from "world-atlas/countries-10m.json" with { type: "json" };
import countries50m from "world-atlas/countries-50m.json" with { type: "json" };
import countries110m from "world-atlas/countries-110m.json" with { type: "json" };
import { topologyShapes, type Atlas, type AtlasShapes } from "../atlas.ts";

const TOPOLOGIES: Record<Atlas, unknown> = { "10m": countries10m, "50m": countries50m, "110m": countries110m };
const cache = new Map<Atlas, AtlasShapes>();

export function bundledAtlas(atlas: Atlas): AtlasShapes {
  let s = cache.get(atlas);
  if (!s) cache.set(atlas, (s = topologyShapes(TOPOLOGIES[atlas])));
  return s;
}
