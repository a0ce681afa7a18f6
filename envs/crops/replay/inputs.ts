/**
 * Which files a crops run is, and where its dataset is. A run is a folder (its episodes.jsonl
 * and rollouts*.jsonl) or those files; the dataset defaults to the run folder's parent when
 * that holds tasks.jsonl. `recordEnv` checks each record of a crops run is one.
 */
import { existsSync, readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { describeValue, GeoreplayError, fileError } from "../../../replay/io/errors.ts";
import { statInput } from "../../../replay/io/jsonl.ts";

/** The run's record files: a file as given, a folder's episodes.jsonl and rollouts*.jsonl (sorted). */
export function runFiles(paths: readonly string[]): string[] {
  const out: string[] = [];
  for (const p of paths) {
    if (!statInput(p).isDirectory()) {
      out.push(p);
      continue;
    }
    const names = readdirSync(p)
      .filter((n) => n === "episodes.jsonl" || /^rollouts.*\.jsonl$/.test(n))
      .sort();
    if (!names.length) throw fileError(p, "no episodes.jsonl or rollouts*.jsonl in this folder");
    out.push(...names.map((n) => join(p, n)));
  }
  return out;
}

/** --dataset, or the first run file's folder's parent when it holds tasks.jsonl. */
export function datasetFor(files: readonly string[], given?: string): string {
  if (given) {
    if (!existsSync(join(given, "tasks.jsonl")))
      throw new GeoreplayError(`--dataset ${given}: no tasks.jsonl in this folder (a crops dataset holds tasks.jsonl, gt.jsonl and images/)`);
    return given;
  }
  const parent = dirname(dirname(resolve(files[0])));
  if (existsSync(join(parent, "tasks.jsonl"))) return parent;
  throw new GeoreplayError(
    `${files[0]}: a crops run needs its dataset folder (tasks.jsonl, gt.jsonl, images/): pass --dataset DIR (the run folder's parent ${parent} has no tasks.jsonl)`,
  );
}

export type RecordEnv = "crops" | "geoguesser";

/**
 * A record's environment: "crops" for `env: "crops"`; GeoGuesser records carry no env or its
 * server's URL. Any other value is an input error naming file, line and field.
 */
export function recordEnv(value: unknown, file: string, line: number): RecordEnv {
  const env = value !== null && typeof value === "object" ? (value as { env?: unknown }).env : undefined;
  if (env === "crops") return "crops";
  if (env === undefined || env === null || (typeof env === "string" && /^(https?:\/\/|geoguess)/i.test(env))) return "geoguesser";
  throw new GeoreplayError(`${file}:${line}: env: expected "crops" (or no env: a GeoGuesser record), got ${describeValue(env)}`);
}
