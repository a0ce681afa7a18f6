/** Natural Earth for the browser composition: the world-atlas topologies bundled with it. */
import countries10m from "world-atlas/countries-10m.json" with { type: "json" };
import countries50m from "world-atlas/countries-50m.json" with { type: "json" };
import countries110m from "world-atlas/countries-110m.json" with { type: "json" };
import type { Atlas } from "../map/atlas.ts";

const TOPOLOGIES: Record<Atlas, unknown> = { "10m": countries10m, "50m": countries50m, "110m": countries110m };

export function bundledAtlas(atlas: Atlas): unknown {
  return TOPOLOGIES[atlas];
}
