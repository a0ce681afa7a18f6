/**
 * What the user pointed georeplay at: eval `episodes.jsonl` files, GRPO
 * `rollouts*.jsonl` files or a training run's folder of them (every rank),
 * example-rollout folders, or sweep folders (their
 * episodes files found by sweep-files.ts, the rule the board uses too). Detected from the content,
 * overridable with --format.
 */
import { readdirSync, statSync, existsSync } from "node:fs";
import { join, relative, basename, dirname } from "node:path";
import { GeoreplayError, fileError } from "../io/errors.ts";
import { readJsonl, statInput } from "../io/jsonl.ts";
import { episodeFilesUnder } from "./sweep-files.ts";

export const FORMATS = ["eval", "train", "example", "sweep"] as const;
export type InputFormat = (typeof FORMATS)[number];

export type Source =
  { format: "eval" | "train"; file: string; size: number; sweep: string | null } | { format: "example"; dir: string; file: string; size: number; sweep: null };

/** A training run's folder: its rollouts*.jsonl (one per rank), in name order; [] when it holds none. */
export function rolloutFilesIn(dir: string): string[] {
  return readdirSync(dir)
    .filter((n) => /^rollouts.*\.jsonl$/.test(n))
    .sort()
    .map((n) => join(dir, n));
}

export async function resolveInputs(paths: string[], override?: InputFormat): Promise<Source[]> {
  if (paths.length === 0) throw new GeoreplayError("no input given (an episodes.jsonl, rollouts*.jsonl, example-rollout folder or sweep folder)");
  const out: Source[] = [];
  for (const p of paths) out.push(...(await resolveOne(p, override)));
  return out;
}

async function resolveOne(p: string, override?: InputFormat): Promise<Source[]> {
  const st = statInput(p);
  if (st.isDirectory()) {
    const trace = join(p, "trace.jsonl");
    if (override === "example" || (!override && existsSync(trace))) {
      if (!existsSync(trace)) throw fileError(p, "not an example-rollout folder (no trace.jsonl)");
      return [{ format: "example", dir: p, file: trace, size: statInput(trace).size, sweep: null }];
    }
    const ranks = override === undefined || override === "train" ? rolloutFilesIn(p) : [];
    if (ranks.length > 0) return ranks.map((file) => ({ format: "train" as const, file, size: statSync(file).size, sweep: null }));
    if (override === "train") throw fileError(p, "is a directory without rollouts*.jsonl files");
    if (override && override !== "sweep") throw fileError(p, `is a directory; --format ${override} expects a file`);
    const { files } = episodeFilesUnder(p);
    if (files.length === 0) {
      throw new GeoreplayError(
        `${p}: is a directory, but neither an example-rollout folder (no trace.jsonl), a training run (no rollouts*.jsonl) ` +
          `nor a sweep (no **/episodes.jsonl outside _quarantined/)`,
      );
    }
    return files.map((file) => ({ format: "eval" as const, file, size: statSync(file).size, sweep: p }));
  }
  if (!st.isFile()) throw fileError(p, "not a regular file");
  const format = override ?? (await detectFileFormat(p));
  if (format === "example") return [{ format: "example", dir: dirname(p), file: p, size: st.size, sweep: null }];
  if (format === "sweep") throw fileError(p, "--format sweep expects a folder");
  return [{ format, file: p, size: st.size, sweep: null }];
}

/** Reads the first record and decides; a record that fits no format says what ruled each one out. */
export async function detectFileFormat(file: string): Promise<Exclude<InputFormat, "sweep">> {
  let first: unknown = undefined;
  for await (const item of readJsonl(file)) {
    if (item.kind === "value") first = item.value;
    break;
  }
  const name = basename(file);
  if (first === undefined || first === null || typeof first !== "object" || Array.isArray(first)) {
    // Nothing to read the format from: go by the file name; the reader then reports each bad line.
    if (/^rollouts.*\.jsonl$/.test(name)) return "train";
    if (name === "trace.jsonl") return "example";
    return "eval";
  }
  const o = first as Record<string, unknown>;
  if ("schema_version" in o || ("episode_id" in o && ("turns" in o || "error" in o))) return "eval";
  if ("run" in o && "step" in o && "turns" in o) return "train";
  if ("trace" in o && "task_index" in o) return "example";
  const has = (k: string) => (k in o ? "" : k);
  const missing = (ks: string[]) => ks.map(has).filter(Boolean).join(", ");
  throw new GeoreplayError(
    `${relative(process.cwd(), file) || file}:1: matches no recording format georeplay reads:\n` +
      `  eval episode (schema 2): no schema_version (missing: ${missing(["schema_version", "episode_id", "turns"]) || "none"})\n` +
      `  GRPO training rollout: missing ${missing(["run", "step", "turns"]) || "nothing"}\n` +
      `  example-rollout trace: missing ${missing(["trace", "task_index"]) || "nothing"}\n` +
      `  (fields present: ${Object.keys(o).slice(0, 12).join(", ") || "none"}; use --format to say which it is)`,
  );
}
