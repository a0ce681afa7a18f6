/**
 * The map projection for a framing, shared by the scene (markers, labels,
 * the great-circle line, the scale bar) and the painter (land and borders):
 * Mercator centred on the frame, 2 × halfWidthDeg degrees of longitude
 * across the width. Longitudes are taken nearest the centre, so a frame
 * across the antimeridian shows both sides of it.
 */
import { unwrapLon, type MapFrame } from "./frame.ts";
import type { ViewBox } from "./atlas.ts";

const RAD = Math.PI / 180;
const EARTH_RADIUS_KM = 6371.0088;
/** Mercator's usual limit: beyond it the poles run off to infinity. */
const MAX_LAT = 85.0511;

const mercY = (lat: number) => Math.log(Math.tan(Math.PI / 4 + (Math.max(-MAX_LAT, Math.min(MAX_LAT, lat)) * RAD) / 2));

export interface MapProjection {
  /** Pixels (from the map box's top left) of a lon/lat point, its longitude taken nearest the centre. */
  (lonLat: readonly [number, number]): [number, number];
  /** Pixels of a point whose longitude is already on the right side (a cell shifted by whole turns). */
  raw(lon: number, lat: number): [number, number];
  /** The lon/lat of a pixel (lon may run past 180). */
  invert(x: number, y: number): [number, number];
  /** Ground km per pixel at the frame's centre. */
  kmPerPx: number;
  /** What the map shows (lon may run past 180), clamped to Mercator's latitudes. */
  view: ViewBox;
}

export function mapProjection(frame: MapFrame, width: number, height: number): MapProjection {
  const scale = width / (2 * frame.halfWidthDeg * RAD); // px per radian of longitude
  const [cLat, cLon] = frame.center;
  const y0 = mercY(cLat);
  const raw = (lon: number, lat: number): [number, number] => [width / 2 + (lon - cLon) * RAD * scale, height / 2 - (mercY(lat) - y0) * scale];
  const invert = (x: number, y: number): [number, number] => {
    const lon = cLon + (x - width / 2) / scale / RAD;
    const lat = (2 * Math.atan(Math.exp(y0 - (y - height / 2) / scale)) - Math.PI / 2) / RAD;
    return [lon, lat];
  };
  const nw = invert(0, 0);
  const se = invert(width, height);
  const p = ((ll: readonly [number, number]) => raw(unwrapLon(ll[0], cLon), ll[1])) as MapProjection;
  p.raw = raw;
  p.invert = invert;
  p.kmPerPx = (EARTH_RADIUS_KM * Math.cos(Math.min(MAX_LAT, Math.abs(cLat)) * RAD)) / scale;
  p.view = { lon: [nw[0], se[0]], lat: [Math.max(-MAX_LAT, se[1]), Math.min(MAX_LAT, nw[1])] };
  return p;
}

/**
 * The frame widened (never narrowed) until every point lies in the middle 80% of
 * the map's height and at least `margin` pixels inside every edge (a pin's
 * radius: a pin is never cut by the frame): a frame's half-width counts degrees
 * of longitude, and Mercator shows fewer degrees of latitude the further north,
 * so near a pole a guess and truth a few degrees apart in latitude would fall
 * off the map; and a pair apart east-west at high latitude spans more degrees
 * of longitude than their separation.
 */
export function fitPoints(frame: MapFrame, points: readonly (readonly [number, number])[], width: number, height: number, margin = 0): MapFrame {
  const y0 = mercY(frame.center[0]);
  const cLon = frame.center[1];
  const reachY = Math.max(0, ...points.map((p) => Math.abs(mercY(p[0]) - y0)));
  const reachX = Math.max(0, ...points.map((p) => Math.abs(unwrapLon(p[1], cLon) - cLon) * RAD));
  // px per radian: the largest scale that keeps every point in.
  const limits = [
    reachY > 0 ? (0.4 * height) / reachY : Infinity,
    reachY > 0 ? Math.max(1e-9, height / 2 - margin) / reachY : Infinity,
    reachX > 0 ? Math.max(1e-9, width / 2 - margin) / reachX : Infinity,
  ];
  const maxScale = Math.min(...limits);
  if (!Number.isFinite(maxScale)) return frame;
  const halfWidthDeg = Math.min(180, Math.max(frame.halfWidthDeg, width / (2 * maxScale * RAD)));
  return halfWidthDeg === frame.halfWidthDeg ? frame : { center: frame.center, halfWidthDeg };
}
