/**
 * `georeplay report` at scale: the 12,800-episode board from bench/board
 * (16 arms x 200 tasks x k=4, ~95 KB lines, ~1.2 GB), whole process measured
 * with /usr/bin/time -v (wall, peak RSS), side by side in one run with the
 * Python implementation of geoeval's rules (test/reference/geoeval_report.py),
 * and whether the two texts are byte-identical.
 *
 *   node dist/bench/report.js [--placeholder]
 *
 * Uses the rendered board if bench/.cache holds it, else builds (once) the
 * placeholder-hash board, whose episodes are the same for report's purposes.
 * Goals (issue 11): under 30 s and under 300 MB peak RSS.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { DEFAULT_SHAPE } from "./board/shape.ts";
import { defaultBoardDir, ensureBoard } from "./board/make.ts";
import { PYTHON, ROOT, fmt, run } from "./common.ts";

interface Timed {
  code: number | null;
  stdout: string;
  stderr: string;
  wallS: number;
  /** User + system CPU seconds: on a loaded machine the steadier figure. */
  cpuS: number;
  rssMb: number;
}

function timed(cmd: string, args: string[]): Timed {
  const r = run("/usr/bin/time", ["-v", cmd, ...args]);
  const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr);
  const wall = /Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)/.exec(r.stderr);
  if (!rss || !wall) throw new Error(`no /usr/bin/time -v figures for ${cmd}: ${r.stderr.slice(-500)}`);
  const wallS = Number(wall[1] ?? 0) * 3600 + Number(wall[2]) * 60 + Number(wall[3]);
  const cpu = (k: string) => Number(new RegExp(`${k} time \\(seconds\\): ([\\d.]+)`).exec(r.stderr)?.[1] ?? 0);
  return { code: r.code, stdout: r.stdout, stderr: r.stderr, wallS, cpuS: cpu("User") + cpu("System"), rssMb: Number(rss[1]) / 1024 };
}

export async function benchReport(opts: { placeholder?: boolean } = {}): Promise<Record<string, number | string>> {
  const rendered = existsSync(join(defaultBoardDir(DEFAULT_SHAPE, false), "DONE"));
  const board = await ensureBoard(DEFAULT_SHAPE, { placeholderHashes: opts.placeholder ?? !rendered });
  const args = [board.root, "--baseline", "base"];
  const ours = timed(process.execPath, [join(ROOT, "dist", "src", "cli.js"), "report", ...args]);
  if (ours.code !== 0) throw new Error(`georeplay report failed: ${ours.stderr}`);
  const ref = timed(PYTHON, [join(ROOT, "test", "reference", "geoeval_report.py"), ...args, "--skip-quarantined"]);
  if (ref.code !== 0) throw new Error(`reference failed: ${ref.stderr}`);
  const same = ours.stdout === ref.stdout;
  const episodes = Number(/^(\d+) episodes over/m.exec(ours.stdout)?.[1] ?? 0);
  console.log(`report · ${episodes} scored episodes, ${DEFAULT_SHAPE.arms} arms x ${DEFAULT_SHAPE.tasks} tasks x k=${DEFAULT_SHAPE.k} (${board.root})`);
  console.log(`  reference geoeval_report.py : ${fmt(ref.wallS, 1)} s wall, ${fmt(ref.cpuS, 1)} s CPU, peak RSS ${fmt(ref.rssMb, 0)} MB`);
  console.log(
    `  georeplay report            : ${fmt(ours.wallS, 1)} s wall, ${fmt(ours.cpuS, 1)} s CPU, peak RSS ${fmt(ours.rssMb, 0)} MB  (goals: < 30 s, < 300 MB)`,
  );
  console.log(
    `  speed-up ${fmt(ref.wallS / ours.wallS, 2)}x wall, ${fmt(ref.cpuS / ours.cpuS, 2)}x CPU; memory ${fmt(ref.rssMb / ours.rssMb, 1)}x less; text identical: ${same ? "yes" : "NO"}`,
  );
  return {
    wallS: ours.wallS,
    cpuS: ours.cpuS,
    rssMb: ours.rssMb,
    refWallS: ref.wallS,
    refCpuS: ref.cpuS,
    refRssMb: ref.rssMb,
    ratio: ref.wallS / ours.wallS,
    identical: String(same),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { placeholder: { type: "boolean" } } });
  await benchReport({ placeholder: values.placeholder });
}
