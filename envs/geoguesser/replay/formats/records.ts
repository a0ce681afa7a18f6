/**
 * One stream of episode records from every kind of input, each turned into
 * the internal episode model by its format's zod schema. Downstream code sees
 * the model plus two facts about the record: how its images are hashed
 * (`scheme`) and, for example-rollout folders, the recorded image files.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { readJsonl } from "../../../../replay/io/jsonl.ts";
import { describeValue } from "../../../../replay/io/errors.ts";
import { classifyRecord, type ErroredRecord } from "../schema/record.ts";
import { formatIssues } from "../../../../replay/io/issues.ts";
import type { Episode } from "../schema/episode.ts";
import type { HashScheme } from "../../../../replay/render/hash.ts";
import { resolveInputs, type InputFormat, type Source } from "../../../../replay/formats/inputs.ts";
import { TrainRolloutSchema, trainToEpisode } from "./train.ts";
import { ExampleEpisodeSchema, ExampleSummarySchema, exampleToEpisode, type ExampleSummary, type RecordedImage } from "./example.ts";

export type RecordFormat = "eval" | "train" | "example";

export type EpisodeRecord = { file: string; line: number; bytes: number } & (
  | {
      kind: "episode";
      episode: Episode;
      format: RecordFormat;
      /** How recorded view digests are computed; null when the record has none (example-rollout). */
      scheme: HashScheme | null;
      /** Example-rollout: the image files that are the record. */
      images?: RecordedImage[];
      /** Sweep folder the file came from, if any. */
      sweep?: string | null;
    }
  | ErroredRecord
  | { kind: "invalid"; problems: string[] }
  | { kind: "unreadable"; message: string }
);

export async function* readEpisodeRecords(inputs: string[] | Source[], opts: { format?: InputFormat } = {}): AsyncGenerator<EpisodeRecord> {
  const sources = typeof inputs[0] === "string" || inputs.length === 0 ? await resolveInputs(inputs as string[], opts.format) : (inputs as Source[]);
  for (const src of sources) {
    if (src.format === "example") yield* readExample(src.dir, src.file);
    else yield* readJsonlRecords(src.file, src.format, src.sweep);
  }
}

async function* readJsonlRecords(file: string, format: "eval" | "train", sweep: string | null): AsyncGenerator<EpisodeRecord> {
  for await (const item of readJsonl(file)) {
    const at = { file, line: item.line, bytes: item.bytes };
    if (item.kind === "error") {
      yield { ...at, kind: "unreadable", message: item.message };
      continue;
    }
    if (format === "eval") {
      const r = classifyRecord(item.value);
      yield r.kind === "episode" ? { ...at, kind: "episode", episode: r.episode, format, scheme: "sha256", sweep } : { ...at, ...r };
      continue;
    }
    if (item.value === null || typeof item.value !== "object" || Array.isArray(item.value)) {
      yield { ...at, kind: "invalid", problems: [`expected a JSON object (one rollout), got ${describeValue(item.value)}`] };
      continue;
    }
    const parsed = TrainRolloutSchema.safeParse(item.value);
    if (!parsed.success) yield { ...at, kind: "invalid", problems: formatIssues(parsed.error, item.value) };
    else yield { ...at, kind: "episode", episode: trainToEpisode(parsed.data, file, item.line), format, scheme: "sha256-b64-16" };
  }
}

async function* readExample(dir: string, file: string): AsyncGenerator<EpisodeRecord> {
  let summary: ExampleSummary | null = null;
  try {
    const s = ExampleSummarySchema.safeParse(JSON.parse(readFileSync(join(dir, "summary.json"), "utf8")));
    if (s.success) summary = s.data;
  } catch {
    /* summary.json is optional: the model name then falls back to the folder name */
  }
  // Two episodes of one task overwrite each other's image files: only the last one's are its own.
  const lastLineOfTask = new Map<number, number>();
  for await (const item of readJsonl(file)) {
    if (item.kind === "value" && item.value && typeof item.value === "object") {
      const t = (item.value as { task_index?: unknown }).task_index;
      if (typeof t === "number") lastLineOfTask.set(t, item.line);
    }
  }
  for await (const item of readJsonl(file)) {
    const at = { file, line: item.line, bytes: item.bytes };
    if (item.kind === "error") {
      yield { ...at, kind: "unreadable", message: item.message };
      continue;
    }
    const parsed = ExampleEpisodeSchema.safeParse(item.value);
    if (!parsed.success) {
      yield { ...at, kind: "invalid", problems: formatIssues(parsed.error, item.value) };
      continue;
    }
    const overwritten = lastLineOfTask.get(parsed.data.task_index) !== item.line;
    const { episode, images } = exampleToEpisode(parsed.data, dir, summary, item.line, overwritten);
    yield { ...at, kind: "episode", episode, format: "example", scheme: null, images };
  }
}

/** One line for a record that cannot be used: `file:line: problem`. */
export function recordProblem(r: EpisodeRecord): string | null {
  if (r.kind === "unreadable") return `${r.file}:${r.line}: ${r.message}`;
  if (r.kind === "invalid") return `${r.file}:${r.line}: ${r.problems.join("; ")}`;
  return null;
}
