/** Shared test paths and a runner for the built CLI (tests drive the real program). */
import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
export const FIXTURES = join(ROOT, "test", "fixtures");
export const TRIESTE = join(FIXTURES, "trieste");
export const MIXED = join(FIXTURES, "mixed");
export const CLI = join(ROOT, "dist", "src", "cli.js");

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): CliResult {
  if (process.env.GEOREPLAY_TEST_TIER === "unit") throw new Error("test/unit/ runs without the build: a test that runs the CLI belongs in test/integration/");
  const r: SpawnSyncReturns<string> = spawnSync(process.execPath, [CLI, ...args], {
    cwd: opts.cwd ?? ROOT,
    env: { ...process.env, ...opts.env },
    encoding: "utf8",
    timeout: opts.timeoutMs ?? 300_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The Trieste episode's frames run with its in-between frames deferred (what `render` hands the painter), written under `publicDir`. */
export async function triesteDeferred(publicDir: string): Promise<import("../envs/geoguesser/replay/frames/frames.ts").FramesResult> {
  const { generateFrames } = await import("../envs/geoguesser/replay/frames/frames.ts");
  return generateFrames({
    episodes: [join(TRIESTE, "episodes.jsonl")],
    episode: "#1",
    tasks: join(TRIESTE, "tasks.jsonl"),
    panos: join(TRIESTE, "panos"),
    jobs: 1,
    out: join(publicDir, "deferred"),
    publicDir,
    deferInBetween: true,
  });
}

/** Keys sorted all the way down (to compare JSON whatever order its writer used: zod's check writes keys in the schema's order). */
export const sortedKeys = (x: unknown): unknown =>
  Array.isArray(x)
    ? x.map(sortedKeys)
    : x && typeof x === "object"
      ? Object.fromEntries(
          Object.keys(x)
            .sort()
            .map((k) => [k, sortedKeys((x as Record<string, unknown>)[k])]),
        )
      : x;
