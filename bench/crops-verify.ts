/**
 * `georeplay verify` on a crops run vs the reference verifier (replay_crops.py), whole
 * processes under /usr/bin/time -v (wall, CPU, peak RSS), interleaved, medians.
 *
 *   node dist/bench/crops-verify.js                 the 10,000-episode set (generated once into
 *                                                   bench/.cache/crops-10k with the reference
 *                                                   README's record.py command: ~6 min of 2 cores)
 *   node dist/bench/crops-verify.js --sample        the checked-in sample (train run: 36 rollouts)
 *   node dist/bench/crops-verify.js --dataset DIR --run NAME [--reps N]
 *
 * Goals at 10,000 episodes: <= 1/3 of the reference's wall, <= 0.5x its CPU, < 600 MB peak.
 * The reference lives outside this repository: GEOREPLAY_CROPS_REFERENCE (default
 * ../shared/reference/crops beside the checkout, where the environment's documentation lays it).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { CACHE, PYTHON, ROOT, fmt, loadavg, run } from "./common.ts";
import { median, timedProcess, type Timed } from "./timed.ts";

const REFERENCE = process.env.GEOREPLAY_CROPS_REFERENCE ?? join(ROOT, "..", "shared", "reference", "crops");
const CLI = join(ROOT, "dist", "src", "cli.js");
const SUMMARY = /(\d+) episodes · (\d+) view turns checked · (\d+) match · (\d+) mismatch/;

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};

/** The reference README's 10,000-episode command (500 scenes x 20 samples), run once. */
function tenThousand(): { dataset: string; run: string } {
  const dataset = join(CACHE, "crops-10k");
  const runFile = join(dataset, "eval", "episodes.jsonl");
  if (!existsSync(runFile)) {
    process.stderr.write(`bench: generating 10,000 crops episodes into ${dataset} with record.py (about 6 minutes of 2 cores) ...\n`);
    const r = run(
      PYTHON,
      [
        join(REFERENCE, "record.py"),
        ...["--dataset", dataset, "--run", "eval", "--mode", "eval", "--split", "eval"],
        ...["--scenes", "100000-100499:640x480", "--samples", "20", "--seed", "7", "--jobs", "2"],
      ],
      REFERENCE,
    );
    if (r.code !== 0) throw new Error(`record.py failed: ${r.stderr}`);
  }
  return { dataset, run: "eval" };
}

function target(): { dataset: string; run: string; reps: number } {
  if (process.argv.includes("--sample")) return { dataset: join(ROOT, "test", "fixtures", "crops", "sample"), run: "train", reps: 5 };
  const dataset = arg("--dataset");
  if (dataset) return { dataset, run: arg("--run") ?? "eval", reps: Number(arg("--reps") ?? 3) };
  return { ...tenThousand(), reps: Number(arg("--reps") ?? 1) };
}

function main(): void {
  if (!existsSync(join(REFERENCE, "replay_crops.py"))) {
    console.log(`crops-verify: skipped (no reference verifier at ${REFERENCE}; set GEOREPLAY_CROPS_REFERENCE)`);
    return;
  }
  const t = target();
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
  console.log(`crops verify on ${runDir} (${t.reps} round(s), load ${loadavg()})`);
  console.log(`  ${summary}`);
  console.log(`  georeplay verify : wall ${fmt(m(ours, "wallS"), 2)} s · CPU ${fmt(m(ours, "cpuS"), 2)} s · peak ${fmt(m(ours, "peakMb"), 0)} MB`);
  console.log(`  replay_crops.py  : wall ${fmt(m(ref, "wallS"), 2)} s · CPU ${fmt(m(ref, "cpuS"), 2)} s · peak ${fmt(m(ref, "peakMb"), 0)} MB`);
  const wall = m(ours, "wallS") / m(ref, "wallS");
  const cpu = m(ours, "cpuS") / m(ref, "cpuS");
  console.log(`  ratio: wall ${fmt(wall, 2)}x (goal <= 0.33) · CPU ${fmt(cpu, 2)}x (goal <= 0.5) · peak ${fmt(m(ours, "peakMb"), 0)} MB (goal < 600)`);
}

main();
