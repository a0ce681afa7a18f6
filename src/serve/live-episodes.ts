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
import { verifyRun } from "../../replay/verify/verify.ts";
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
import { trainingRolloutOf, type TrainingRollout } from "../page/training.ts";

/** An episodes event but for its time. */
export type LiveBatch = Omit<EpisodesEvent, "at">;

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
    const out: LiveBatch = { rows: [], imagesFrom: this.imageCount, images: [], problems: [] };
    if (!lines.some((l) => l.bytes.some((b) => b !== 0x20 && b !== 0x09 && b !== 0x0d))) return out;
    // Blank lines before the first keep the scratch copy's line numbers the original's (readJsonl counts every line).
    const copy = join(this.dirFor(input), basename(input.file));
    const parts: Buffer[] = [Buffer.alloc(lines[0].line - 1, 0x0a)];
    for (const l of lines) parts.push(l.bytes, Buffer.from("\n"));
    writeFileSync(copy, Buffer.concat(parts));
    const where = (line: number) => `${sourceName(input.file, this.o.inputs)}:${line}`;
    const pages: PageEpisode[] = [];
    const errored: PageEpisode[] = [];
    const training = new Map<string, TrainingRollout>();
    const report = await verifyRun({
      episodes: [copy],
      tasks: this.o.tasks,
      panos: this.o.panos,
      format: input.format,
      jobs: this.o.jobs,
      pool: input.format === "example" ? undefined : this.o.pool,
      keepImages: true,
      signal: this.o.signal,
      onErrored: (e) => errored.push({ ...erroredPageEpisode(e, this.o.inputs), source: where(e.line) }),
      onEpisode: async (v) => {
        const { page } = await pageEpisode(v, async (_digest, jpeg) => this.image(jpeg, out), this.o.inputs);
        pages.push({ ...page, source: where(v.line) });
        const r = trainingRolloutOf(v, page);
        // Named by the input, not the scratch copy: siblings keep `groups --json`'s order (file, then line).
        if (r) training.set(page.id, { ...r, file: input.file });
      },
    });
    for (const p of [...report.errors, ...report.warnings]) {
      // Messages name the scratch copy: name the input instead.
      const text = p.message.split(copy).join(sourceName(input.file, this.o.inputs));
      const key = `${input.file}\n${text}`;
      if (this.said.has(key)) continue;
      this.said.add(key);
      out.problems.push(text);
    }
    const fresh = [...pages, ...errored].filter((p) => !this.ids.has(p.id));
    for (const p of fresh) {
      this.ids.add(p.id);
      const r = training.get(p.id);
      if (r) this.o.onTraining?.(r);
    }
    for (let i = 0; i < fresh.length; i += RUN_BATCH) out.rows.push(...this.writeBatch(fresh.slice(i, i + RUN_BATCH)));
    return out;
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
