/**
 * `georeplay serve` on a crops run (the seam's `serve` hook; the core follows the files and serves:
 * src/serve/env-serve.ts). The page is the crops page's folder form (envs/crops/src/page), written
 * empty; every record reaches it as an event, those there at start as those appended later, so a
 * page that opens at any time has them all by catching up from the event log. Each batch of lines
 * is verified as `verify` does (every view and thumbnail re-rendered and hashed, every rule
 * re-applied) before it is shown; findings are flagged as in the page. A bad line is one problem
 * naming file, line and field (the rest of its batch is shown). The board's numbers are
 * `georeplay report`'s over a private copy of the records shown so far.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import type { CompleteLine } from "../../../../replay/io/line-reader.ts";
import { GeoreplayError } from "../../../../replay/io/errors.ts";
import { viewFileName } from "../../../../src/page/output/folder.ts";
import type { LivePage, LivePageOptions, LiveUpdate } from "../../../../src/serve/live-page.ts";
import { datasetFor } from "../../replay/inputs.ts";
import { verifyCrops, type CropsRecordSeen, type CropsVerifyReport } from "../../replay/verify.ts";
import { cropsReport, type CropsReport } from "../../replay/report.ts";
import { pageFiles } from "../page/build.ts";
import { cropsDetailOf, cropsRowOf, type CropsDetail, type CropsRow, type VerifySummary } from "../page/model.ts";
import { boardSection, cropsPageHtml, facts } from "../page/template.ts";
import type { CropsLiveEvent } from "../page/live-event.ts";

/** Records verified per event at most (a crops record costs tens of ms: a few seconds of a backlog each). */
const LINES_PER_BATCH = 32;
/** The board is `report` over every record so far: at most once a second and a tenth of the time. */
const BOARD_EVERY_MS = 1000;
const BOARD_SHARE = 10;

/** A batch's records verified, not yet on the page (a batch that fails is verified again line by line). */
interface Checked {
  seen: CropsRecordSeen[];
  report: CropsVerifyReport;
}

const zero = () => ({ checked: 0, ok: 0 });
const EMPTY_REPORT: CropsReport = {
  env: "crops",
  episodes: 0,
  arms: [],
  paired: null,
  tasks: [],
  unscored: 0,
  unscored_by_arm: [],
  files: [],
  torn_lines: 0,
  torn: [],
};

/** What readJsonl adds to an error on a file's last line (replay/io/jsonl.ts). */
const TORN_GUESS = / \(the last line looks truncated: was the file still being written\?\)$/;

const isBlank = (b: Buffer) => !b.some((c) => c !== 0x20 && c !== 0x09 && c !== 0x0d);

/** The episode id of a line, when it is a JSON object with one (a re-read file's records are recognised by it). */
function episodeIdOf(bytes: Buffer): string | null {
  try {
    const v = JSON.parse(bytes.toString("utf8")) as { episode_id?: unknown } | null;
    return v !== null && typeof v === "object" && typeof v.episode_id === "string" ? v.episode_id : null;
  } catch {
    return null;
  }
}

export async function cropsLivePage(o: LivePageOptions): Promise<LivePage> {
  const files = pageFiles(o.inputs);
  const dataset = datasetFor(files, o.dataset);
  const page = new CropsLive(o, files, dataset);
  page.writeShell();
  return page;
}

class CropsLive implements LivePage {
  readonly linesPerBatch = LINES_PER_BATCH;
  private readonly verify: VerifySummary = {
    episodes: 0,
    checked: 0,
    match: 0,
    mismatch: 0,
    counts: { thumbnails: zero(), box_mappings: zero(), transitions: zero(), shaping: zero(), outcomes: zero(), advantages: zero() },
    findings: 0,
  };
  private report: CropsReport = EMPTY_REPORT;
  /** Episode ids shown from each file since it was last read from its start, and before that (a re-read never shows one twice). */
  private readonly shown = new Map<string, Set<string>>();
  private readonly shownBefore = new Map<string, Set<string>>();
  /** Times each episode id was shown: a repeat (the same record in two runs) gets its own address, `<id>~2`, as in `page`. */
  private readonly repeats = new Map<string, number>();
  /** Image files written (sha256 or image_id -> path in the page folder) and those the pages were sent. */
  private readonly written = new Map<string, string>();
  private readonly announced = new Set<string>();
  private readonly mirrors = new Map<string, string>();
  private readonly said = new Set<string>();
  private boardOwed = false;
  private boardDue = 0;
  private boardMs = 0;
  private initial = true;

  constructor(
    private readonly o: LivePageOptions,
    readonly files: string[],
    private readonly dataset: string,
  ) {
    mkdirSync(join(o.root, "views"), { recursive: true });
    mkdirSync(o.scratch, { recursive: true });
  }

