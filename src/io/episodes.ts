/**
 * Reads episode records from one or more JSONL files as a stream, classifying
 * each line (episode / errored / invalid) with its file and line number.
 */
import { readJsonl } from "./jsonl.ts";
import { classifyRecord, type RecordResult } from "../schema/record.ts";

export type EpisodeRecord = { file: string; line: number; bytes: number } & (RecordResult | { kind: "unreadable"; message: string });

export async function* readEpisodeRecords(files: string[]): AsyncGenerator<EpisodeRecord> {
  for (const file of files) {
    for await (const item of readJsonl(file)) {
      if (item.kind === "error") yield { file, line: item.line, bytes: item.bytes, kind: "unreadable", message: item.message };
      else yield { file, line: item.line, bytes: item.bytes, ...classifyRecord(item.value) };
    }
  }
}

/** One line for a record that cannot be used: `file:line: problem`. */
export function recordProblem(r: EpisodeRecord): string | null {
  if (r.kind === "unreadable") return `${r.file}:${r.line}: ${r.message}`;
  if (r.kind === "invalid") return `${r.file}:${r.line}: ${r.problems.join("; ")}`;
  return null;
}
