/**
 * `georeplay render` on crops episodes, whole processes under /usr/bin/time -v (wall, CPU, peak
 * RSS), at 1280x720, 30 fps, x264 preset medium (the default), medians of --reps runs:
 *
 *   node dist/bench/crops-render.js [--reps 3]
 *
 *  one episode (the sample's c46800576146: a zoom, adjusts, removes, boxes; its score card)
 *  a GRPO group of six (the sample's train group 0/train/0, the 2x3 grid and its card)
 *
 * Goals: at least 2x real time (video seconds / wall seconds) on 2 cores, peak RSS under 400 MB.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, fmt, loadavg } from "./common.ts";
import { median, timedProcess } from "./timed.ts";
import { probeVideo } from "../src/ffmpeg/probe.ts";

const CLI = join(ROOT, "dist", "src", "cli.js");
const SAMPLE = join(ROOT, "test", "fixtures", "crops", "sample");
const i = process.argv.indexOf("--reps");
const reps = Math.max(1, (i >= 0 ? Number(process.argv[i + 1]) : 3) || 3);

const cases: [string, string[]][] = [
  ["episode c46800576146", [join(SAMPLE, "eval", "episodes.jsonl"), "--episode", "c46800576146"]],
  ["group 0/train/0 (6 siblings)", [join(SAMPLE, "train"), "--group", "0/train/0"]],
];

const tmp = mkdtempSync(join(tmpdir(), "georeplay-bench-crops-render-"));
try {
  console.log(`crops render, 1280x720, 30 fps, preset medium, median of ${reps} (load ${loadavg()})`);
  for (const [name, args] of cases) {
    const out = join(tmp, "v.mp4");
    const runs = [];
    for (let k = 0; k < reps; k++) {
      const r = timedProcess(process.execPath, [CLI, "render", ...args, "-o", out, "--no-progress"]);
      if (r.code !== 0) throw new Error(`${name}: exit ${r.code}: ${r.stderr}`);
      runs.push(r);
    }
    const videoS = probeVideo(out).durationS;
    const wall = median(runs.map((r) => r.wallS));
    const speed = videoS / wall;
    const peak = Math.max(...runs.map((r) => r.peakMb));
    console.log(
      `${name}: ${fmt(videoS)} s of video in ${fmt(wall, 2)} s wall (${fmt(speed, 2)}x real time, goal >= 2x ${speed >= 2 ? "met" : "NOT met"}) · CPU ${fmt(median(runs.map((r) => r.cpuS)), 2)} s · peak RSS ${fmt(peak, 0)} MB (goal < 400 MB ${peak < 400 ? "met" : "NOT met"})`,
    );
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
