/**
 * Verify speed and memory, side by side with the environment's replay check
 * (bench/reference/replay_reference.py), in one run:
 *
 *  1. whole processes, as a user runs them: `georeplay verify` (the CLI) and
 *     the reference, each under /usr/bin/time -v, interleaved,
 *     on a held-out run made by make_traces.py with a seed no test uses
 *     (30 episodes), medians of 5; wall time, CPU time and peak RSS, as ratios
 *     (of the medians, and the median of each round's own ratio); beside
 *     them the floor (verify-floor.ts: Node's start, each source decoded
 *     once, every distinct view encoded), which says what stops a goal;
 *  2. in-process ms/view on the bench's long-standing run (verify-40: 266
 *     views, 6 resolved), 2 workers and 1 thread, results checked equal;
 *  3. the 12,800-episode board (bench/board/make.ts, built once into
 *     bench/.cache; building it takes a while): one whole process, wall,
 *     peak RSS and distinct views rendered. Skipped with --no-board;
 *     --board-tasks N measures a 16 x N x 4 board instead.
 */
import { join } from "node:path";
import { availableParallelism } from "node:os";
import { verifyRun } from "../envs/geoguesser/replay/verify/verify.ts";
import { generatedRun, hasReferencePython, loadavg, PYTHON, REFERENCE, ROOT, fmt, run } from "./common.ts";
import { median, timedProcess, type Timed } from "./timed.ts";

/** The held-out run: seed and size used by no test (30 episodes; see the report for its views and panoramas). */
export const HELD_OUT = { name: "verify-heldout-30-s30", episodes: 30, seed: 30 };
const SUMMARY = /(\d+) episodes · (\d+) view turns checked · (\d+) match · (\d+) mismatch/;

function wholeProcesses(reps = 5) {
  const data = generatedRun(HELD_OUT.name, HELD_OUT.episodes, HELD_OUT.seed);
  const refArgs = [
    join(REFERENCE, "replay_reference.py"),
    "--look",
    join(REFERENCE, "look_reference.py"),
    "--tasks",
    data.tasks,
    "--panos",
    data.panos,
    data.episodes,
  ];
  const cliArgs = [join(ROOT, "dist", "src", "cli.js"), "verify", data.episodes, "--tasks", data.tasks, "--panos", data.panos, "--no-progress"];
  // Distinct views the CLI renders (repeats are rendered once): what the floor encodes.
  const distinct = JSON.parse(
    run(process.execPath, [join(ROOT, "dist", "bench", "verify-child.js"), data.episodes, "--tasks", data.tasks, "--panos", data.panos]).stdout.trim(),
  ) as { rendered: number };
  const floorArgs = [join(ROOT, "dist", "bench", "verify-floor.js"), data.panos, String(distinct.rendered)];
  const ref: Timed[] = [];
  const ours: Timed[] = [];
  const floor: Timed[] = [];
  const loadBefore = loadavg();
  for (let i = 0; i < reps; i++) {
    ref.push(timedProcess(PYTHON, refArgs, REFERENCE));
    ours.push(timedProcess(process.execPath, cliArgs));
    floor.push(timedProcess(process.execPath, floorArgs));
  }
  const rm = SUMMARY.exec(ref[0].stdout);
  const om = SUMMARY.exec(ours[0].stdout);
  if (!rm || !om) throw new Error(`unexpected output: ${ref[0].stdout}${ref[0].stderr.slice(0, 400)} / ${ours[0].stdout}${ours[0].stderr.slice(0, 400)}`);
  const equal = rm.slice(1).join() === om.slice(1).join() && [...ref, ...ours].every((x) => SUMMARY.exec(x.stdout)?.[0] === om[0]);
  const m = (xs: { wallS: number; cpuS: number; peakMb: number }[]) => ({
    wall: median(xs.map((x) => x.wallS)),
    cpu: median(xs.map((x) => x.cpuS)),
    rss: median(xs.map((x) => x.peakMb)),
  });
  const R = m(ref);
  const O = m(ours);
  const F = m(floor);
  const cores = availableParallelism();
  console.log(`verify · whole processes on the held-out run ${data.episodes} (${om[1]} episodes, ${om[2]} views), medians of ${reps}`);
  console.log(
    `  reference replay_reference.py : ${fmt(R.wall, 2)} s wall, ${fmt(R.cpu, 2)} s CPU, ${fmt(R.rss, 0)} MB peak RSS  (${rm[3]} match, ${rm[4]} mismatch)`,
  );
  console.log(
    `  georeplay verify (CLI)        : ${fmt(O.wall, 2)} s wall, ${fmt(O.cpu, 2)} s CPU, ${fmt(O.rss, 0)} MB peak RSS  (${om[3]} match, ${om[4]} mismatch)`,
  );
  console.log(`  runs: reference ${ref.map((r) => fmt(r.wallS, 2)).join(" / ")} s; ours ${ours.map((o) => fmt(o.wallS, 2)).join(" / ")} s`);
  console.log(
    `  floor (Node's start, each source decoded once, ${distinct.rendered} views encoded; no index maps, one thread): ${fmt(F.cpu, 2)} s CPU, ${fmt(F.rss, 0)} MB`,
  );
  const wallRatio = R.wall / O.wall;
  const cpuRatio = O.cpu / R.cpu;
  // Each round runs the reference and ours back to back: the median of the rounds' own ratios
  // cancels a machine whose speed drifts between rounds (a shared VM's does).
  const pairedWall = median(ref.map((r, i) => r.wallS / ours[i].wallS));
  const pairedCpu = median(ref.map((r, i) => ours[i].cpuS / r.cpuS));
  const floorCpu = F.cpu / R.cpu;
  console.log(
    `  wall-time ratio ${fmt(wallRatio, 2)}x (goal >= 5x) · CPU ${fmt(cpuRatio, 2)} of the reference's (goal <= 0.35) · peak RSS ${fmt(O.rss / R.rss, 2)} of the reference's (goal <= 1) · results equal: ${equal ? "yes" : "NO"}`,
  );
  console.log(
    `  round by round: wall ${ref.map((r, i) => fmt(r.wallS / ours[i].wallS, 2)).join(" / ")}x (median ${fmt(pairedWall, 2)}x) · CPU ${ref.map((r, i) => fmt(ours[i].cpuS / r.cpuS, 2)).join(" / ")} (median ${fmt(pairedCpu, 2)})`,
  );
  // What stops a goal: the floor's share of the reference's CPU, and the wall time it allows on this machine's cores.
  const floorWall = R.wall / (F.cpu / cores);
  console.log(
    `  floor: ${fmt(floorCpu, 2)} of the reference's CPU, at best ${fmt(floorWall, 1)}x its wall time on ${cores} cores; ours spends ${fmt(O.cpu - F.cpu, 2)} s CPU above the floor (index maps, records, workers)`,
  );
  if (wallRatio < 5)
    console.log(
      `  wall goal missed: ${floorWall < 5 ? `out of reach here, the floor allows ${fmt(floorWall, 1)}x` : `${fmt(O.cpu - F.cpu, 2)} s CPU above the floor is what stops it`}`,
    );
  if (cpuRatio > 0.35)
    console.log(
      `  CPU goal missed: ${floorCpu > 0.35 ? `out of reach, the floor alone is ${fmt(floorCpu, 2)}` : `the floor is ${fmt(floorCpu, 2)}; the rest is ours to cut`}`,
    );
  console.log(`  load average before ${loadBefore}, after ${loadavg()} (${cores} cores; CPU time is the robust figure under load)`);
  return {
    refWallS: R.wall,
    wallS: O.wall,
    wallRatio,
    pairedWallRatio: pairedWall,
    pairedCpuRatio: pairedCpu,
    refCpuS: R.cpu,
    cpuS: O.cpu,
    cpuRatio,
    floorCpuS: F.cpu,
    refRssMb: R.rss,
    rssMb: O.rss,
    rssRatio: O.rss / R.rss,
    equal: String(equal),
  };
}

