/**
 * The map data a render reads in Node: the atlas and gazetteer cells cut at
 * build time into dist/map/ (scripts/cut-map.mjs), one small file each, read
 * only when a frame touches it.
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { MapCell } from "../../../video/map/atlas.ts";
import type { Place } from "../../../video/map/places.ts";
import { GeoreplayError } from "../../../replay/io/errors.ts";

let dir: string | null = null;

/** dist/map of this package (the same from the sources and from an install: found through the package's own name). */
function mapDir(): string {
  if (dir) return dir;
  const root = dirname(createRequire(import.meta.url).resolve("georeplay/package.json"));
  const d = join(root, "dist", "map");
  if (!existsSync(join(d, "stamp.txt"))) throw new GeoreplayError(`${d}: the map data is missing (it is cut at build time: run npm run build)`);
  return (dir = d);
}

function readCell<T>(key: string): T | null {
  const file = join(mapDir(), `${key}.json`);
  // A cell with nothing in it (open sea, no towns) has no file.
  if (!existsSync(file)) return null;
  return JSON.parse(readFileSync(file, "utf8")) as T;
}

/**
 * Atlas cells read lately, newest last. A page draws a map per turn and a served run keeps
 * drawing them: nearby maps read the same cells, and reading and parsing a cell each time was
 * a fifth of serve's main thread. Bounded: a few hundred cells are a few MB (the atlas is 6 MB).
 */
const recentCells = new Map<string, MapCell | null>();
const RECENT_CELLS = 256;

/** An atlas cell ("10m/19_13"). Callers only read it (mapRings decodes into its own arrays). */
export function readMapCell(key: string): MapCell | null {
  if (recentCells.has(key)) {
    const hit = recentCells.get(key)!;
    recentCells.delete(key);
    recentCells.set(key, hit);
    return hit;
  }
  const cell = readCell<MapCell>(key);
  recentCells.set(key, cell);
  if (recentCells.size > RECENT_CELLS) recentCells.delete(recentCells.keys().next().value!);
  return cell;
}

const places = new Map<string, readonly Place[]>();

/** A gazetteer cell ("places/19_13"), kept once read (a cell is tens of KB). */
export function readPlaces(key: string): readonly Place[] {
  let p = places.get(key);
  if (!p) places.set(key, (p = readCell<Place[]>(key) ?? []));
  return p;
}
