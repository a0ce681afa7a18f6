/**
 * `georeplay verify` on a crops run vs the reference verifier (replay_crops.py), whole
 * processes under /usr/bin/time -v (wall, CPU, peak RSS), interleaved, medians.
 *
 *   node dist/bench/crops-verify.js                 both sizes (what `npm run bench` runs)
 *   node dist/bench/crops-verify.js --sample        the checked-in sample (train run: 36 rollouts, 5 rounds)
 *   node dist/bench/crops-verify.js --big           the 10,000-episode set (generated once into
 *                                                   bench/.cache/crops-10k with the reference
 *                                                   README's record.py command: ~6 min of 2 idle cores)
 *   node dist/bench/crops-verify.js --dataset DIR --run NAME [--reps N]
 *
 * Goals, on both sizes: <= 1/3 of the reference's wall, <= 0.5x its CPU; < 600 MB peak at
 * 10,000 episodes. Each size prints its measured ratios against the goals.
 * The reference lives outside this repository: GEOREPLAY_CROPS_REFERENCE (default
 * ../shared/reference/crops beside the checkout, where the environment's documentation lays it).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { PYTHON, ROOT, fmt, loadavg } from "./common.ts";
import { REFERENCE, tenThousand } from "./crops-data.ts";
import { median, timedProcess, type Timed } from "./timed.ts";

const CLI = join(ROOT, "dist", "src", "cli.js");
const SUMMARY = /(\d+) episodes · (\d+) view turns checked · (\d+) match · (\d+) mismatch/;

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};

interface Target {
  name: string;
  dataset: string;
  run: string;
  reps: number;
}

function targets(): Target[] {
  const sample: Target = { name: "sample train (36 rollouts)", dataset: join(ROOT, "test", "fixtures", "crops", "sample"), run: "train", reps: 5 };
  const big = (): Target => ({ name: "10,000 generated episodes", ...tenThousand(), reps: Number(arg("--reps") ?? 1) });
  const dataset = arg("--dataset");
  if (dataset) return [{ name: dataset, dataset, run: arg("--run") ?? "eval", reps: Number(arg("--reps") ?? 3) }];
  if (process.argv.includes("--sample")) return [sample];
  if (process.argv.includes("--big")) return [big()];
  return [sample, big()];
}

const WALL_GOAL = 1 / 3;
const CPU_GOAL = 0.5;
const PEAK_GOAL_MB = 600;

function main(): void {
  if (!existsSync(join(REFERENCE, "replay_crops.py"))) {
    console.log(`crops-verify: skipped (no reference verifier at ${REFERENCE}; set GEOREPLAY_CROPS_REFERENCE)`);
    return;
  }
  for (const t of targets()) measure(t);
}

/** Ours and the reference, interleaved round by round, medians; then measured vs goal as ratios. */
function measure(t: Target): void {
  const runDir = join(t.dataset, t.run);
  const runFile = ["episodes.jsonl", "rollouts.jsonl"].map((f) => join(runDir, f)).find(existsSync)!;
  const ours: Timed[] = [];
  const ref: Timed[] = [];
  let summary = "";
  for (let i = 0; i < t.reps; i++) {
    const a = timedProcess(process.execPath, [CLI, "verify", runDir, "--dataset", t.dataset, "--no-progress"]);
    if (a.code !== 0) throw new Error(`georeplay verify exited ${a.code}: ${a.stderr.slice(-2000)}`);
    summary = SUMMARY.exec(a.stdout)?.[0] ?? a.stdout.split("\n")[0];
    ours.push(a);
    const b = timedProcess(PYTHON, [join(REFERENCE, "replay_crops.py"), "--dataset", t.dataset, runFile], REFERENCE);
    if (b.code !== 0) throw new Error(`replay_crops.py exited ${b.code}: ${b.stdout.slice(-2000)}`);
    ref.push(b);
  }
  const m = (xs: Timed[], k: "wallS" | "cpuS" | "peakMb") => median(xs.map((x) => x[k]));
  console.log(`crops verify, ${t.name}: ${runDir} (${t.reps} round(s), load ${loadavg()})`);
  console.log(`  ${summary}`);
  console.log(`  georeplay verify : wall ${fmt(m(ours, "wallS"), 2)} s · CPU ${fmt(m(ours, "cpuS"), 2)} s · peak ${fmt(m(ours, "peakMb"), 0)} MB`);
  console.log(`  replay_crops.py  : wall ${fmt(m(ref, "wallS"), 2)} s · CPU ${fmt(m(ref, "cpuS"), 2)} s · peak ${fmt(m(ref, "peakMb"), 0)} MB`);
  const wall = m(ours, "wallS") / m(ref, "wallS");
  const cpu = m(ours, "cpuS") / m(ref, "cpuS");
  const peak = m(ours, "peakMb");
  const met = (ok: boolean) => (ok ? "met" : "NOT met");
  console.log(
    `  measured/goal: wall ${fmt(wall, 2)}x of the reference (goal <= ${fmt(WALL_GOAL, 2)}: ratio ${fmt(wall / WALL_GOAL, 2)}, ${met(wall <= WALL_GOAL)})` +
      ` · CPU ${fmt(cpu, 2)}x (goal <= ${CPU_GOAL}: ratio ${fmt(cpu / CPU_GOAL, 2)}, ${met(cpu <= CPU_GOAL)})` +
      ` · peak ${fmt(peak, 0)} MB (goal < ${PEAK_GOAL_MB}: ratio ${fmt(peak / PEAK_GOAL_MB, 2)}, ${met(peak < PEAK_GOAL_MB)})`,
  );
}

main();
