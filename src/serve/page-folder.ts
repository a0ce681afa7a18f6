/**
 * The served page: the folder form `page -o DIR/` writes, built from a
 * snapshot of the inputs' complete lines, then marked live. The mark is a
 * <meta name="georeplay-live"> (the client opens its event stream only
 * with it, so a page saved from the server and opened from disk stays a
 * static page) and the CSP gains exactly `connect-src 'self'`, which the
 * event stream needs.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import type { BoardData } from "../page/board/data.ts";
import { MAP_CELLS_ID } from "../page/player/format.ts";
import { rowsOfDataScript } from "../page/output/run-batches.ts";

/** The live mark; `server` names this server's run of the page (tabs of one server share one stream). */
export const liveMeta = (server: string): string => `<meta name="georeplay-live" content="${server.replace(/[^A-Za-z0-9-]/g, "")}">`;

/** index.html with the live mark and `connect-src 'self'` added to its policy (pure). */
export function markLive(html: string, server = "serve"): string {
  const csp = /(<meta http-equiv="Content-Security-Policy" content=")([^"]*)(">)/;
  if (!csp.test(html)) throw new Error("the built page has no Content-Security-Policy to extend");
  return html.replace(csp, (_m, a: string, policy: string, b: string) => `${a}${policy}; connect-src &#39;self&#39;${b}\n${liveMeta(server)}`);
}

/** The JSON text of the page's `<script type="application/json" id=...>` element, if any (pure). */
export function jsonElement(html: string, id: string): string | null {
  const open = `<script type="application/json" id="${id}">`;
  const at = html.indexOf(open);
  if (at === -1) return null;
  const end = html.indexOf("</script>", at);
  return html.slice(at + open.length, end);
}

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
