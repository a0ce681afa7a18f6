/**
 * Natural Earth land and borders (world-atlas, offline) cut into cells: which
 * resolution a framing needs, which cells it touches, and the cut itself.
 * The cut runs once at build time (scripts/cut-map.mjs writes every cell to
 * dist/map/) and, the same function on the same topologies, in the browser
 * composition on demand; a painter reads only the cells a frame touches, so
 * a city-scale map gets 10m coastlines without holding the 10m world.
 */
import { geoArea, geoEquirectangular, geoPath } from "d3-geo";
import { feature, mesh } from "topojson-client";
import type { Topology, GeometryCollection } from "topojson-specification";
import type { MapFrame } from "./frame.ts";

export type Atlas = "10m" | "50m" | "110m";

/** Cell size per resolution, in degrees: small where the data is dense (a 10m cell is at most a few hundred KB). */
export const CELL_DEG: Record<Atlas, number> = { "10m": 10, "50m": 30, "110m": 90 };

/** Coordinates are stored in units of 1e-4 degree (~11 m): finer than 10m's own grid (0.0036 x 0.0017 degrees). */
export const CELL_UNITS = 1e4;

/**
 * Atlas resolution for a framing: 10m up to regions (a country or two
 * across), 50m up to continents, 110m for the world.
 */
export function atlasFor(frame: MapFrame): Atlas {
  return frame.halfWidthDeg <= 8 ? "10m" : frame.halfWidthDeg <= 40 ? "50m" : "110m";
}

/** world-atlas's files a resolution is cut from (package-relative paths). */
export const ATLAS_FILES: Record<Atlas, { land: string; countries: string }> = {
  "10m": { land: "world-atlas/land-10m.json", countries: "world-atlas/countries-10m.json" },
  "50m": { land: "world-atlas/land-50m.json", countries: "world-atlas/countries-50m.json" },
  "110m": { land: "world-atlas/land-110m.json", countries: "world-atlas/countries-110m.json" },
};

/**
 * One cell: land rings (filled even-odd: holes are lakes) and border lines,
 * each a flat [lon0, lat0, dlon1, dlat1, ...] in CELL_UNITS, deltas after the first point.
 */
export interface MapCell {
  land: number[][];
  borders: number[][];
}

/** The lon/lat box a map shows; lon may run past 180 (a view across the antimeridian). */
export interface ViewBox {
  lon: [number, number];
  lat: [number, number];
}

/** A cell's key ("10m/19_13": column from -180, row from -90) and the multiple of 360 degrees to shift it by to reach the view. */
export interface CellRef {
  key: string;
  shift: number;
}

export function cellsFor(atlas: Atlas, view: ViewBox): CellRef[] {
  const size = CELL_DEG[atlas];
  const cols = 360 / size;
  const rows = 180 / size;
  const out: CellRef[] = [];
  const j0 = Math.max(0, Math.floor((view.lat[0] + 90) / size));
  const j1 = Math.min(rows - 1, Math.floor((view.lat[1] + 90) / size));
  // Never more than the whole world once around.
  const i0 = Math.floor((view.lon[0] + 180) / size);
  const i1 = Math.min(i0 + cols - 1, Math.floor((view.lon[1] + 180) / size));
  for (let i = i0; i <= i1; i++) {
    const col = ((i % cols) + cols) % cols;
    for (let j = j0; j <= j1; j++) out.push({ key: `${atlas}/${col}_${j}`, shift: ((i - col) / cols) * 360 });
  }
  return out;
}

/** A cell's points as absolute lon/lat pairs (the stored deltas summed). */
export function decodeLine(flat: readonly number[]): Float64Array {
  const out = new Float64Array(flat.length);
  let x = 0;
  let y = 0;
  for (let i = 0; i + 1 < flat.length; i += 2) {
    x += flat[i];
    y += flat[i + 1];
    out[i] = x / CELL_UNITS;
    out[i + 1] = y / CELL_UNITS;
  }
  return out;
}

type Box = [number, number, number, number]; // min lon, min lat, max lon, max lat
interface Shape<T> {
  geometry: T;
  box: Box;
}