  writeShell(): void {
    const title = this.o.title ?? `${this.o.inputs.map((f) => basename(f)).join(", ")} · georeplay`;
    const html = cropsPageHtml(
      title,
      { rows: [], details: [], detailChunk: null, report: EMPTY_REPORT, verify: this.verify },
      { images: {}, pictures: {} },
      "folder",
    );
    writeFileSync(join(this.o.root, "index.html"), html);
  }

  async append(file: string, lines: CompleteLine[], restarted: boolean): Promise<LiveUpdate> {
    const mirror = this.mirrorOf(file);
    if (restarted) {
      const before = this.shownBefore.get(file) ?? new Set<string>();
      for (const id of this.shown.get(file) ?? []) before.add(id);
      this.shownBefore.set(file, before);
      this.shown.set(file, new Set());
      // The report counts the file as it is now: its old lines go.
      writeFileSync(mirror, "");
      this.boardOwed = true;
    }
    const fresh: CompleteLine[] = [];
    for (const l of lines) {
      if (isBlank(l.bytes)) continue;
      const id = episodeIdOf(l.bytes);
      // Already on the page (the file was read again from its start): counted again by the board, not shown twice.
      if (id !== null && this.shownBefore.get(file)?.has(id)) {
        appendFileSync(mirror, Buffer.concat([l.bytes, Buffer.from("\n")]));
        this.shown.get(file)?.add(id);
      } else fresh.push(l);
    }
    const problems: string[] = [];
    const checked: Checked[] = [];
    if (fresh.length) {
      try {
        checked.push(await this.check(file, fresh));
      } catch (e) {
        if (!(e instanceof GeoreplayError) || this.o.signal.aborted) throw e;
        // One bad line: each line alone, so the others are shown and the bad one is named.
        for (const l of fresh) {
          try {
            checked.push(await this.check(file, [l]));
          } catch (e1) {
            if (!(e1 instanceof GeoreplayError) || this.o.signal.aborted) throw e1;
            problems.push(e1.message);
          }
        }
      }
    }
    const byLine = new Map(fresh.map((l) => [l.line, l.bytes]));
    const event = this.emptyEvent(problems.filter((p) => !this.said.has(p) && this.said.add(p)));
    for (const c of checked) {
      this.count(c);
      for (const seen of c.seen) {
        this.show(seen, event);
        appendFileSync(mirror, Buffer.concat([byLine.get(seen.line) ?? Buffer.alloc(0), Buffer.from("\n")]));
      }
    }
    if (event.rows.length) this.boardOwed = true;
    event.summary = await this.board(event.problems);
    if (event.rows.length || event.summary || restarted) event.facts = this.facts();
    return this.update(event);
  }

  opened(): void {
    this.initial = false;
  }

  async settle(): Promise<LiveUpdate> {
    const event = this.emptyEvent([]);
    event.summary = await this.board(event.problems);
    if (event.summary) event.facts = this.facts();
    return this.update(event);
  }

  private emptyEvent(problems: string[]): CropsLiveEvent {
    return { rows: [], details: [], images: {}, pictures: {}, problems, facts: "", summary: "", initial: this.initial, at: new Date().toISOString() };
  }

  private update(event: CropsLiveEvent): LiveUpdate {
    const any = event.rows.length || event.problems.length || event.summary || event.facts;
    return { events: any ? [{ type: "episodes", data: JSON.stringify(event) }] : [], problems: event.problems };
  }

  /**
   * verifyCrops over a scratch copy of the lines (blank lines before the first keep the file's line
   * numbers); messages name the file, not the copy. Throws the first bad line's one-line error.
   */
  private async check(file: string, lines: CompleteLine[]): Promise<Checked> {
    const dir = join(this.o.scratch, "batch", String(this.files.indexOf(file)));
    mkdirSync(dir, { recursive: true });
    const copy = join(dir, basename(file));
    const parts: Buffer[] = [Buffer.alloc(lines[0].line - 1, 0x0a)];
    for (const l of lines) parts.push(l.bytes, Buffer.from("\n"));
    writeFileSync(copy, Buffer.concat(parts));
    const seen: CropsRecordSeen[] = [];
    try {
      const report = await verifyCrops({
        inputs: [copy],
        dataset: this.dataset,
        signal: this.o.signal,
        onImage: (sha, jpeg) => this.image(sha, jpeg),
        onRecord: (s) => void seen.push({ ...s, file }),
      });
      return { seen, report };
    } catch (e) {
      // The copy's lines are complete (their newline was read): not the torn last line readJsonl suspects at a copy's end.
      if (e instanceof GeoreplayError) throw new GeoreplayError(e.message.split(copy).join(file).replace(TORN_GUESS, ""));
      throw e;
    }
  }

