/**
 * Verify speed, side by side with the environment's replay check
 * (bench/reference/replay_reference.py) on the same episodes, in one run.
 * Both are timed in-process around the replay loop (Python's own ms/view
 * excludes interpreter start-up; ours excludes Node's), and whole-process wall
 * times are printed too.
 */
import { join } from "node:path";
import { availableParallelism } from "node:os";
import { verifyRun } from "../replay/verify/verify.ts";
import { generatedRun, hasReferencePython, run, PYTHON, REFERENCE, ROOT, fmt } from "./common.ts";

export async function benchVerify(): Promise<Record<string, number | string>> {
  if (!hasReferencePython()) throw new Error(`${PYTHON} lacks numpy/PIL: run npm run setup`);
  const data = generatedRun("verify-40", 40, 11);
  const args = { episodes: [data.episodes], tasks: data.tasks, panos: data.panos };

  const ref = run(PYTHON, [join(REFERENCE, "replay_reference.py"), "--look", join(REFERENCE, "look_reference.py"), "--tasks", data.tasks, "--panos", data.panos, data.episodes], REFERENCE);
  const m = /(\d+) episodes · (\d+) view turns checked · (\d+) match · (\d+) mismatch .*?([\d.]+) ms\/view/.exec(ref.stdout);
  if (!m) throw new Error(`unexpected reference output: ${ref.stdout}${ref.stderr}`);
  const refViews = Number(m[2]);
  const refMs = Number(m[5]);

  const timed = async (jobs: number) => {
    const t0 = performance.now();
    const r = await verifyRun({ ...args, jobs });
    return { r, ms: performance.now() - t0 };
  };
  const cores = availableParallelism();
  const warm = await timed(cores); // first run pays for JIT warm-up; report the second
  const par = await timed(cores);
  const one = await timed(1);
  const cli = run(process.execPath, [join(ROOT, "dist", "src", "cli.js"), "verify", data.episodes, "--tasks", data.tasks, "--panos", data.panos, "--json"]);

  const ours = par.ms / par.r.checked;
  const equal = par.r.checked === refViews && par.r.match === Number(m[3]) && par.r.mismatch === Number(m[4]);
  console.log(`verify · ${par.r.episodes} episodes, ${par.r.checked} views (${data.episodes})`);
  console.log(`  reference replay_reference.py : ${fmt(refMs)} ms/view  (${m[3]} match, ${m[4]} mismatch; process ${fmt(ref.ms / 1000, 2)} s)`);
  console.log(`  georeplay verify, ${cores} workers   : ${fmt(ours)} ms/view  (${par.r.match} match, ${par.r.mismatch} mismatch, ${par.r.resolved} resolved; first run ${fmt(warm.ms / warm.r.checked)} ms/view; CLI process ${fmt(cli.ms / 1000, 2)} s)`);
  console.log(`  georeplay verify, 1 thread    : ${fmt(one.ms / one.r.checked)} ms/view`);
  console.log(`  speed-up per view: ${fmt(refMs / ours, 2)}x (${cores} workers), ${fmt(refMs / (one.ms / one.r.checked), 2)}x (1 thread); results equal: ${equal ? "yes" : "NO"}`);
  return { refMsPerView: refMs, msPerView: ours, ratio: refMs / ours, equal: String(equal) };
}

if (import.meta.url === `file://${process.argv[1]}`) await benchVerify();
