/**
 * Geography for the page's maps: distances, the environment's reveal-map
 * framing, and the world outline as one SVG path in plain degrees.
 *
 * Maps use an equirectangular plot in degrees (x = lon, y = -lat) with the
 * x axis scaled by cos(centre latitude), so the world geometry is one
 * projection-independent path stored once per page; each map only chooses
 * a viewBox over it.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { geoEquirectangular, geoPath } from "d3-geo";
import { feature, mesh } from "topojson-client";
import type { Topology, GeometryCollection } from "topojson-specification";

export type LatLon = readonly [number, number];

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

export interface Frame {
  center: [number, number]; // lat, lon
  halfWidthDeg: number;
}

/**
 * The environment's reveal map framing: more than 25 degrees apart, centre on
 * the truth with a 12 degree half-width; else the midpoint, half-width
 * max(0.05, 0.75*sep + 0.4).
 */
export function revealFrame(guess: LatLon, truth: LatLon): Frame {
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
 * so the coastline gives context.
 */
export function pinsFrame(pins: LatLon[]): Frame | null {
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

function normLon(lon: number): number {
  return ((((lon + 180) % 360) + 360) % 360) - 180;
}

/** A map as the page draws it: a square window over the shared world path. */
export interface MapSpec {
  /** viewBox in plot units: x = lon * k, y = -lat. */
  vb: [number, number, number, number];
  /** x scale, cos(centre latitude), so shapes keep their local proportions. */
  k: number;
  /** Points as [x, y] plot coordinates, unwrapped towards the centre. */
  pins: [number, number][];
  guess: [number, number] | null;
  truth: [number, number] | null;
}

const r3 = (x: number) => Math.round(x * 1000) / 1000;

export function mapSpec(frame: Frame, pins: LatLon[], guess: LatLon | null, truth: LatLon | null): MapSpec {
  const [cLat, cLon] = frame.center;
  const k = r3(Math.max(0.2, Math.cos(cLat * RAD)));
  const hw = frame.halfWidthDeg;
  const pt = (p: LatLon): [number, number] => [r3(unwrapLon(p[1], cLon) * k), r3(-p[0])];
  return {
    vb: [r3(cLon * k - hw), r3(-cLat - hw), r3(2 * hw), r3(2 * hw)],
    k,
    pins: pins.map(pt),
    guess: guess ? pt(guess) : null,
    truth: truth ? pt(truth) : null,
  };
}

let worldCache: { land: string; borders: string } | null = null;

/**
 * World land and country borders (Natural Earth 110m via world-atlas) as SVG
 * path data in degrees, computed once per process with d3-geo, which also
 * cuts polygons at the antimeridian.
 */
export function worldPaths(): { land: string; borders: string } {
  if (worldCache) return worldCache;
  const require = createRequire(import.meta.url);
  const read = (name: string) => JSON.parse(readFileSync(require.resolve(`world-atlas/${name}`), "utf8")) as Topology;
  const projection = geoEquirectangular().scale(180 / Math.PI).translate([0, 0]);
  const path = geoPath(projection).digits(2);
  const landTopo = read("land-110m.json");
  const countries = read("countries-110m.json");
  const land = path(feature(landTopo, landTopo.objects.land as GeometryCollection)) ?? "";
  const borders = path(mesh(countries, countries.objects.countries as GeometryCollection, (a, b) => a !== b)) ?? "";
  worldCache = { land, borders };
  return worldCache;
}
