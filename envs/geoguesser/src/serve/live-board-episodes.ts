/**
 * A served board's new episodes, listed and opened as a built board lists
 * and opens them. Each batch of verified lines becomes one live chunk in the
 * served folder, data/chunk-<n>.js (n after the built chunks), in the built
 * chunks' own form (chunks.ts: base64 gzip `{"episodes", "maps"}`, each
 * episode compacted by build.ts's compactEpisode) with its search text
 * beside it, data/text-<n>.js; the event carries the batch's list rows
 * (chunk n, position in it) and the new entries of the page's tables: exact
 * views as views/<sha256>.jpg (the verified bytes, as the folder form writes
 * them) and, for a view without exact bytes (a mismatch), its panorama as
 * views/<sha256>.webp. Live maps keep their own land and borders (the page's
 * atlas cell table is written once, at build): the client draws a map's own
 * paths when it has them. Episodes already on the page (by id) are skipped.
 * A live episode has no player record: no play button.
 */
import { renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { geoevalReward } from "../../replay/rules/reward.ts";
import { compactEpisode, boardRow, type CompactTables } from "../page/board/build.ts";
import type { BoardEpisodeRow } from "../page/board/data.ts";
import { erroredPageEpisode, pageEpisode, type PageEpisode } from "../page/model.ts";
import { smallPano } from "../page/pano-table.ts";
import { detailText } from "../page/search-text.ts";
import { scriptJson } from "../../../../src/page/escape.ts";
import { dataScript, viewFileName } from "../../../../src/page/output/folder.ts";
import type { BoardEpisodesUpdate } from "../page/board/live-event.ts";
import type { VerifiedBatch } from "./live-episodes.ts";

export interface LiveBoardOptions {
  /** The served page folder. */
  root: string;
  /** The command line's inputs: sources are named relative to them, as the page names them. */
  inputs: readonly string[];
  panos?: string;
  /** The page as built: its episode ids, exact-view table, number of panoramas and of chunks. */
  ids: Iterable<string>;
  images: readonly string[];
  panoCount: number;
  chunks: number;
}

/** A growing table of the page (exact views, panoramas): entries past the built ones, each a file of the served folder. */
class LiveTable {
  private readonly index = new Map<string, number>();
  private count: number;
  fresh: string[] = [];
  from: number;

  constructor(built: readonly string[] | number) {
    if (typeof built === "number") this.count = built;
    else {
      built.forEach((p, i) => this.index.set(p, i));
      this.count = built.length;
    }
    this.from = this.count;
  }

  /** The entries added since the last `take`, and where they start. */
  take(): { from: number; entries: string[] } {
    const out = { from: this.from, entries: this.fresh };
    this.fresh = [];
    this.from = this.count;
    return out;
  }

  /** The index of a key, or undefined before it is added. */
  get(key: string): number | undefined {
    return this.index.get(key);
  }

  /** Adds a key whose entry (a path of the served folder) was just written; returns its index. */
  put(key: string, rel: string): number {
    const n = this.count++;
    this.index.set(key, n);
    this.fresh.push(rel);
    return n;
  }
}

export class LiveBoardEpisodes {
  private readonly ids: Set<string>;
  private readonly images: LiveTable;
  private readonly panos: LiveTable;
  /** Panoramas that could not be read: said for each episode that needs one, read once. */
  private readonly panoFailed = new Map<string, Error>();
  private chunk: number;

  constructor(private readonly o: LiveBoardOptions) {
    this.ids = new Set(o.ids);
    this.images = new LiveTable(o.images);
    this.panos = new LiveTable(o.panoCount);
    this.chunk = o.chunks;
  }

  /** A verified batch's new episodes: their live chunk and view files written; their rows, and problems embedding their panoramas. */
  async show(b: VerifiedBatch): Promise<Pick<BoardEpisodesUpdate, "rows" | "problems">> {
    const stored: string[] = [];
    const texts: string[] = [];
    const rows: BoardEpisodeRow[] = [];
    const maps = new Map<string, number>();
    const problems: string[] = [];
    const chunk = this.chunk;
    const tables = this.tables();
    const keep = (page: PageEpisode, json: string, score: number) => {
      this.ids.add(page.id);
      rows.push(boardRow(page, score, chunk, stored.length));
      stored.push(json);
      texts.push(JSON.stringify(detailText(page)));
    };
    for (const { v, where } of b.episodes) {
      if (this.ids.has(v.episode.episode_id)) continue;
      const { page } = await pageEpisode(v, async () => -1, this.o.inputs);
      const named = { ...page, source: where };
      // A turn's map, once per chunk (an episode shows one map until its pins change); its own paths kept.
      const addMap = (m: object) => {
        const json = scriptJson(m);
        let at = maps.get(json);
        if (at === undefined) maps.set(json, (at = maps.size));
        return at;
      };
      const { episode, problems: said } = await compactEpisode(named, v.episode, v.task, this.o.panos, tables, v.views, { addMap });
      for (const p of said) problems.push(`${where}: episode ${v.episode.episode_id}: ${p}`);
      if (this.ids.has(episode.id)) continue;
      keep(episode, scriptJson(episode), geoevalReward(v.episode.outcome ?? null));
    }
    for (const { e, where } of b.errored) {
      const page = { ...erroredPageEpisode(e, this.o.inputs), source: where };
      if (!this.ids.has(page.id)) keep(page, scriptJson(page), page.score);
    }
    if (rows.length) {
      this.chunk++;
      const json = `{"episodes":[${stored.join(",")}],"maps":[${[...maps.keys()].join(",")}]}`;
      // Level 1: a live chunk is read once by each open page; the build's level 9 costs ~10x the CPU.
      const b64 = gzipSync(Buffer.from(json, "utf8"), { level: 1 }).toString("base64");
      // The text before the chunk: a page may ask for either the moment its row arrives.
      this.atomicWrite(`data/text-${chunk}.js`, dataScript("text", chunk, `[${texts.join(",")}]`));
      this.atomicWrite(`data/chunk-${chunk}.js`, dataScript("chunk", chunk, `"${b64}"`));
    }
    return { rows, problems };
  }

  /** The tables' entries added since the last call (an event carries them with its rows). */
  takeTables(): Pick<BoardEpisodesUpdate, "imagesFrom" | "images" | "panosFrom" | "panos"> {
    const images = this.images.take();
    const panos = this.panos.take();
    return { imagesFrom: images.from, images: images.entries, panosFrom: panos.from, panos: panos.entries };
  }

  /** Where compactEpisode puts a live episode's exact views and panoramas: files of the served folder, named by their bytes. */
  private tables(): CompactTables {
    const file = (bytes: Buffer) => {
      const rel = viewFileName(bytes);
      this.atomicWrite(rel, bytes);
      return rel;
    };
    return {
      exact: {
        add: (digest, jpeg) => {
          // A served page keeps every verified view's bytes (a folder form): none comes without them.
          if (!jpeg) throw new Error(`view ${digest}: its verified bytes were not kept`);
          // Keyed by the bytes' own digest (what the built table's paths are named by), never by a trace's.
          const rel = viewFileName(jpeg);
          return this.images.get(rel) ?? this.images.put(rel, file(jpeg));
        },
      },
      panos: {
        add: async (path) => {
          const hit = this.panos.get(path);
          if (hit !== undefined) return hit;
          const failed = this.panoFailed.get(path);
          if (failed) throw failed;
          try {
            return this.panos.put(path, file(await smallPano(path)));
          } catch (e) {
            this.panoFailed.set(path, e as Error);
            throw e;
          }
        },
      },
      panoEveryView: false,
    };
  }

  /** A file appears whole or not at all: a page may ask for it the moment its row arrives. */
  private atomicWrite(rel: string, data: string | Buffer): void {
    const path = join(this.o.root, rel);
    writeFileSync(`${path}.part`, data);
    renameSync(`${path}.part`, path);
  }
}
