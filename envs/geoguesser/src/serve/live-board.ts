/**
 * A served board follows its sweep. The page is built from a mirror of the
 * inputs (each episodes file cut after its last complete line); new complete
 * lines are appended to the mirror as they come, new shard files join it, and
 * the report is computed again from the mirror by the report engine
 * (readBoard -> boardReport, as `georeplay report [--baseline]` does), so the
 * page's numbers are always the report's over the lines it has read. The
 * report section goes to the page as the page's own writer builds it; the
 * new episodes themselves go to the page's list as live chunks
 * (live-board-episodes.ts).
 */
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve } from "node:path";
import { boardReport, readBoard } from "../../replay/board/index.ts";
import type { CompleteLine } from "../../../../replay/io/line-reader.ts";
import { boardReportSection } from "../page/board/sections.ts";
import type { BoardReportUpdate } from "../page/board/live-event.ts";
import { snapshotLines, type TailStart } from "../../../../src/serve/file-tail.ts";

interface Root {
  input: string;
  mirror: string;
}

export class BoardMirror {
  private readonly roots: Root[];

  /** `inputs`: the command line's (sweep folders, episodes files); the mirror of input i is `dir`/i/its name. */
  constructor(inputs: readonly string[], dir: string) {
    this.roots = inputs.map((input, i) => ({ input: resolve(input), mirror: join(dir, String(i), basename(resolve(input))) }));
  }

  /** The inputs to build the page from, in the command line's order. */
  get inputs(): string[] {
    return this.roots.map((r) => r.mirror);
  }

  /** Where an input's episodes file is mirrored. */
  pathOf(file: string): string {
    const abs = resolve(file);
    for (const r of this.roots) {
      const rel = relative(r.input, abs);
      if (rel === "") return r.mirror;
      if (!rel.startsWith("..") && !isAbsolute(rel)) return join(r.mirror, rel);
    }
    throw new Error(`${file} is under none of the served inputs`);
  }

  /** Mirrors a file's complete lines now (or none: a new shard is read from its start); returns where following it starts. */
  start(file: string, whole = true): TailStart | null {
    const copy = this.pathOf(file);
    mkdirSync(dirname(copy), { recursive: true });
    if (whole) return snapshotLines(file, copy);
    writeFileSync(copy, "");
    return null;
  }

  /** Appends a file's new complete lines to its mirror (a file read again from its start replaces its mirror). */
  append(file: string, lines: readonly CompleteLine[], restarted: boolean): void {
    const copy = this.pathOf(file);
    if (restarted) writeFileSync(copy, "");
    if (!lines.length) return;
    const parts: Buffer[] = [];
    for (const l of lines) parts.push(l.bytes, Buffer.from("\n"));
    appendFileSync(copy, Buffer.concat(parts));
  }

  /** A message about the mirror, naming the inputs instead. */
  named(text: string): string {
    let out = text;
    for (const r of this.roots) out = out.split(r.mirror).join(r.input);
    return out;
  }

  /** The board's report over the mirror, as the page shows it. */
  async report(baseline: string | undefined, signal?: AbortSignal): Promise<BoardReportUpdate> {
    const board = await readBoard(this.inputs, { signal });
    const report = boardReport(board, baseline === undefined ? {} : { baseline });
    const notes = board.notes.map((n) => this.named(n));
    return { html: boardReportSection(report, notes, baseline ?? null), tasks: report.tasks, arms: report.arms.map((a) => a.arm), episodes: report.episodes };
  }
}