  /** A checked batch's numbers, added to the header's (per record: a training group's advantages are `verify`'s and `groups`', over whole groups). */
  private count({ seen, report }: Checked): void {
    const v = this.verify;
    v.episodes += report.episodes;
    v.checked += report.checked;
    v.match += report.match;
    v.mismatch += report.mismatch;
    for (const k of ["thumbnails", "box_mappings", "transitions", "shaping", "outcomes"] as const) {
      v.counts[k].checked += report.counts[k].checked;
      v.counts[k].ok += report.counts[k].ok;
    }
    v.findings += seen.reduce((n, s) => n + s.findings.length, 0);
  }

  /** A verified record's row and detail into the event, with the images it shows that the pages were not sent yet. */
  private show(seen: CropsRecordSeen, event: CropsLiveEvent): void {
    const id = seen.rec.episode_id;
    this.shown.get(seen.file)?.add(id);
    const n = (this.repeats.get(id) ?? 0) + 1;
    this.repeats.set(id, n);
    const row: CropsRow = cropsRowOf(seen, n === 1 ? id : `${id}~${n}`);
    const detail: CropsDetail = cropsDetailOf(seen, row);
    event.rows.push(row);
    event.details.push(detail);
    for (const r of seen.rendered)
      for (const sha of [r.view, r.thumb]) {
        const rel = this.written.get(sha);
        if (rel && !this.announced.has(sha) && this.announced.add(sha)) event.images[sha] = rel;
      }
    const pic = `image:${seen.task.image_id}`;
    if (!this.announced.has(pic)) {
      // The image the boxes are drawn over: the dataset's file (tasks.jsonl's `file`), never a path in a trace.
      const png = readFileSync(join(this.dataset, seen.task.file));
      event.pictures[seen.task.image_id] = this.write(png);
      this.announced.add(pic);
    }
  }

  /** A re-rendered view or thumbnail, written once as views/<sha256>.jpg (the exact bytes the page shows). */
  private image(sha: string, jpeg: Buffer): void {
    if (!this.written.has(sha)) this.written.set(sha, this.write(jpeg));
  }

  /** A file of the page, whole or not at all (a page may ask for it the moment its event arrives). */
  private write(bytes: Buffer): string {
    const rel = viewFileName(bytes);
    const path = join(this.o.root, rel);
    if (!existsSync(path)) {
      writeFileSync(`${path}.part`, bytes);
      renameSync(`${path}.part`, path);
    }
    return rel;
  }

  private facts(): string {
    return facts({ rows: [], details: [], detailChunk: null, report: this.report, verify: this.verify });
  }

  /** The board's tables (`report` over the records shown so far) when owed and due, else "". */
  private async board(problems: string[]): Promise<string> {
    if (!this.boardOwed || Date.now() < this.boardDue || this.verify.episodes === 0) return "";
    const t0 = performance.now();
    const mirrors = [...this.mirrors.values()];
    let report: CropsReport;
    try {
      report = await cropsReport(mirrors, { baseline: this.o.baseline, signal: this.o.signal });
    } catch (e) {
      if (!(e instanceof GeoreplayError) || this.o.signal.aborted) throw e;
      const text = `the board: ${e.message.startsWith("--baseline") ? `${e.message}; not paired until it is` : e.message}`;
      if (!this.said.has(text) && this.said.add(text)) problems.push(text);
      if (this.o.baseline === undefined) return "";
      try {
        report = await cropsReport(mirrors, { signal: this.o.signal });
      } catch {
        return "";
      }
    }
    this.report = report;
    this.boardOwed = false;
    this.boardMs = performance.now() - t0;
    this.boardDue = Date.now() + Math.max(BOARD_EVERY_MS, BOARD_SHARE * this.boardMs);
    return boardBody(boardSection(report));
  }

  /** Where the board's copy of a file's shown records is. */
  private mirrorOf(file: string): string {
    let m = this.mirrors.get(file);
    if (m) return m;
    const dir = join(this.o.scratch, "board", String(this.mirrors.size));
    mkdirSync(dir, { recursive: true });
    m = join(dir, basename(file));
    writeFileSync(m, "");
    this.mirrors.set(file, m);
    this.shown.set(file, new Set());
    return m;
  }
}

/** The board section's contents after its heading: what a live page puts under the heading it has. */
export function boardBody(section: string): string {
  const from = section.indexOf("</h3>");
  const to = section.lastIndexOf("</section>");
  return from < 0 || to < 0 ? "" : section.slice(from + "</h3>".length, to);
}
