/**
 * A board page's one table of map geometry: the atlas cells (land and
 * borders, video/map's cells) every map of the page reads, stored once and
 * shared by the page's maps (outcome, turn and compare maps keep only their
 * frames, colours and pins: geo.ts sharedGeometry) and the board's player
 * (its video maps). Maps were ~70% of a board's chunks when each carried its
 * own land and borders as path data.
 */
import { gzipSync } from "node:zlib";
import { MapReads } from "../../../../../src/film/shared/map-reads.ts";
import { readMapCell } from "../../../../../src/film/shared/map-data.ts";
import { sharedGeometry, type MapSpec } from "../../../../../src/page/geo.ts";
import { scriptJson } from "../../../../../src/page/escape.ts";
import { MAP_CELLS_ID } from "../player/format.ts";

export class PageMapCells {
  /** The page maps' own framings (kept apart from the player's reads, which also trim its places): their atlas cells alone. */
  private readonly reads = new MapReads({ places: false });

  /** The map as the page stores it (no land or borders), its framings' cells noted. */
  share(m: MapSpec): MapSpec {
    this.reads.visit({ t: "map", frame: m.frame, w: m.size, h: m.size });
    for (const p of m.prims) if (p.t === "inset") this.reads.visit({ t: "map", frame: p.frame, w: p.w, h: p.h });
    return sharedGeometry(m);
  }

  /** The cells the page's maps read, sorted. */
  cells(): string[] {
    return this.reads.cells();
  }
}

/** The table's element: key -> cell (null where the cell is open sea), gzip JSON (level 9, no timestamp) as a base64 JSON string. */
export function mapCellsElement(keys: Iterable<string>): string {
  return `<script type="application/json" id="${MAP_CELLS_ID}">${mapCellsJson(keys)}</script>\n`;
}

/** The table's JSON text (a base64 JSON string), as the element holds it. */
export function mapCellsJson(keys: Iterable<string>): string {
  const table = Object.fromEntries([...new Set(keys)].sort().map((k) => [k, readMapCell(k)]));
  return scriptJson(gzipSync(Buffer.from(JSON.stringify(table)), { level: 9 }).toString("base64"));
}

/** The page's closing text with the map cells' table before `</body>`. */
export function mapCellsTail(tail: string, keys: Iterable<string>): string {
  const at = tail.lastIndexOf("</body>");
  if (at < 0) throw new Error("page tail without </body>");
  return `${tail.slice(0, at)}${mapCellsElement(keys)}${tail.slice(at)}`;
}
