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
import type { MapFrame } from "../../replay/rules/map-frame.ts";

export type Atlas = "10m" | "50m" | "110m";

/**
 * Atlas resolution for a framing: 50m for pin maps, close reveals and
 * regions, 110m for continents and the world. Not 10m: its topology alone is
 * ~80 MB of objects when read, which put a render's peak memory past 500 MB
 * for a city-scale score card that 50m draws recognisably.
 */
export function atlasFor(frame: MapFrame): Atlas {
  return frame.halfWidthDeg <= 30 ? "50m" : "110m";
}

/** The world-atlas file of a resolution (a package-relative path). */
export const ATLAS_FILES: Record<Atlas, string> = {
  "10m": "world-atlas/countries-10m.json",
  "50m": "world-atlas/countries-50m.json",
  "110m": "world-atlas/countries-110m.json",
};

type Box = [number, number, number, number]; // min lon, min lat, max lon, max lat

/** The lon/lat box a map shows; null for (nearly) the whole world. */
export type ViewBox = { lon: [number, number]; lat: [number, number] } | null;

interface CountriesTopology {
  type: "Topology";
  transform?: { scale: [number, number]; translate: [number, number] };
  arcs: [number, number][][];
  objects: { countries: { type: "GeometryCollection"; geometries: { type: string; arcs?: unknown }[] } };
}

/** Each arc's box, decoded from the quantized, delta-encoded arcs (no GeoJSON is made for this). */
function arcBoxes(topo: CountriesTopology): Float64Array {
  const out = new Float64Array(topo.arcs.length * 4);
  const [sx, sy] = topo.transform?.scale ?? [1, 1];
  const [tx, ty] = topo.transform?.translate ?? [0, 0];
  topo.arcs.forEach((arc, i) => {
    let x = 0;
    let y = 0;
    let x0 = Infinity;
    let y0 = Infinity;
    let x1 = -Infinity;
    let y1 = -Infinity;
    for (const [dx, dy] of arc) {
      if (topo.transform) {
        x += dx;
        y += dy;
      } else {
        x = dx;
        y = dy;
      }
      const lon = x * sx + tx;
      const lat = y * sy + ty;
      if (lon < x0) x0 = lon;
      if (lon > x1) x1 = lon;
      if (lat < y0) y0 = lat;
      if (lat > y1) y1 = lat;
    }
    out.set([x0, y0, x1, y1], i * 4);
  });
  return out;
}

/** A geometry's box: the union of its arcs' boxes (arcs nest in rings and polygons; ~i is arc i reversed). */
function geometryBox(arcs: unknown, boxes: Float64Array, into: Box = [Infinity, Infinity, -Infinity, -Infinity]): Box {
  if (typeof arcs === "number") {
    const k = (arcs < 0 ? ~arcs : arcs) * 4;
    into[0] = Math.min(into[0], boxes[k]);
    into[1] = Math.min(into[1], boxes[k + 1]);
    into[2] = Math.max(into[2], boxes[k + 2]);
    into[3] = Math.max(into[3], boxes[k + 3]);
  } else if (Array.isArray(arcs)) for (const a of arcs) geometryBox(a, boxes, into);
  return into;
}

const meets = (b: Box, view: NonNullable<ViewBox>) =>
  b[1] <= view.lat[1] && b[3] >= view.lat[0] && [-360, 0, 360].some((k) => b[0] + k <= view.lon[1] && b[2] + k >= view.lon[0]);

/**
 * Land and borders a view can show, from a world-atlas countries topology:
 * only the countries whose box meets the view become GeoJSON (the 10m world
 * as GeoJSON is ~50 MB of objects; a city-scale view needs a country or two),
 * and only the borders of those. Polygons are rewound where d3 would read them
 * inside out.
 */
export function viewShapes(topology: unknown, view: ViewBox): { land: GeoJSON.GeometryCollection; borders: GeoJSON.MultiLineString } {
  const topo = topology as CountriesTopology;
  const all = topo.objects.countries.geometries;
  let shown = all;
  if (view) {
    const boxes = arcBoxes(topo);
    shown = all.filter((g) => meets(geometryBox(g.arcs, boxes), view));
  }
  const keep = new Set(shown);
  const t = topology as Topology<{ countries: GeometryCollection }>;
  const collection = { type: "GeometryCollection", geometries: shown } as unknown as GeometryCollection;
  const land: GeoJSON.Polygon[] = [];
  for (const f of (feature(t, collection) as unknown as GeoJSON.FeatureCollection).features) {
    const g = f.geometry;
    const polys = g?.type === "Polygon" ? [g.coordinates] : g?.type === "MultiPolygon" ? g.coordinates : [];
    for (const poly of polys) land.push({ type: "Polygon", coordinates: wound(poly) });
  }
  const borders = mesh(t, t.objects.countries, (a, b) => a !== b && (keep.has(a as never) || keep.has(b as never)));
  return { land: { type: "GeometryCollection", geometries: land }, borders };
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
