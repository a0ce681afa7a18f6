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

import { unwrapLon, type LatLon, type MapFrame } from "../../video/map/frame.ts";

// The framing rules live in video/map/frame.ts (the video uses the same ones).
export { haversineKm, pinsFrame, revealFrame, separationDeg, type LatLon } from "../../video/map/frame.ts";

const RAD = Math.PI / 180;

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

export function mapSpec(frame: MapFrame, pins: LatLon[], guess: LatLon | null, truth: LatLon | null): MapSpec {
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
  const projection = geoEquirectangular()
    .scale(180 / Math.PI)
    .translate([0, 0]);
  const path = geoPath(projection).digits(2);
  const landTopo = read("land-110m.json");
  const countries = read("countries-110m.json");
  const land = path(feature(landTopo, landTopo.objects.land as GeometryCollection)) ?? "";
  const borders = path(mesh(countries, countries.objects.countries as GeometryCollection, (a, b) => a !== b)) ?? "";
  worldCache = { land, borders };
  return worldCache;
}
