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
import type { RunRow } from "../page/output/run-batches.ts";
import { MAP_CELLS_ID } from "../page/player/format.ts";

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
  board: boolean;
  /** The keys of the page's table of atlas cells (its maps' land and borders are cut from it). */
  cells: string[];
}

/** Marks the built page live and reads what the live episodes continue: its ids, image table and data batches. */
export function openBuiltPage(root: string): BuiltPage {
  const file = join(root, "index.html");
  const html = readFileSync(file, "utf8");
  writeFileSync(file, markLive(html, randomUUID()));
  const rows = JSON.parse(jsonElement(html, "gr-episodes") ?? "[]") as RunRow[];
  const images = JSON.parse(jsonElement(html, "gr-images") ?? "[]") as string[];
  const batches = readdirSync(join(root, "data")).filter((f) => /^episodes-\d+\.js$/.test(f)).length;
  const table = jsonElement(html, MAP_CELLS_ID);
  const cells = table ? Object.keys(JSON.parse(gunzipSync(Buffer.from(JSON.parse(table) as string, "base64")).toString("utf8")) as object) : [];
  return { ids: rows.map((r) => r.id), images, batches, board: html.includes('id="gr-board-data"'), cells };
}
