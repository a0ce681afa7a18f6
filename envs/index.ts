/**
 * The registry of environments, keyed by the records' `env`: the one place the core reaches an
 * environment. Records without `env` (or with a GeoGuesser server's URL there) are GeoGuesser's;
 * any other value is named by file, line and field. Each environment loads only when its runs
 * are read, so `--help` and the other environment's runs never load it.
 */
import { existsSync, statSync } from "node:fs";
import { GeoreplayError, describeValue } from "../replay/io/errors.ts";
import { readJsonl } from "../replay/io/jsonl.ts";
import { recordFilesOf } from "../replay/formats/record-files.ts";
import type { Environment } from "./environment.ts";

export type { Environment } from "./environment.ts";

const LOADERS = {
  geoguesser: async () => (await import("./geoguesser/environment.ts")).geoguesser,
  crops: async () => (await import("./crops/environment.ts")).crops,
} satisfies Record<string, () => Promise<Environment>>;

export type EnvName = keyof typeof LOADERS;
export const ENV_NAMES = Object.keys(LOADERS) as EnvName[];

/** A record's environment by its `env`; an unknown one is an input error naming file, line and field. */
export function envOfRecord(value: unknown, file: string, line: number): EnvName {
  const env = value !== null && typeof value === "object" && !Array.isArray(value) ? (value as { env?: unknown }).env : undefined;
  if (env === undefined || env === null || (typeof env === "string" && /^(https?:\/\/|geoguess)/i.test(env))) return "geoguesser";
  if (typeof env === "string" && Object.hasOwn(LOADERS, env)) return env as EnvName;
  throw new GeoreplayError(
    `${file}:${line}: env: expected one of ${ENV_NAMES.map((n) => JSON.stringify(n)).join(", ")} (or no env: a GeoGuesser record), got ${describeValue(env)}`,
  );
}

/** The environment of a file's first record; null when it has none to read (the environment's own reader then says why). */
async function fileEnv(file: string): Promise<EnvName | null> {
  if (!existsSync(file) || !statSync(file).isFile()) return null;
  for await (const item of readJsonl(file)) return item.kind === "value" ? envOfRecord(item.value, file, item.line) : null;
  return null;
}

/**
 * The one environment the inputs were recorded in (by each record file's first record). Inputs of
 * two environments are an input error: each has its own dataset and numbers. No readable record:
 * GeoGuesser's, whose readers name what is wrong with the input.
 */
export async function envOfInputs(inputs: readonly string[]): Promise<EnvName> {
  let first: { file: string; env: EnvName } | null = null;
  for (const file of recordFilesOf(inputs)) {
    const env = await fileEnv(file);
    if (env === null) continue;
    if (first && env !== first.env)
      throw new GeoreplayError(`${file}: a ${env} run, but ${first.file} is a ${first.env} run: give one environment's runs at a time`);
    first ??= { file, env };
  }
  return first?.env ?? "geoguesser";
}

export const loadEnvironment = (name: EnvName): Promise<Environment> => LOADERS[name]();

/** The environment that recorded the inputs, loaded. */
export async function environmentOf(inputs: readonly string[]): Promise<Environment> {
  return loadEnvironment(await envOfInputs(inputs));
}
