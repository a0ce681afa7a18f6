/**
 * New lines of an input in, page rows out: the lines are verified as
 * `verify` does (verifyRun on a scratch copy whose line numbers are the
 * original's), each episode becomes the page's episode and list row, its
 * views go to views/<sha256>.jpg and its details to a new
 * data/episodes-<k>.js (and text-<k>.js for search) in the served folder,
 * as the folder form of `page` writes them. Episodes already on the page
 * (by id) are skipped, so a re-read file never shows one twice.
 */
import { mkdirSync, readdirSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { verifyRun, type ErroredEpisodeInfo, type VerifiedEpisode } from "../../replay/verify/verify.ts";
import type { CompleteLine } from "../../../../replay/io/line-reader.ts";
import type { InputFormat } from "../../../../replay/formats/inputs.ts";
import { erroredPageEpisode, pageEpisode, sourceName, type PageEpisode } from "../page/model.ts";
import { rowOfEpisode } from "../page/client/state/rows.ts";
import { detailText } from "../page/search-text.ts";
import { scriptJson } from "../../../../src/page/escape.ts";
import { dataScript, viewFileName } from "../../../../src/page/output/folder.ts";
import { PageMapCells } from "../page/board/map-cells.ts";
import { readMapCell } from "../../../../src/film/shared/map-data.ts";
import { RUN_BATCH, type RunRow } from "../page/output/run-batches.ts";
import type { EpisodesEvent } from "../page/live-events.ts";
import { summariseRun, type EpisodeStats } from "../page/stats.ts";
import { headerFacts, summaryTable, type HeaderInfo } from "../page/view/template.ts";
import { trainingRolloutOf, type TrainingRollout } from "../page/training.ts";
import { mayPlay } from "../page/player/embed.ts";
import type { LivePlayers, LivePlayersOptions } from "./live-players.ts";

/** An episodes event but for its time. */
export type LiveBatch = Omit<EpisodesEvent, "at">;

/** A batch's lines verified, not yet on the page. */
export interface VerifiedBatch {
  input: LiveInput;
  /** The scratch copy the lines were verified from, kept: a live episode's video is planned from it on demand. */
  copy: string;
  problems: string[];
  episodes: { v: VerifiedEpisode; where: string }[];
  errored: { e: ErroredEpisodeInfo; where: string }[];
}

/** A verified episode's page form and its numbers for the header and summary. */
interface Shown {
  page: PageEpisode;
  stats: EpisodeStats | null;
  model: string | null;
  /** View turns re-rendered. */
  views: number;
  /** A training rollout's place in its group (training runs). */
  training?: TrainingRollout | null;
  /** Where its record is, when it may play (its video is planned when a page asks: live-players.ts). */
  play?: { copy: string; line: number };
}

export interface LiveInput {
  /** The file as given or found (its name shows in the page). */
  file: string;
  format: Exclude<InputFormat, "sweep">;
}

/** The served folder, scratch folder, inputs (sources are named relative to them, as the page names them), pool and signal. */
export interface LiveEpisodesOptions extends LivePlayersOptions {
  jobs: number;
  /** The page as built: its episode ids, its image table, its number of data batches. */
  ids: Iterable<string>;
  images: readonly string[];
  batches: number;
  /** The keys of the page's atlas cells table. */
  cells: Iterable<string>;
  /** The built page's header facts and summary numbers, which the live episodes add to. */
  header: { info: HeaderInfo; stats: EpisodeStats[]; errored: (string | null)[] };
  /** The live episodes' videos, numbered as they arrive and planned on demand (none: no play buttons). */
  players?: LivePlayers;
  /** Each new training rollout shown (not one already on the page), for the training page's groups. */
  onTraining?: (r: TrainingRollout) => void;
}

/** Episodes turned into page data between two turns of the event loop (a few ms of the main thread). */
const YIELD_EVERY = 8;
const yieldToEvents = () => new Promise<void>((resolve) => setImmediate(resolve));

export class LiveEpisodes {
  private readonly ids: Set<string>;
  private readonly images = new Map<string, number>();
  /** How long the header's counts took last time (ms): they are over the whole run, so they grow with it. */
  countsMs = 0;
  /** The image index of each view digest shown (a training group's siblings share their first view). */
  private readonly byDigest = new Map<string, number>();
  private imageCount: number;
  private batch: number;
  /** The atlas cells the page has (its table and the live cell files); cell files written so far. */
  private readonly cells: Set<string>;
  private cellFiles = 0;
  private readonly said = new Set<string>();
  private readonly dirs = new Map<string, string>();
  /** Scratch copies written, each kept (a live episode plays from its batch's copy). */
  private copies = 0;

  constructor(private readonly o: LiveEpisodesOptions) {
    this.ids = new Set(o.ids);
    o.images.forEach((p, i) => this.images.set(p, i));
    this.imageCount = o.images.length;
    this.batch = o.batches;
    this.cells = new Set(o.cells);
    mkdirSync(o.scratch, { recursive: true });
  }

  /** Verifies consecutive complete lines of one input and writes what the page needs to show them. */
  async add(input: LiveInput, lines: CompleteLine[]): Promise<LiveBatch> {
    return { ...(await this.show(await this.verified(input, lines))), ...this.counts() };
  }

  /**
   * The first half of `add`: the lines verified (the worker threads' part), kept for `show`. serve
   * verifies the next batch while this one is shown (the main thread's part), one verification at a time.
   */
  async verified(input: LiveInput, lines: CompleteLine[]): Promise<VerifiedBatch> {
    const copy = this.copyFor(input);
    const b: VerifiedBatch = { input, copy, problems: [], episodes: [], errored: [] };
    b.problems = await this.verify(input, lines, copy, {
      onErrored: (e, where) => void b.errored.push({ e, where }),
      onEpisode: async (v, where) => void b.episodes.push({ v, where }),
    });
    return b;
  }

  /**
   * The second half of `add`, in the order of the batches: pages, view files and data files written; the
   * event's rows, without the header's counts (`counts`).
   */
  async show(b: VerifiedBatch): Promise<LiveBatch> {
    const { input } = b;
    const out: LiveBatch = { rows: [], imagesFrom: this.imageCount, images: [], problems: b.problems, facts: "", summary: "" };
    const pages: Shown[] = [];
    for (const [i, { v, where }] of b.episodes.entries()) {
      // The worker threads wait for the main thread to hand out the next batch's views: let them in.
      if (i % YIELD_EVERY === YIELD_EVERY - 1) await yieldToEvents();
      // Maps without land and borders (most of a detail's bytes and a third of this thread's time): the page cuts them from its cells.
      const { page, stats } = await pageEpisode(v, async (digest, jpeg) => this.image(digest, jpeg, out), this.o.inputs, false);
      const r = trainingRolloutOf(v, page);
      // Named by the input, not the scratch copy: siblings keep `groups --json`'s order (file, then line).
      const play = this.o.players && mayPlay(v, this.o.panos) ? { copy: b.copy, line: v.line } : undefined;
      pages.push({ page: { ...page, source: where }, stats, model: null, views: v.views.length, training: r && { ...r, file: input.file }, play });
    }
    const errored: Shown[] = b.errored.map(({ e, where }) => {
      const page = { ...erroredPageEpisode(e, this.o.inputs), source: where };
      return { page, stats: null, model: page.model, views: 0 };
    });
    const fresh = [...pages, ...errored].filter((p) => !this.ids.has(p.page.id));
    const h = this.o.header;
    for (const p of fresh) {
      this.ids.add(p.page.id);
      if (p.stats) {
        h.stats.push(p.stats);
        h.info.checked += p.stats.match + p.stats.resolved + p.stats.mismatch;
        h.info.match += p.stats.match;
        h.info.resolved += p.stats.resolved;
        h.info.mismatch += p.stats.mismatch;
        h.info.recorded += p.stats.recorded ?? 0;
      } else h.errored.push(p.model);
      h.info.formats[input.format]++;
      h.info.views += p.views;
      if (p.training) this.o.onTraining?.(p.training);
    }
    const cells = this.newCells(fresh.map((p) => p.page));
    if (cells !== undefined) out.cells = cells;
    for (let i = 0; i < fresh.length; i += RUN_BATCH) out.rows.push(...(await this.writeBatch(fresh.slice(i, i + RUN_BATCH), input)));
    h.info.images = this.imageCount;
    return out;
  }

  /** The header's facts and the summary table, as the page writer makes them, over every episode now. */
  counts(): Pick<LiveBatch, "facts" | "summary"> {
    const t0 = performance.now();
    const summary = summariseRun(this.o.header.stats, this.o.header.errored);
    const out = { facts: headerFacts(this.o.header.info, summary), summary: summaryTable(summary) };
    this.countsMs = performance.now() - t0;
    return out;
  }

  /** verifyRun over a scratch copy of the lines at `copy` (line numbers the original's); returns its problems not said before, naming the input. */
  private async verify(
    input: LiveInput,
    lines: CompleteLine[],
    copy: string,
    on: {
      onErrored?: (e: ErroredEpisodeInfo, where: string) => void;
      onEpisode?: (v: VerifiedEpisode, where: string) => Promise<void>;
    },
  ): Promise<string[]> {
    if (!lines.some((l) => l.bytes.some((b) => b !== 0x20 && b !== 0x09 && b !== 0x0d))) return [];
    // Blank lines before the first keep the scratch copy's line numbers the original's (readJsonl counts every line).
    mkdirSync(dirname(copy), { recursive: true });
    const parts: Buffer[] = [Buffer.alloc(lines[0].line - 1, 0x0a)];
    for (const l of lines) parts.push(l.bytes, Buffer.from("\n"));
    writeFileSync(copy, Buffer.concat(parts));
    const where = (line: number) => `${sourceName(input.file, this.o.inputs)}:${line}`;
    const { onEpisode, onErrored } = on;
    const report = await verifyRun({
      episodes: [copy],
      tasks: this.o.tasks,
      panos: this.o.panos,
      format: input.format,
      jobs: this.o.jobs,
      pool: input.format === "example" ? undefined : this.o.pool,
      keepImages: onEpisode !== undefined,
      signal: this.o.signal,
      onErrored: onErrored && ((e) => onErrored(e, where(e.line))),
      onEpisode: onEpisode && ((v) => onEpisode(v, where(v.line))),
    });
    const problems: string[] = [];
    for (const p of [...report.errors, ...report.warnings]) {
      // Messages name the scratch copy: name the input instead.
      const text = p.message.split(copy).join(sourceName(input.file, this.o.inputs));
      const key = `${input.file}\n${text}`;
      if (this.said.has(key)) continue;
      this.said.add(key);
      problems.push(text);
    }
    return problems;
  }

  /**
   * Where a batch's scratch copy goes: a folder of its own, kept, where its episodes may play; else
   * the input's scratch folder (an example rollout's copy sits beside the links to its images).
   */
  private copyFor(input: LiveInput): string {
    const dir = this.dirFor(input);
    const keep = this.o.players && input.format !== "example";
    return keep ? join(dir, String(this.copies++), basename(input.file)) : join(dir, basename(input.file));
  }

  /**
   * The scratch folder of an input's copies, one per input (polls never overlap). An example
   * rollout's trace names its images relative to its folder: its scratch folder links to them.
   */
  private dirFor(input: LiveInput): string {
    let dir = this.dirs.get(input.file);
    if (dir) return dir;
    dir = join(this.o.scratch, String(this.dirs.size));
    mkdirSync(dir, { recursive: true });
    if (input.format === "example") {
      const home = dirname(input.file);
      for (const name of readdirSync(home)) if (name !== basename(input.file)) symlinkSync(resolve(home, name), join(dir, name));
    }
    this.dirs.set(input.file, dir);
    return dir;
  }

  /** The number of a new data/cells-<n>.js holding the cells these episodes' maps read that the page has not got, if any. */
  private newCells(pages: PageEpisode[]): number | undefined {
    const reads = new PageMapCells();
    for (const p of pages) {
      if (p.outcomeMap) reads.share(p.outcomeMap);
      for (const t of p.turns) if (t.map) reads.share(t.map);
    }
    const fresh = reads.cells().filter((k) => !this.cells.has(k));
    if (!fresh.length) return undefined;
    const n = this.cellFiles++;
    this.atomicWrite(`data/cells-${n}.js`, dataScript("cells", n, scriptJson(Object.fromEntries(fresh.map((k) => [k, readMapCell(k)])))));
    for (const k of fresh) this.cells.add(k);
    return n;
  }

  /** The image table index of a view, writing its file the first time (a digest seen before is not hashed again). */
  private image(digest: string, jpeg: Buffer, out: LiveBatch): number {
    const known = this.byDigest.get(digest);
    if (known !== undefined) return known;
    const rel = viewFileName(jpeg);
    let n = this.images.get(rel);
    if (n === undefined) {
      this.atomicWrite(rel, jpeg);
      n = this.imageCount++;
      this.images.set(rel, n);
      out.images.push(rel);
    }
    this.byDigest.set(digest, n);
    return n;
  }

  /** One data batch, as the folder form's RunBatches writes it; returns the episodes' rows (with their video's number where they may play). */
  private async writeBatch(shown: Shown[], input: LiveInput): Promise<RunRow[]> {
    const k = this.batch++;
    const pages = shown.map((s) => s.page);
    this.atomicWrite(`data/text-${k}.js`, dataScript("text", k, `[${pages.map((p) => JSON.stringify(detailText(p))).join(",")}]`));
    const json: string[] = [];
    for (const [i, p] of pages.entries()) {
      if (i % YIELD_EVERY === YIELD_EVERY - 1) await yieldToEvents();
      json.push(scriptJson(p));
    }
    this.atomicWrite(`data/episodes-${k}.js`, dataScript("episodes", k, `[${json.join(",")}]`));
    return shown.map(({ page, play }, at) => {
      const video = play && this.o.players?.add({ input, ...play, id: page.id });
      return { ...rowOfEpisode(page), batch: k, at, ...(video !== undefined ? { video } : {}) };
    });
  }

  /** A file appears whole or not at all: a page may ask for it the moment its row arrives. */
  private atomicWrite(rel: string, data: string | Buffer): void {
    const path = join(this.o.root, rel);
    writeFileSync(`${path}.part`, data);
    renameSync(`${path}.part`, path);
  }
}
