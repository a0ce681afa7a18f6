/**
 * Which environment wrote a recording: the `env` of its first record (records without one are
 * GeoGuesser's, which predates the field). Reads one line of one file; the caller maps the name
 * to an environment and names an unknown one by file and line.
 */
import { readJsonl } from "../io/jsonl.ts";
import { findSweepFiles } from "./sweep-files.ts";
import { rolloutFilesIn } from "./inputs.ts";
import { statSync } from "node:fs";

export interface RecordEnv {
  /** The recorded `env`, or null when the first record has none. */
  env: unknown;
  file: string;
  line: number;
}

/** The first record's env among the inputs (files, run folders, sweep folders); null when no record was found. */
export async function peekEnv(inputs: readonly string[]): Promise<RecordEnv | null> {
  for (const input of inputs) {
    let files: string[];
    try {
      files = statSync(input).isDirectory() ? [...rolloutFilesIn(input), ...findSweepFiles([input]).files] : [input];
    } catch {
      continue; // the command's own reader names a missing input
    }
    for (const file of files) {
      try {
        for await (const item of readJsonl(file)) {
          if (item.kind !== "value") continue;
          const v = item.value;
          const env = typeof v === "object" && v !== null && !Array.isArray(v) ? ((v as Record<string, unknown>).env ?? null) : null;
          return { env, file, line: item.line };
        }
      } catch {
        continue; // unreadable here: the command's own reader says why, with the line
      }
    }
  }
  return null;
}
