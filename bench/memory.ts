/**
 * Resource bounds: peak RSS of `georeplay verify` and `georeplay page` on large
 * inputs, measured by the kernel (/usr/bin/time -v) on real processes.
 *
 *   node dist/bench/memory.js [--gb 1]
 *
 * Builds (once, in bench/.cache) an episodes file of about N GB from the mixed
 * run, each episode padded with a large reply, so streaming and bounded caches
 * are what keep memory flat; and runs page on the 200-episode run when present.
 */
import { createWriteStream, existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { CACHE, MIXED, ROOT, run, fmt, generatedRun, hasReferencePython } from "./common.ts";

function peakRss(args: string[]): { mb: number; code: number | null; seconds: number } {
  const r = run("/usr/bin/time", ["-v", process.execPath, join(ROOT, "dist", "src", "cli.js"), ...args]);
  const m = /Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr);
  return { mb: m ? Number(m[1]) / 1024 : NaN, code: r.code, seconds: r.ms / 1000 };
}

async function bigFile(gb: number): Promise<string> {
  const file = join(CACHE, `big-${gb}gb.jsonl`);
  if (existsSync(file) && statSync(file).size >= gb * 1e9 * 0.99) return file;
  const eps = readFileSync(join(MIXED, "episodes.jsonl"), "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
  const pad = "The poles and road markings suggest several candidates. ".repeat(36_000); // ~2 MB per episode
  const out = createWriteStream(file);
  let bytes = 0;
  for (let k = 0; bytes < gb * 1e9; k++) {
    const e = structuredClone(eps[k % eps.length]);
    e.episode_id = `${k.toString(16).padStart(12, "0")}`;
    e.turns[1].model = { ...(e.turns[1].model ?? {}), reply: pad };
    const line = JSON.stringify(e) + "\n";
    bytes += Buffer.byteLength(line);
    if (!out.write(line)) await new Promise<void>((r) => out.once("drain", () => r()));
  }
  await new Promise<void>((r) => out.end(() => r()));
  return file;
}

const gb = Number(process.argv[process.argv.indexOf("--gb") + 1] || 1) || 1;
const file = await bigFile(gb);
const size = statSync(file).size / 1e9;
const tasks = join(MIXED, "tasks.jsonl");
const panos = join(MIXED, "panos");
const v = peakRss(["verify", file, "--tasks", tasks, "--panos", panos, "--no-progress"]);
console.log(`memory · verify on a ${fmt(size, 2)} GB episodes file: peak RSS ${fmt(v.mb, 0)} MB in ${fmt(v.seconds, 0)} s (exit ${v.code})`);
if (hasReferencePython()) {
  // The same generated run as bench/page.ts (make_traces.py --random 200 --seed 1).
  const r = generatedRun("page-200-s1", 200, 1);
  const p = peakRss(["page", r.episodes, "--tasks", r.tasks, "--panos", r.panos, "-o", join(CACHE, "memory-page-200.html"), "--no-progress"]);
  const pv = peakRss(["verify", r.episodes, "--tasks", r.tasks, "--panos", r.panos, "--no-progress"]);
  console.log(`memory · 200-episode run: verify peak RSS ${fmt(pv.mb, 0)} MB (exit ${pv.code}), page peak RSS ${fmt(p.mb, 0)} MB (exit ${p.code})`);
}
