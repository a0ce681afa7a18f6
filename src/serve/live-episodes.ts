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
import type { JobPool } from "../../replay/verify/pool.ts";
import type { CompleteLine } from "../../replay/io/line-reader.ts";
import type { InputFormat } from "../../replay/formats/inputs.ts";
import { erroredPageEpisode, pageEpisode, sourceName, type PageEpisode } from "../page/model.ts";
import { rowOfEpisode } from "../page/client/state/rows.ts";
import { detailText } from "../page/search-text.ts";
import { scriptJson } from "../page/escape.ts";
import { dataScript, viewFileName } from "../page/output/folder.ts";
import { RUN_BATCH, type RunRow } from "../page/output/run-batches.ts";
import type { EpisodesEvent } from "../page/live-events.ts";
import { summariseRun, type EpisodeStats } from "../page/stats.ts";
import { headerFacts, summaryTable, type HeaderInfo } from "../page/view/template.ts";
import { trainingRolloutOf, type TrainingRollout } from "../page/training.ts";

/** An episodes event but for its time. */
export type LiveBatch = Omit<EpisodesEvent, "at">;

/** A batch's lines verified, not yet on the page. */
export interface VerifiedBatch {
  input: LiveInput;
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
}

export interface LiveInput {
  /** The file as given or found (its name shows in the page). */
  file: string;
  format: Exclude<InputFormat, "sweep">;
}

export interface LiveEpisodesOptions {
  /** The served page folder. */
  root: string;
  /** A private scratch folder (never served). */
  scratch: string;
  /** The command line's inputs: sources are named relative to them, as the page names them. */
  inputs: readonly string[];
  tasks?: string;
  panos?: string;
  pool: JobPool | undefined;
  jobs: number;
  /** The page as built: its episode ids, its image table, its number of data batches. */
  ids: Iterable<string>;
  images: readonly string[];
  batches: number;
  /** The built page's header facts and summary numbers, which the live episodes add to. */
  header: { info: HeaderInfo; stats: EpisodeStats[]; errored: (string | null)[] };
  /** Each new training rollout shown (not one already on the page), for the training page's groups. */
  onTraining?: (r: TrainingRollout) => void;
  signal?: AbortSignal;
}

export class LiveEpisodes {
  private readonly ids: Set<string>;
  private readonly images = new Map<string, number>();
  private imageCount: number;
  private batch: number;
  private readonly said = new Set<string>();
  private readonly dirs = new Map<string, string>();

  constructor(private readonly o: LiveEpisodesOptions) {
    this.ids = new Set(o.ids);
    o.images.forEach((p, i) => this.images.set(p, i));
    this.imageCount = o.images.length;
    this.batch = o.batches;
    mkdirSync(o.scratch, { recursive: true });
  }

  /** Verifies consecutive complete lines of one input and writes what the page needs to show them. */
  async add(input: LiveInput, lines: CompleteLine[]): Promise<LiveBatch> {
    return this.show(await this.verified(input, lines));
  }

  /**
   * The first half of `add`: the lines verified (the worker threads' part), kept for `show`. serve
   * verifies the next batch while this one is shown (the main thread's part), one verification at a time.
   */
  async verified(input: LiveInput, lines: CompleteLine[]): Promise<VerifiedBatch> {
    const b: VerifiedBatch = { input, problems: [], episodes: [], errored: [] };
    b.problems = await this.verify(input, lines, {
      onErrored: (e, where) => void b.errored.push({ e, where }),
      onEpisode: async (v, where) => void b.episodes.push({ v, where }),
    });
    return b;
  }

  /** The second half of `add`, in the order of the batches: pages, view files and data files written; the event's rows. */
  async show(b: VerifiedBatch): Promise<LiveBatch> {
    const { input } = b;
    const out: LiveBatch = { rows: [], imagesFrom: this.imageCount, images: [], problems: b.problems, facts: "", summary: "" };
    const pages: Shown[] = [];
    for (const { v, where } of b.episodes) {
      const { page, stats } = await pageEpisode(v, async (_digest, jpeg) => this.image(jpeg, out), this.o.inputs);
      const r = trainingRolloutOf(v, page);
      // Named by the input, not the scratch copy: siblings keep `groups --json`'s order (file, then line).
      pages.push({ page: { ...page, source: where }, stats, model: null, views: v.views.length, training: r && { ...r, file: input.file } });
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
    for (let i = 0; i < fresh.length; i += RUN_BATCH) out.rows.push(...this.writeBatch(fresh.slice(i, i + RUN_BATCH).map((p) => p.page)));
    // The header's facts and the summary table, as the page writer makes them, over every episode now.
    h.info.images = this.imageCount;
    const summary = summariseRun(h.stats, h.errored);
    out.facts = headerFacts(h.info, summary);
    out.summary = summaryTable(summary);
    return out;
  }

  /** verifyRun over a scratch copy of the lines (line numbers the original's); returns its problems not said before, naming the input. */
  private async verify(
    input: LiveInput,
    lines: CompleteLine[],
    on: {
      onErrored?: (e: ErroredEpisodeInfo, where: string) => void;
      onEpisode?: (v: VerifiedEpisode, where: string) => Promise<void>;
    },
  ): Promise<string[]> {
    if (!lines.some((l) => l.bytes.some((b) => b !== 0x20 && b !== 0x09 && b !== 0x0d))) return [];
    // Blank lines before the first keep the scratch copy's line numbers the original's (readJsonl counts every line).
    const copy = join(this.dirFor(input), basename(input.file));
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

  /** The image table index of a view, writing its file the first time. */
  private image(jpeg: Buffer, out: LiveBatch): number {
    const rel = viewFileName(jpeg);
    const hit = this.images.get(rel);
    if (hit !== undefined) return hit;
    this.atomicWrite(rel, jpeg);
    const n = this.imageCount++;
    this.images.set(rel, n);
    out.images.push(rel);
    return n;
  }

  /** One data batch, as the folder form's RunBatches writes it; returns the episodes' rows. */
  private writeBatch(pages: PageEpisode[]): RunRow[] {
    const k = this.batch++;
    this.atomicWrite(`data/text-${k}.js`, dataScript("text", k, `[${pages.map((p) => JSON.stringify(detailText(p))).join(",")}]`));
    this.atomicWrite(`data/episodes-${k}.js`, dataScript("episodes", k, `[${pages.map((p) => scriptJson(p)).join(",")}]`));
    return pages.map((p, at) => ({ ...rowOfEpisode(p), batch: k, at }));
  }

  /** A file appears whole or not at all: a page may ask for it the moment its row arrives. */
  private atomicWrite(rel: string, data: string | Buffer): void {
    const path = join(this.o.root, rel);
    writeFileSync(`${path}.part`, data);
    renameSync(`${path}.part`, path);
  }
}
