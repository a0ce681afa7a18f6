/**
 * Task index lookup. `--tasks` is either one JSONL file used for every split,
 * or a directory holding `<split>.jsonl` / `<split>_pano_v3.jsonl`. The split
 * name comes from the trace, so it is only ever matched against files that
 * exist in that trusted directory, never joined into a path.
 */
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { GeoreplayError } from "../../../../replay/io/errors.ts";
import { ioReason, readJsonl } from "../../../../replay/io/jsonl.ts";
import { TaskRowSchema, type TaskRow } from "../schema/task.ts";
import { formatIssues } from "../../../../replay/io/issues.ts";

export interface LoadedIndex {
  file: string;
  rows: Map<number, TaskRow>;
  /** Rows that could not be used, as `file:line: problem`. */
  problems: string[];
}

export class TaskIndex {
  private loaded = new Map<string, Promise<LoadedIndex>>();
  private constructor(
    readonly arg: string,
    /** split -> file; "*" when one file serves every split. */
    private readonly files: Map<string, string>,
  ) {}

  static open(arg: string): TaskIndex {
    let st;
    try {
      st = statSync(arg);
    } catch (e) {
      throw new GeoreplayError(`--tasks ${arg}: ${ioReason(e)}`);
    }
    if (st.isFile()) return new TaskIndex(arg, new Map([["*", arg]]));
    if (!st.isDirectory()) throw new GeoreplayError(`--tasks ${arg}: neither a file nor a directory`);
    const files = new Map<string, string>();
    for (const name of readdirSync(arg).sort()) {
      const m = /^(.+?)(_pano_v3)?\.jsonl$/.exec(name);
      if (!m) continue;
      // <split>.jsonl wins over <split>_pano_v3.jsonl when both exist.
      if (!files.has(m[1]) || !m[2]) files.set(m[1], join(arg, name));
    }
    if (files.size === 0) throw new GeoreplayError(`--tasks ${arg}: no <split>.jsonl or <split>_pano_v3.jsonl task index in this directory`);
    return new TaskIndex(arg, files);
  }

  splits(): string[] {
    return [...this.files.keys()];
  }

  /** The task row an episode refers to; throws a specific message when it cannot be found. */
  async lookup(split: string, index: number): Promise<{ row: TaskRow; file: string }> {
    const file = this.files.get("*") ?? this.files.get(split);
    if (!file) {
      throw new Error(`unknown split ${JSON.stringify(split)}: no task index for it in ${this.arg} (found: ${this.splits().join(", ")})`);
    }
    const idx = await this.load(file);
    const row = idx.rows.get(index);
    if (!row) {
      const broken = idx.problems.length ? ` (${idx.problems.length} row(s) of it are invalid and were skipped)` : "";
      throw new Error(`task ${split}/${index} not found in ${file}${broken}`);
    }
    return { row, file };
  }

  /** Problems found in every index file loaded so far. */
  async problems(): Promise<string[]> {
    const all = await Promise.all(this.loaded.values());
    return all.flatMap((l) => l.problems);
  }

  private load(file: string): Promise<LoadedIndex> {
    let p = this.loaded.get(file);
    if (!p) {
      p = loadIndexFile(file);
      this.loaded.set(file, p);
    }
    return p;
  }
}

export async function loadIndexFile(file: string): Promise<LoadedIndex> {
  const rows = new Map<number, TaskRow>();
  const firstLine = new Map<number, number>();
  const problems: string[] = [];
  for await (const item of readJsonl(file)) {
    if (item.kind === "error") {
      problems.push(`${file}:${item.line}: ${item.message}`);
      continue;
    }
    const parsed = TaskRowSchema.safeParse(item.value);
    if (!parsed.success) {
      for (const p of formatIssues(parsed.error, item.value, 1)) problems.push(`${file}:${item.line}: ${p}`);
      continue;
    }
    const row = parsed.data;
    const prev = firstLine.get(row.task_index);
    if (prev !== undefined) {
      problems.push(`${file}:${item.line}: task_index ${row.task_index} duplicates line ${prev}; the first row is used`);
      continue;
    }
    firstLine.set(row.task_index, item.line);
    rows.set(row.task_index, row);
  }
  return { file, rows, problems };
}
