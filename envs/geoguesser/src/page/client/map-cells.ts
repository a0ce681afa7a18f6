/**
 * A board page's (and a run page folder's) one table of atlas cells (envs/geoguesser/src/page/board/map-cells.ts),
 * gunzipped once before the first chunk's maps are drawn: the maps store
 * only their frames, and their land and borders are cut from these cells by
 * the same code (video/map/paths.ts) that cut them into path data in Node.
 */
import type { MapCell } from "../../../../../video/map/atlas.ts";
import { mapRings, svgPath } from "../../../../../video/map/paths.ts";
import type { MapFrame } from "../../../../../video/map/frame.ts";
import { MAP_CELLS_ID } from "../player/format.ts";
import { dataFile, pageTables } from "../../../../../src/page/client/data-files.ts";

const cells: Record<string, MapCell | null> = {};
let loading: Promise<void> | null = null;
/** A served page's cell files (data/cells-<n>.js), for the maps of episodes added live. */
const more: Promise<void>[] = [];

/** Reads the page's cell table (none on a one-file run page: its maps carry their paths) and its live cell files so far. */
export function loadMapCells(): Promise<void> {
  return Promise.all([loadTable(), ...more]).then(() => undefined);
}

/** Loads a served page's cell file data/cells-<n>.js (live-events.ts EpisodesEvent.cells). */
export function addMapCells(n: number): void {
  more.push(dataFile<Record<string, MapCell | null>>("cells", n, { keep: false }).then((t) => void Object.assign(cells, t)));
}

function loadTable(): Promise<void> {
  return (loading ??= (async () => {
    // The table sits at the end of the page (complete only once the parser is past it), or in a board folder's table file.
    await pageTables();
    const node = document.getElementById(MAP_CELLS_ID);
    if (!node) return;
    const bin = atob(JSON.parse(node.textContent || '""') as string);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    const text = await new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"))).text();
    Object.assign(cells, JSON.parse(text) as Record<string, MapCell | null>);
  })());
}

/** The last few framings' paths: a compare row's maps share one frame. */
const recent = new Map<string, { landPath: string; bordersPath: string }>();

/** Land and borders of a width x height map of `frame`, as SVG path data. */
export function framePaths(frame: MapFrame, width: number, height: number): { landPath: string; bordersPath: string } {
  const key = JSON.stringify([frame, width, height]);
  let p = recent.get(key);
  if (!p) {
    const r = mapRings(frame, width, height, (k) => cells[k] ?? null);
    p = { landPath: svgPath(r.land, width, height, true), bordersPath: svgPath(r.borders, width, height, false) };
    recent.set(key, p);
    if (recent.size > 16) recent.delete(recent.keys().next().value!);
  }
  return p;
}
