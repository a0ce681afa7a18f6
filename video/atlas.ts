/**
 * Natural Earth land and borders (world-atlas's countries, offline): which
 * resolution a framing needs, and its topology as GeoJSON shapes. Finer data
 * only where it can be seen: a city-scale map with 110m coastlines is a
 * blob. Loading the topology is the painter environment's job (a file read
 * in Node, dropped after use; bundled JSON in the browser).
 */
import { geoArea } from "d3-geo";
import { feature, mesh } from "topojson-client";
import type { Topology, GeometryCollection } from "topojson-specification";
import type { MapFrame } from "../replay/rules/map-frame.ts";

export type Atlas = "10m" | "50m" | "110m";

/** Atlas resolution for a framing: 10m for pin maps (6° or more) and close reveals, 50m for regions, 110m for continents. */
export function atlasFor(frame: MapFrame): Atlas {
  if (frame.halfWidthDeg <= 8) return "10m";
  if (frame.halfWidthDeg <= 30) return "50m";
  return "110m";
}

/** The world-atlas file of a resolution (a package-relative path). */
export const ATLAS_FILES: Record<Atlas, string> = {
  "10m": "world-atlas/countries-10m.json",
  "50m": "world-atlas/countries-50m.json",
  "110m": "world-atlas/countries-110m.json",
};

type Box = [number, number, number, number]; // min lon, min lat, max lon, max lat

/** One polygon of land or one border line, with its lon/lat box (to skip what a framing cannot show). */
interface Piece<G> {
  geometry: G;
  box: Box;
}

export interface AtlasShapes {
  land: Piece<GeoJSON.Polygon>[];
  borders: Piece<GeoJSON.LineString>[];
}

function boxOf(rings: GeoJSON.Position[][]): Box {
  const b: Box = [Infinity, Infinity, -Infinity, -Infinity];
  for (const ring of rings)
    for (const [x, y] of ring) {
      if (x < b[0]) b[0] = x;
      if (y < b[1]) b[1] = y;
      if (x > b[2]) b[2] = x;
      if (y > b[3]) b[3] = y;
    }
  return b;
}

/** Land (every country's polygons) and borders (arcs two countries share) of a world-atlas countries topology. */
export function topologyShapes(topology: unknown): AtlasShapes {
  const topo = topology as Topology<{ countries: GeometryCollection }>;
  const land: Piece<GeoJSON.Polygon>[] = [];
  for (const f of (feature(topo, topo.objects.countries) as GeoJSON.FeatureCollection).features) {
    const g = f.geometry;
    const polys = g?.type === "Polygon" ? [g.coordinates] : g?.type === "MultiPolygon" ? g.coordinates : [];
    for (const poly of polys) {
      const rings = wound(poly);
      land.push({ geometry: { type: "Polygon", coordinates: rings }, box: boxOf(rings) });
    }
  }
  const mesh_ = mesh(topo, topo.objects.countries, (a, b) => a !== b);
  const borders = mesh_.coordinates.map((line) => ({ geometry: { type: "LineString" as const, coordinates: line }, box: boxOf([line]) }));
  return { land, borders };
}

/**
 * What a framing can show: the pieces whose box meets the view's lon/lat box
 * (shifted by 360° across the antimeridian). A world view takes everything.
 */
export function shapesInView(
  shapes: AtlasShapes,
  view: { lon: [number, number]; lat: [number, number] } | null,
): {
  land: GeoJSON.GeometryCollection;
  borders: GeoJSON.MultiLineString;
} {
  const meets = (b: Box) =>
    view === null || (b[1] <= view.lat[1] && b[3] >= view.lat[0] && [-360, 0, 360].some((k) => b[0] + k <= view.lon[1] && b[2] + k >= view.lon[0]));
  return {
    land: { type: "GeometryCollection", geometries: shapes.land.filter((p) => meets(p.box)).map((p) => p.geometry) },
    borders: { type: "MultiLineString", coordinates: shapes.borders.filter((p) => meets(p.box)).map((p) => p.geometry.coordinates) },
  };
}

/**
 * d3-geo reads ring winding on the sphere: a few tiny islands in the 10m data
 * (the Maldives) come out wound the other way and would cover the whole globe.
 * An outer ring wound counter-clockwise on the lon/lat plane is reversed;
 * a ring across the antimeridian (where the plane lies) is judged by its
 * spherical area instead (more than a hemisphere: reversed). Checked against
 * the spherical test on every polygon of the three atlases.
 */
function wound(poly: GeoJSON.Position[][]): GeoJSON.Position[][] {
  const r = poly[0];
  let twice = 0;
  let lon0 = Infinity;
  let lon1 = -Infinity;
  for (let i = 0; i + 1 < r.length; i++) {
    twice += r[i][0] * r[i + 1][1] - r[i + 1][0] * r[i][1];
    lon0 = Math.min(lon0, r[i][0]);
    lon1 = Math.max(lon1, r[i][0]);
  }
  const wrong = lon1 - lon0 > 180 ? geoArea({ type: "Polygon", coordinates: [r] }) > 2 * Math.PI : twice > 0;
  return wrong ? poly.map((ring) => [...ring].reverse()) : poly;
}
