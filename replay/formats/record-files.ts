/**
 * The record files behind a command's inputs, for telling which environment wrote them: a file as
 * given; a folder's rollouts*.jsonl and every episodes.jsonl under it (a sweep). Unreadable inputs
 * yield nothing here: the environment's own reader names them, with the reason.
 */
import { statSync } from "node:fs";
import { findSweepFiles } from "./sweep-files.ts";
import { rolloutFilesIn } from "./inputs.ts";

export function recordFilesOf(inputs: readonly string[]): string[] {
  const out: string[] = [];
  for (const input of inputs) {
    try {
      out.push(...(statSync(input).isDirectory() ? [...rolloutFilesIn(input), ...findSweepFiles([input]).files] : [input]));
    } catch {
      continue;
    }
  }
  return out;
}
