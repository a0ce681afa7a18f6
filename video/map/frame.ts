/**
 * How a map is framed, one rule for the page and the video (browser-safe, pure).
 * A frame is a centre [lat, lon] and a half-width in degrees; a map shows
 * 2 × halfWidthDeg degrees across.
 */
export type LatLon = readonly [number, number];

export interface MapFrame {
  center: [number, number]; // lat, lon
  halfWidthDeg: number;
}

const EARTH_RADIUS_KM = 6371.0088;
const RAD = Math.PI / 180;

/** Great-circle distance in km (the environment's haversine and radius). */
export function haversineKm(a: LatLon, b: LatLon): number {
  const dLat = (b[0] - a[0]) * RAD;
  const dLon = (b[1] - a[1]) * RAD;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a[0] * RAD) * Math.cos(b[0] * RAD) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Central angle between two points, in degrees. */
export function separationDeg(a: LatLon, b: LatLon): number {
  return haversineKm(a, b) / EARTH_RADIUS_KM / RAD;
}

/** The longitude equal to `lon` modulo 360 that lies closest to `ref`. */
export function unwrapLon(lon: number, ref: number): number {
  return lon + 360 * Math.round((ref - lon) / 360);
}

/** The same longitude in [-180, 180); values already there are returned as they are (no rounding noise). */
export function normLon(lon: number): number {
  if (lon >= -180 && lon < 180) return lon;
  return ((((lon + 180) % 360) + 360) % 360) - 180;
}

/**
 * The environment's reveal map framing: more than 25 degrees apart, centre on
 * the truth with a 12 degree half-width; else the midpoint (across the
 * antimeridian when that is shorter), half-width max(0.05, 0.75·sep + 0.4).
 */
export function revealFrame(guess: LatLon, truth: LatLon): MapFrame {
  const sep = separationDeg(guess, truth);
  if (sep > 25) return { center: [truth[0], truth[1]], halfWidthDeg: 12 };
  const gLon = unwrapLon(guess[1], truth[1]);
  return {
    center: [(guess[0] + truth[0]) / 2, normLon((gLon + truth[1]) / 2)],
    halfWidthDeg: Math.max(0.05, 0.75 * sep + 0.4),
  };
}

/**
 * Framing for a pin map (the environment's own pin map depends on live data
 * and cannot be reproduced): all pins in view, never closer than 6 degrees,
 * so the coastline gives context; null without pins.
 */
export function pinsFrame(pins: readonly LatLon[]): MapFrame | null {
  if (pins.length === 0) return null;
  const ref = pins[pins.length - 1][1];
  const lats = pins.map((p) => p[0]);
  const lons = pins.map((p) => unwrapLon(p[1], ref));
  const [lat0, lat1] = [Math.min(...lats), Math.max(...lats)];
  const [lon0, lon1] = [Math.min(...lons), Math.max(...lons)];
  const cLat = (lat0 + lat1) / 2;
  const k = Math.max(0.2, Math.cos(cLat * RAD));
  const half = Math.max(6, 0.6 * Math.max(lat1 - lat0, (lon1 - lon0) * k));
  return { center: [cLat, normLon((lon0 + lon1) / 2)], halfWidthDeg: Math.min(half, 90) };
}

/** The whole world, for a map with nothing on it yet. */
export const WORLD_FRAME: MapFrame = { center: [20, 0], halfWidthDeg: 180 };

/**
 * Framing for several results on one map (the two-up score card: the truth
 * and both guesses): centred on the points' span, longitudes unwrapped
 * around the first point (so a pair across the antimeridian frames the
 * Pacific, not the world); the half-width fits the longitude span and the
 * latitude span (Mercator-stretched at the centre, scaled by the map's
 * aspect), with a margin, never tighter than 0.05 degrees (one town).
 */
export function spanFrame(points: readonly LatLon[], width: number, height: number): MapFrame {
  if (points.length === 0) return WORLD_FRAME;
  const ref = points[0][1];
  const lats = points.map((p) => p[0]);
  const lons = points.map((p) => unwrapLon(p[1], ref));
  const [lat0, lat1] = [Math.min(...lats), Math.max(...lats)];
  const [lon0, lon1] = [Math.min(...lons), Math.max(...lons)];
  const center: [number, number] = [(lat0 + lat1) / 2, normLon((lon0 + lon1) / 2)];
  const cos = Math.max(0.2, Math.cos(center[0] * RAD));
  const span = Math.max(lon1 - lon0, ((lat1 - lat0) / cos) * (width / height));
  return { center, halfWidthDeg: Math.min(180, Math.max(0.05, 0.9 * span + 0.3)) };
}

/**
 * The narrowest frame Natural Earth 10m can fill: its coordinates sit on a
 * 0.0036 × 0.0017 degree grid (~400 × 190 m), so a frame much under half a
 * degree across draws a coastline as a staircase of straight edges. A
 * narrower frame is widened to this (the place names and the scale bar say
 * where and how far).
 */
export const MIN_HALF_WIDTH_DEG = 0.3;

export function honestFrame(frame: MapFrame): MapFrame {
  return frame.halfWidthDeg >= MIN_HALF_WIDTH_DEG ? frame : { center: frame.center, halfWidthDeg: MIN_HALF_WIDTH_DEG };
}
