/**
 * Reading the player's embedded tables, on the first play only: the episode
 * (gzip JSON, gunzipped by the browser's DecompressionStream), the video's
 * fonts (registered as FontFace objects from bytes: nothing is fetched, and
 * the page's CSP needs no change), the map topologies and the pictures.
 * An episode `serve` added live brings its own tables in its data file
 * (format.ts LivePlayerData): the same decoding, its own fonts and pictures.
 */
import type { MapCell } from "../../../../../video/map/atlas.ts";
import type { Place } from "../../../../../video/map/places.ts";
import {
  BOARD_PANOS_ID,
  MAP_CELLS_ID,
  PLAYER_META_ID,
  PLAYER_PANOS_ID,
  rangeKey,
  type LivePlayerData,
  type PlayerEpisode,
  type PlayerFont,
  type PlayerMeta,
} from "./format.ts";

function bytes(b64: string): Uint8Array<ArrayBuffer> {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

async function gunzipJson<T>(b64: string): Promise<T> {
  const stream = new Blob([bytes(b64)]).stream().pipeThrough(new DecompressionStream("gzip"));
  return JSON.parse(await new Response(stream).text()) as T;
}

function table<T>(id: string): T | null {
  const node = document.getElementById(id);
  return node ? (JSON.parse(node.textContent || "null") as T) : null;
}

export interface PageAssets {
  meta: PlayerMeta;
  cells: Record<string, MapCell | null>;
  /** Board pages: the gazetteer cells the maps read (the browser lays out map labels from them). */
  places: Record<string, Place[]>;
  panoUrls: string[];
  viewUrls: string[];
}

let assets: Promise<PageAssets> | null = null;

/** The page-wide tables, read and decoded once (fonts registered, topologies parsed). */
export function pageAssets(): Promise<PageAssets> {
  return (assets ??= (async () => {
    // The tables sit after the script: complete only once the parser is past them.
    if (document.readyState === "loading") await new Promise((r) => document.addEventListener("DOMContentLoaded", r, { once: true }));
    // A board folder's are in data/tables-0.js: the page's script puts them in after its first screen (client/data-files.ts).
    const root = document.documentElement.dataset;
    if (root.tableFile === "1" && root.tablesIn !== "1") await new Promise((r) => document.addEventListener("georeplay-tables", r, { once: true }));
    const meta = table<PlayerMeta>(PLAYER_META_ID);
    if (!meta) throw new Error("this page was written without the player (--no-player)");
    // A board's views (and a folder run page's in-between frames) are reprojected from the page's panorama table; a one-file run page's player has its own.
    const panoUrls = table<string[]>(meta.kind === "board" ? BOARD_PANOS_ID : PLAYER_PANOS_ID) ?? [];
    return decodeAssets(meta, panoUrls, table<string[]>("gr-images") ?? []);
  })());
}

const live = new WeakMap<object, Promise<PageAssets>>();

/** A live episode's tables, from its data file (decoded once per file). */
export function liveAssets(data: LivePlayerData): Promise<PageAssets> {
  if ("error" in data) return Promise.reject(new Error(data.error));
  let p = live.get(data);
  if (!p) live.set(data, (p = decodeAssets(data.meta, data.panos, data.views)));
  return p;
}

/** A player table decoded: its fonts registered, its map cells parsed. */
async function decodeAssets(meta: PlayerMeta, panoUrls: string[], viewUrls: string[]): Promise<PageAssets> {
  await Promise.all(
    meta.fonts.map(async (f) => {
      // A face the page's stylesheet declares (the same file): load it from there, as the
      // canvas needs it before the first frame, not when page text first asks for it.
      if (f.woff2 === undefined) {
        await stylesheetFace(f)?.load();
        return;
      }
      const face = new FontFace(f.family, bytes(f.woff2), { weight: String(f.weight), style: f.style, unicodeRange: f.range });
      await face.load();
      // FontFaceSet.add: missing from this TypeScript DOM lib, in every current browser.
      (document.fonts as unknown as { add(f: FontFace): void }).add(face);
    }),
  );
  // A board page's cells are its one table, shared with its maps.
  const cells = (await gunzipJson(meta.cells ?? table<string>(MAP_CELLS_ID) ?? "")) as Record<string, MapCell | null>;
  const places = meta.places ? ((await gunzipJson(meta.places)) as Record<string, Place[]>) : {};
  return { meta, cells, places, panoUrls, viewUrls };
}

/** The stylesheet's face of a font (family, weight, style and subset), if the page declares it. */
function stylesheetFace(f: PlayerFont): FontFace | undefined {
  const want = rangeKey(f.range);
  let found: FontFace | undefined;
  // FontFaceSet's iterator: missing from this TypeScript DOM lib, in every current browser.
  (document.fonts as unknown as { forEach(cb: (face: FontFace) => void): void }).forEach((face) => {
    if (face.family.replace(/"/g, "") === f.family && face.weight === String(f.weight) && face.style === f.style && rangeKey(face.unicodeRange) === want)
      found = face;
  });
  return found;
}

export function hasEpisode(a: PageAssets, id: string): boolean {
  return Object.prototype.hasOwnProperty.call(a.meta.episodes, id);
}

export function episodeData<P>(a: PageAssets, id: string): Promise<PlayerEpisode<P>> {
  const b64 = a.meta.episodes[id];
  if (typeof b64 !== "string") throw new Error(`episode ${id} has no video in this page`);
  return gunzipJson<PlayerEpisode<P>>(b64);
}

const decoded = new Map<string, Promise<HTMLImageElement>>();

/** A data: URL decoded into an image (kept: a page's pictures are decoded once). */
export function decodeImage(url: string): Promise<HTMLImageElement> {
  let p = decoded.get(url);
  if (!p) {
    const img = new Image();
    img.src = url;
    decoded.set(url, (p = img.decode().then(() => img)));
  }
  return p;
}
