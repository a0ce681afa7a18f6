/**
 * GeoGuesser's served page: the folder form built from a snapshot of the inputs' complete lines,
 * marked live (the core's page-folder.ts), and what its live episodes continue.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import type { BoardData } from "../page/board/data.ts";
import { MAP_CELLS_ID } from "../page/player/format.ts";
import { rowsOfDataScript } from "../page/output/run-batches.ts";
import { jsonElement, markLive } from "../../../../src/serve/page-folder.ts";

export interface BuiltPage {
  ids: string[];
  images: string[];
  batches: number;
  /** A board page: its panorama table's length and its number of task chunks (live chunks are numbered after them). */
  board: { panos: number; chunks: number } | null;
  /** The keys of the page's table of atlas cells (its maps' land and borders are cut from it). */
  cells: string[];
}

/** Marks the built page live and reads what the live episodes continue: its ids, image table, data batches (a board: panoramas and chunks). */
export function openBuiltPage(root: string): BuiltPage {
  const file = join(root, "index.html");
  const html = readFileSync(file, "utf8");
  writeFileSync(file, markLive(html, randomUUID()));
  const boardData = jsonElement(html, "gr-board-data");
  const rows = JSON.parse(boardData ?? jsonElement(html, "gr-episodes") ?? "[]") as { id: string }[] | BoardData;
  const images = JSON.parse(jsonElement(html, "gr-images") ?? "[]") as string[];
  const files = readdirSync(join(root, "data"));
  const count = (kind: string) => files.filter((f) => new RegExp(`^${kind}-\\d+\\.js$`).test(f)).length;
  const board = boardData === null ? null : { panos: (JSON.parse(jsonElement(html, "gr-panos") ?? "[]") as unknown[]).length, chunks: count("chunk") };
  // A run page's rows are in its data/rows-<k>.js files (run-batches.ts), in order.
  const rowFiles = files.filter((f) => /^rows-\d+\.js$/.test(f)).length;
  const listed = Array.isArray(rows)
    ? [...rows, ...Array.from({ length: rowFiles }, (_, k) => rowsOfDataScript(readFileSync(join(root, "data", `rows-${k}.js`), "utf8"))).flat()]
    : rows.episodes;
  const ids = listed.map((r) => r.id);
  const table = jsonElement(html, MAP_CELLS_ID);
  const cells = table ? Object.keys(JSON.parse(gunzipSync(Buffer.from(JSON.parse(table) as string, "base64")).toString("utf8")) as object) : [];
  return { ids, images, batches: count("episodes"), board, cells };
}
