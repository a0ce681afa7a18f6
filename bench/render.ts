/**
 * Render speed and memory, whole `georeplay render` processes as a user runs
 * them (/usr/bin/time -v), side by side in one run on the bundled Trieste
 * episode (871 frames, 29 s) at 1280x720, 30 fps, CRF 18:
 *
 *   node dist/bench/render.js [--rounds 1] [--no-remotion]
 *
 *  native, x264 preset medium (the default)   goal >= 2x real time, peak RSS <= 400 MB
 *  native, x264 preset veryfast                goal >= 3.5x real time
 *  native, two-up (the sample's two attempts at eval #0)
 *  remotion engine (Chromium), same episode   the reference, when Remotion is installed
 *
 * Reported as multiples of real time (video seconds / wall seconds) and as
 * ratios to the Remotion engine.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { probeVideo } from "../src/ffmpeg/probe.ts";
import { ROOT } from "./common.ts";

const CLI = join(ROOT, "dist", "src", "cli.js");
const S = join(ROOT, "rollouts", "sample");
const IN = [join(S, "episodes.jsonl"), "--tasks", join(S, "tasks.jsonl"), "--panos", join(S, "panos")];
const rounds = Number(process.argv[process.argv.indexOf("--rounds") + 1] || 1) || 1;
const withRemotion = !process.argv.includes("--no-remotion");
const load = () => spawnSync("cat", ["/proc/loadavg"], { encoding: "utf8" }).stdout.split(" ").slice(0, 3).join(" ");

interface Timed {
  wallS: number;
  rssMb: number;
  videoS: number;
}

function timed(args: string[], out: string): Timed | string {
  const r = spawnSync("/usr/bin/time", ["-v", process.execPath, CLI, "render", ...args, "-o", out, "--no-progress"], { encoding: "utf8" });
  if (r.status !== 0)
    return `exit ${r.status}: ${(r.stderr || "")
      .split("\n")
      .filter((l) => !/^\s/.test(l))
      .slice(-3)
      .join(" ")}`;
  const wall = /Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)/.exec(r.stderr)!;
  const wallS = Number(wall[1] ?? 0) * 3600 + Number(wall[2]) * 60 + Number(wall[3]);
  const rssMb = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr)![1]) / 1024;
  const p = probeVideo(out);
  return { wallS, rssMb, videoS: p.frames / p.fps };
}

const work = mkdtempSync(join(tmpdir(), "georeplay-bench-render-"));
const cases: [string, string[]][] = [
  ["native, preset medium", [...IN, "--episode", "90a9d3eba5ce"]],
  ["native, preset veryfast", [...IN, "--episode", "90a9d3eba5ce", "--preset", "veryfast"]],
  ["native, two-up (two attempts at eval #0)", [...IN, "--episode", "d37a27bd393a", "--versus", "ff03ebd569bb"]],
];
if (withRemotion) cases.push(["remotion engine (Chromium), preset medium", [...IN, "--episode", "90a9d3eba5ce", "--engine", "remotion"]]);

console.log(`render: whole processes, 1280x720, 30 fps, CRF 18; best of ${rounds}; load ${load()}`);
const best = new Map<string, Timed>();
try {
  for (let round = 0; round < rounds; round++) {
    for (const [name, args] of cases) {
      const r = timed(args, join(work, `${round}-${best.size}.mp4`));
      if (typeof r === "string") {
        console.log(`  ${name}: failed (${r})`);
        continue;
      }
      const prev = best.get(name);
      if (!prev || r.wallS < prev.wallS) best.set(name, r);
    }
  }
  const ref = best.get("remotion engine (Chromium), preset medium");
  for (const [name] of cases) {
    const r = best.get(name);
    if (!r) continue;
    const vsRef = ref && name !== "remotion engine (Chromium), preset medium" ? ` · ${(ref.wallS / r.wallS).toFixed(2)}x faster than the Remotion engine` : "";
    console.log(
      `  ${name.padEnd(44)} ${r.wallS.toFixed(1).padStart(6)} s wall · ${(r.videoS / r.wallS).toFixed(2)}x real time (${r.videoS.toFixed(1)} s of video) · peak RSS ${r.rssMb.toFixed(0)} MB${vsRef}`,
    );
  }
  console.log(`  goals: native medium >= 2x real time and <= 400 MB; veryfast >= 3.5x; load after: ${load()}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