async function inProcess() {
  const data = generatedRun("verify-40", 40, 11);
  const args = { episodes: [data.episodes], tasks: data.tasks, panos: data.panos };
  const timed = async (jobs: number) => {
    const t0 = performance.now();
    const r = await verifyRun({ ...args, jobs });
    return { r, ms: performance.now() - t0 };
  };
  const cores = availableParallelism();
  const warm = await timed(cores); // first run pays for JIT warm-up; report the second
  const par = await timed(cores);
  const one = await timed(1);
  const same = (a: typeof par.r, b: typeof par.r) => JSON.stringify(a) === JSON.stringify(b);
  console.log(
    `verify · in-process on ${data.episodes} (${par.r.episodes} episodes, ${par.r.checked} views, ${par.r.match} match, ${par.r.mismatch} mismatch, ${par.r.resolved} resolved)`,
  );
  console.log(
    `  ${cores} workers: ${fmt(par.ms / par.r.checked)} ms/view (first run ${fmt(warm.ms / warm.r.checked)}); 1 thread: ${fmt(one.ms / one.r.checked)} ms/view; reports identical: ${same(par.r, one.r) && same(par.r, warm.r) ? "yes" : "NO"}`,
  );
  return { msPerView: par.ms / par.r.checked, msPerViewOneThread: one.ms / one.r.checked };
}

async function board(tasks?: number) {
  const { ensureBoard } = await import("./board/make.ts");
  const { DEFAULT_SHAPE } = await import("./board/shape.ts");
  const b = await ensureBoard({ ...DEFAULT_SHAPE, ...(tasks ? { tasks } : {}) });
  const t = timedProcess(process.execPath, [join(ROOT, "dist", "bench", "verify-child.js"), b.root, "--tasks", b.tasks, "--panos", b.panos]);
  if (t.code !== 0 && t.code !== 1) throw new Error(`board verify failed (exit ${t.code}): ${t.stderr.slice(0, 2000)}`);
  const r = JSON.parse(t.stdout.trim().split("\n").at(-1)!) as { episodes: number; checked: number; match: number; mismatch: number; rendered: number };
  console.log(`verify · board ${b.root} (${r.episodes} episodes, ${r.checked} view turns, ${r.match} match, ${r.mismatch} mismatch), one whole process`);
  console.log(
    `  ${fmt(t.wallS, 1)} s wall, ${fmt(t.cpuS, 1)} s CPU, ${fmt(t.peakMb, 0)} MB peak RSS (goal <= 600 MB) · distinct views rendered: ${r.rendered} of ${r.checked}`,
  );
  return { boardWallS: t.wallS, boardRssMb: t.peakMb, boardRendered: r.rendered, boardViews: r.checked };
}

export async function benchVerify(opts: { board?: boolean; boardTasks?: number } = {}): Promise<Record<string, number | string>> {
  if (!hasReferencePython()) throw new Error(`${PYTHON} lacks numpy/PIL: run npm run setup`);
  const out = { ...wholeProcesses(), ...(await inProcess()) };
  return opts.board === false ? out : { ...out, ...(await board(opts.boardTasks)) };
}

// --no-board skips the board; --board-tasks N builds and measures a smaller board (16 arms x N tasks x 4).
const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
if (import.meta.url === `file://${process.argv[1]}`) {
  await benchVerify({ board: !process.argv.includes("--no-board"), boardTasks: arg("--board-tasks") ? Number(arg("--board-tasks")) : undefined });
}
