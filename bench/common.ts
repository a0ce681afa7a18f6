/** Shared bits of the benchmarks: paths, the reference tools, timing, and generated runs. */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, statSync, symlinkSync } from "node:fs";
import os from "node:os";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

// dist/bench/common.js -> repo root
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const REFERENCE = join(ROOT, "bench", "reference");
export const CACHE = join(ROOT, "bench", ".cache");
export const PYTHON = process.env.GEOREPLAY_PYTHON ?? "/usr/bin/python3";
export const MIXED = join(ROOT, "test", "fixtures", "mixed");

export function hasReferencePython(): boolean {
  return spawnSync(PYTHON, ["-c", "import numpy, PIL"], { stdio: "ignore" }).status === 0;
}

export function run(cmd: string, args: string[], cwd = ROOT): { code: number | null; stdout: string; stderr: string; ms: number } {
  const t0 = performance.now();
  const r = spawnSync(cmd, args, { cwd, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, ms: performance.now() - t0 };
}

/**
 * A run recorded by the reference's make_traces.py (seeded random policy over the mixed tasks),
 * generated once into bench/.cache and reused.
 */
export function generatedRun(name: string, episodes: number, seed: number): { dir: string; episodes: string; tasks: string; panos: string } {
  const dir = join(CACHE, name);
  const out = { dir, episodes: join(dir, "episodes.jsonl"), tasks: join(MIXED, "tasks.jsonl"), panos: join(dir, "panos") };
  if (existsSync(out.episodes)) return out;
  mkdirSync(dir, { recursive: true });
  process.stderr.write(`bench: generating ${name} (${episodes} episodes) with make_traces.py ...\n`);
  const r = run(
    PYTHON,
    [
      join(REFERENCE, "make_traces.py"),
      "--look",
      join(REFERENCE, "look_reference.py"),
      "--tasks",
      out.tasks,
      "--out",
      dir,
      "--random",
      String(episodes),
      "--seed",
      String(seed),
      "--variety",
    ],
    REFERENCE,
  );
  if (r.code !== 0) throw new Error(`make_traces.py failed: ${r.stderr}`);
  return out;
}

export const fmt = (x: number, d = 1) => x.toFixed(d);

/** The 1, 5 and 15 minute load averages: the bench prints them, the machine may be shared. */
export const loadavg = (): string =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(" ");

/**
 * "Today" for a side-by-side: the CLI built from a pinned commit of this
 * repository (a git worktree in bench/.cache, this checkout's node_modules
 * linked in, compiled once and reused). Null with the reason when it cannot
 * be had (no git history, as in an installed package).
 */
export function baselineCli(commit: string): { cli: string } | { why: string } {
  const dir = join(CACHE, `baseline-${commit.slice(0, 12)}`);
  const cli = join(dir, "dist", "src", "cli.js");
  if (existsSync(cli)) return { cli };
  if (run("git", ["cat-file", "-e", `${commit}^{commit}`]).code !== 0) return { why: `commit ${commit} is not in this checkout's history` };
  mkdirSync(CACHE, { recursive: true });
  process.stderr.write(`bench: building the baseline ${commit.slice(0, 12)} into ${dir} ...\n`);
  run("git", ["worktree", "remove", "--force", dir]);
  const add = run("git", ["worktree", "add", "--detach", dir, commit]);
  if (add.code !== 0) return { why: `git worktree add failed: ${add.stderr.trim()}` };
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
  const tsc = run(process.execPath, [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.json"], dir);
  if (tsc.code !== 0 || !existsSync(cli)) return { why: `the baseline does not compile: ${tsc.stdout.slice(-400)}` };
  for (const script of ["bundle-client.mjs", "cut-map.mjs"]) {
    const file = join(dir, "scripts", script);
    if (existsSync(file) && run(process.execPath, [file], dir).code !== 0) return { why: `the baseline's ${script} failed` };
  }
  return { cli };
}

/** Files and bytes under a folder. */
export function folderSize(dir: string): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      const s = folderSize(p);
      files += s.files;
      bytes += s.bytes;
    } else {
      files++;
      bytes += statSync(p).size;
    }
  }
  return { files, bytes };
}