/** A resolution's shapes, read once: land polygons and the country borders, each with its box. */
export interface AtlasShapes {
  polygons: Shape<GeoJSON.Polygon>[];
  lines: Shape<GeoJSON.LineString>[];
}

function boxOf(coords: GeoJSON.Position[]): Box {
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [x, y] of coords) {
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
  }
  // A shape across the antimeridian meets cells on both sides: give it every longitude.
  return x1 - x0 > 180 ? [-180, y0, 180, y1] : [x0, y0, x1, y1];
}

/** Land (world-atlas's land object) and borders (the countries' shared arcs) of a resolution as GeoJSON with boxes. */
export function atlasShapes(landTopology: unknown, countriesTopology: unknown): AtlasShapes {
  const lt = landTopology as Topology<{ land: GeometryCollection }>;
  const ct = countriesTopology as Topology<{ countries: GeometryCollection }>;
  const polygons: Shape<GeoJSON.Polygon>[] = [];
  const land = feature(lt, lt.objects.land) as unknown as GeoJSON.FeatureCollection | GeoJSON.Feature;
  const features = land.type === "FeatureCollection" ? land.features : [land];
  for (const f of features) {
    const g = f.geometry;
    const polys = g?.type === "Polygon" ? [g.coordinates] : g?.type === "MultiPolygon" ? g.coordinates : [];
    for (const poly of polys) polygons.push({ geometry: { type: "Polygon", coordinates: wound(poly) }, box: boxOf(poly[0]) });
  }
  const borders = mesh(ct, ct.objects.countries, (a, b) => a !== b);
  const lines = borders.coordinates.map((c) => ({ geometry: { type: "LineString", coordinates: c } as GeoJSON.LineString, box: boxOf(c) }));
  return { polygons, lines };
}

const meets = (b: Box, c: Box) => b[0] <= c[2] && b[2] >= c[0] && b[1] <= c[3] && b[3] >= c[1];

/**
 * One cell of a resolution, clipped to the cell's lon/lat rectangle by
 * d3-geo (which closes a clipped ring along the rectangle, and gives the
 * whole rectangle for a cell inside a polygon). Straight lon/lat edges (no
 * resampling): the painter projects points, not arcs. Deterministic.
 */
export function cutCell(shapes: AtlasShapes, atlas: Atlas, col: number, row: number): MapCell {
  const size = CELL_DEG[atlas];
  const lon0 = -180 + col * size;
  const lat0 = -90 + row * size;
  const cell: Box = [lon0, lat0, lon0 + size, lat0 + size];
  const projection = geoEquirectangular()
    .scale(180 / Math.PI)
    .translate([0, 0])
    .precision(0)
    .clipExtent([
      [lon0, -(lat0 + size)],
      [lon0 + size, -lat0],
    ]);
  const lines: number[][] = [];
  let cur: number[] = [];
  let px = 0;
  let py = 0;
  const point = (x: number, y: number) => {
    const qx = Math.round(x * CELL_UNITS);
    const qy = Math.round(-y * CELL_UNITS);
    if (cur.length === 0) cur.push(qx, qy);
    else if (qx !== px || qy !== py) cur.push(qx - px, qy - py);
    px = qx;
    py = qy;
  };
  const end = () => {
    if (cur.length >= 4) lines.push(cur);
    cur = [];
  };
  const context = {
    moveTo: (x: number, y: number) => {
      end();
      point(x, y);
    },
    lineTo: point,
    closePath: end,
    beginPath() {},
    arc() {},
  };
  const path = geoPath(projection, context as never);
  for (const p of shapes.polygons) if (meets(p.box, cell)) path(p.geometry);
  end();
  const land = lines.splice(0);
  for (const l of shapes.lines) if (meets(l.box, cell)) path(l.geometry);
  end();
  return { land: land.filter((r) => r.length >= 6), borders: lines };
}

/**
 * d3-geo reads ring winding on the sphere: a few tiny islands in the 10m data
 * (the Maldives) come out wound the other way and would cover the whole globe.
 * An outer ring wound counter-clockwise on the lon/lat plane is reversed;
 * a ring across the antimeridian (where the plane lies) is judged by its
 * spherical area instead (more than a hemisphere: reversed).
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
