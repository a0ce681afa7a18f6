/** Classifies one parsed JSONL value: a replayable episode, an errored episode, or invalid input. */
import { EpisodeSchema, ErroredEpisodeSchema, type Episode } from "./episode.ts";
import { formatIssues } from "../../../../replay/io/issues.ts";
import { describeValue } from "../../../../replay/io/errors.ts";

/** An episode the environment failed: no turns, only who and what (model_name, task) and the error. */
export interface ErroredRecord {
  kind: "errored";
  episodeId: string;
  error: string;
  /** model_name and task as recorded, when they read (pages list the episode under its arm and task). */
  modelName?: string | null;
  task?: { split: string | null; index: number | null; sample: number | null } | null;
}

export type RecordResult = { kind: "episode"; episode: Episode } | ErroredRecord | { kind: "invalid"; problems: string[] };

export function classifyRecord(value: unknown): RecordResult {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return { kind: "invalid", problems: [`expected a JSON object (one episode), got ${describeValue(value)}`] };
  }
  const obj = value as Record<string, unknown>;
  if ("error" in obj && !("turns" in obj)) {
    const e = ErroredEpisodeSchema.safeParse(obj);
    const id = e.success && e.data.episode_id ? e.data.episode_id : "(no episode_id)";
    const err = typeof obj.error === "string" ? obj.error : JSON.stringify(obj.error);
    const t = e.success ? e.data.task : null;
    return {
      kind: "errored",
      episodeId: id,
      error: firstLine(err ?? "error"),
      modelName: e.success ? (e.data.model_name ?? null) : null,
      task: t ? { split: t.split ?? null, index: t.index ?? null, sample: typeof t.sample === "number" ? t.sample : null } : null,
    };
  }
  if (obj.schema_version !== 2) {
    const got = describeValue(obj.schema_version);
    return {
      kind: "invalid",
      problems: [`schema_version: expected 2, got ${got} (georeplay reads schema 2 episode records)`],
    };
  }
  const parsed = EpisodeSchema.safeParse(obj);
  if (!parsed.success) return { kind: "invalid", problems: formatIssues(parsed.error, obj) };
  return { kind: "episode", episode: parsed.data };
}

function firstLine(s: string): string {
  const line = s.split("\n")[0] ?? "";
  return line.length > 200 ? line.slice(0, 200) + "…" : line;
}
