/**
 * Many videos in one process against the same videos as separate `render` processes, both
 * measured whole by the kernel (/usr/bin/time -v: wall, peak RSS), on the generated board:
 *
 *   node dist/bench/batch.js [--videos 10] [--size 1280x720] [--fps 30] [--two-up] [--format mp4]
 *   node dist/bench/batch.js --crops [--videos 6]
 *
 * Single videos: `render BOARD/base --episode '#1' ... '#N' -o DIR/` (base's first N tasks);
 * --two-up: `render BOARD --improved N --arm sonnet-5 --baseline base -o DIR/`, and beside it
 * one `render --episode A --versus B` process per pair. The board is 2 arms x max(N, 10) tasks x
 * k=1 (bench/board/make.ts; built once, cached in bench/.cache).
 * --crops: the bundled crops sample's eval run instead, episodes #1..#N (24 at most).
 * Goal (issue 17): the batch writes >= 1.8 s of video per second of wall time, peak RSS <= 500 MB;
 * for crops (issue 50's render goal, per video): >= 2x real time, peak RSS < 400 MB.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureBoard } from "./board/make.ts";
import { DEFAULT_SHAPE } from "./board/shape.ts";
import { ROOT, fmt } from "./common.ts";
import { timedProcess, type Timed } from "./timed.ts";

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}
const videos = Math.max(1, Number(arg("videos", "10")));
const size = arg("size", "1280x720");
const fps = arg("fps", "30");
const format = arg("format", "mp4");
const twoUp = process.argv.includes("--two-up");
const crops = process.argv.includes("--crops");
const CLI = join(ROOT, "dist", "src", "cli.js");
const CROPS_RUN = join(ROOT, "test", "fixtures", "crops", "sample", "eval");

const board = crops ? null : await ensureBoard({ ...DEFAULT_SHAPE, arms: 2, tasks: Math.max(videos, 10), k: 1 });
const work = mkdtempSync(join(tmpdir(), "georeplay-bench-batch-"));
const check = (what: string, t: Timed) => {
  if (t.code !== 0) throw new Error(`${what} exited ${t.code}: ${t.stderr.split("\n").slice(-8).join("\n")}`);
};
try {
  const inputs = board ? ["--tasks", board.tasks, "--panos", board.panos] : [];
  const common = [...inputs, "--size", size, "--fps", fps, "--no-progress"];
  const run = board ? join(board.root, "base") : CROPS_RUN;
  const selection =
    board && twoUp
      ? [board.root, "--improved", String(videos), "--arm", "sonnet-5", "--baseline", "base"]
      : [run, ...Array.from({ length: videos }, (_, i) => ["--episode", `#${i + 1}`]).flat()];
  const batchDir = join(work, "batch");
  const batch = timedProcess(process.execPath, [CLI, "render", ...selection, ...common, "--format", format, "-o", batchDir + "/", "--json"]);
  check("the batch", batch);
  const summary = JSON.parse(batch.stdout.trim().split("\n").at(-1)!) as { written: number; video_s: number; frames: number };
  const manifest = JSON.parse(readFileSync(join(batchDir, "manifest.json"), "utf8")) as { videos: { file: string; episode_ids: string[] }[] };

  // The same videos, one `render` process each.
  let sepWall = 0;
  let sepPeak = 0;
  for (const [i, v] of manifest.videos.entries()) {
    const out = join(work, "separate", v.file.replace(/\.\w+$/, ".mp4"));
    const args =
      board && twoUp
        ? [CLI, "render", board.root, "--episode", v.episode_ids[0], "--versus", v.episode_ids[1], ...common, "-o", out]
        : [CLI, "render", run, "--episode", v.episode_ids[0], ...common, "-o", out];
    const t = timedProcess(process.execPath, args);
    check(`separate render ${i + 1}`, t);
    sepWall += t.wallS;
    sepPeak = Math.max(sepPeak, t.peakMb);
  }

  const rt = (s: number) => summary.video_s / s;
  console.log(
    `batch of ${summary.written} ${twoUp ? "two-up " : ""}videos (${size} at ${fps} fps, ${format}; ${board ? `board ${board.shape.arms} arms x ${board.shape.tasks} tasks` : "the crops sample's eval run"}): ` +
      `${fmt(summary.video_s)} s of video, ${summary.frames} frames`,
  );
  console.log(`  one batch process:      wall ${fmt(batch.wallS)} s · ${fmt(rt(batch.wallS), 2)}x real time · peak RSS ${fmt(batch.peakMb, 0)} MB`);
  console.log(
    `  ${manifest.videos.length} render processes: wall ${fmt(sepWall)} s · ${fmt(rt(sepWall), 2)}x real time · peak RSS ${fmt(sepPeak, 0)} MB (largest)`,
  );
  console.log(`  batch / separate: wall ${fmt(batch.wallS / sepWall, 2)} · peak RSS ${fmt(batch.peakMb / sepPeak, 2)}`);
  const [x, mb] = crops ? [2, 400] : [1.8, 500];
  const goal = rt(batch.wallS) >= x && batch.peakMb <= mb;
  console.log(`  goal (>= ${x}x real time, <= ${mb} MB): ${goal ? "met" : "not met"}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
