/**
 * Natural Earth land and borders (world-atlas, offline), as GeoJSON per
 * resolution, converted once per process. Finer data only where it can be
 * seen: a city-scale map with 110m coastlines is a blob.
 */
import { geoArea } from "d3-geo";
import { feature, mesh } from "topojson-client";
import type { Topology, GeometryCollection } from "topojson-specification";
import countries10m from "world-atlas/countries-10m.json" with { type: "json" };
import countries50m from "world-atlas/countries-50m.json" with { type: "json" };
import countries110m from "world-atlas/countries-110m.json" with { type: "json" };
import type { MapFrame } from "../replay/rules/map-frame.ts";

export type Atlas = "10m" | "50m" | "110m";

/** Atlas resolution for a framing: 10m for pin maps (6° or more) and close reveals, 50m for regions, 110m for continents. */
export function atlasFor(frame: MapFrame): Atlas {
  if (frame.halfWidthDeg <= 8) return "10m";
  if (frame.halfWidthDeg <= 30) return "50m";
  return "110m";
}

const TOPOLOGIES: Record<Atlas, unknown> = { "10m": countries10m, "50m": countries50m, "110m": countries110m };

export interface AtlasShapes {
  land: GeoJSON.FeatureCollection;
  borders: GeoJSON.MultiLineString;
}
const cache = new Map<Atlas, AtlasShapes>();

export function atlasShapes(atlas: Atlas): AtlasShapes {
  let s = cache.get(atlas);
  if (!s) {
    const topo = TOPOLOGIES[atlas] as Topology<{ countries: GeometryCollection }>;
    s = {
      land: rewound(feature(topo, topo.objects.countries) as GeoJSON.FeatureCollection),
      borders: mesh(topo, topo.objects.countries, (a, b) => a !== b),
    };
    cache.set(atlas, s);
  }
  return s;
}

/**
 * d3-geo reads ring winding on the sphere: a few tiny islands in the 10m data
 * (the Maldives) come out wound the other way and would cover the whole globe.
 * A polygon whose outer ring encloses more than a hemisphere is reversed.
 */
function rewound(fc: GeoJSON.FeatureCollection): GeoJSON.FeatureCollection {
  const fix = (poly: GeoJSON.Position[][]) =>
    geoArea({ type: "Polygon", coordinates: [poly[0]] }) > 2 * Math.PI ? poly.map((ring) => [...ring].reverse()) : poly;
  return {
    ...fc,
    features: fc.features.map((f) => {
      const g = f.geometry;
      if (g?.type === "Polygon") return { ...f, geometry: { ...g, coordinates: fix(g.coordinates) } };
      if (g?.type === "MultiPolygon") return { ...f, geometry: { ...g, coordinates: g.coordinates.map(fix) } };
      return f;
    }),
  };
}
