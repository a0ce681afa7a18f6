/**
 * Render speed and memory, whole `georeplay render` processes as a user runs
 * them (/usr/bin/time -v), side by side in one run on the bundled Trieste
 * episode (871 frames, 29 s) at 1280x720, 30 fps, CRF 18:
 *
 *   node dist/bench/render.js [--rounds 1] [--pairs 3] [--no-remotion]
 *
 *  native, x264 preset medium (the default)   goal >= 2x real time, peak RSS <= 400 MB
 *  native, x264 preset veryfast                goal >= 3.5x real time
 *  native, two-up (the sample's two attempts at eval #0)
 *  remotion engine (Chromium), same episode   the reference, when Remotion is installed
 *
 * Reported as multiples of real time (video seconds / wall seconds) and as
 * ratios to the Remotion engine. Then the floor: x264 alone on the very raw
 * frames the native engine piped (captured once through a tee in front of
 * ffmpeg, replayed from a file with the same arguments and environment) at medium and at
 * veryfast, against the end-to-end renders: goals <= 1.2x and <= 1.5x. On a
 * shared machine one pair moves with the minute's load (1.32-1.50x at medium
 * in one day), so --pairs runs that many (render, x264 alone) pairs per preset,
 * and as many painter-alone runs, and reports the median pair. Where the
 * painter's CPU goes is printed stage by stage (render-stages.ts) and held
 * against the CPU a goal leaves it beside x264.
 */
import { chmodSync, closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { probeVideo } from "../src/ffmpeg/probe.ts";
import { resolveFfmpeg } from "../src/ffmpeg/find.ts";
import { encoderEnv } from "../src/ffmpeg/encoder-env.ts";
import { ROOT } from "./common.ts";

const CLI = join(ROOT, "dist", "src", "cli.js");
const S = join(ROOT, "rollouts", "sample");
const IN = [join(S, "episodes.jsonl"), "--tasks", join(S, "tasks.jsonl"), "--panos", join(S, "panos")];
const option = (name: string, fallback: number) => {
  const i = process.argv.indexOf(name);
  return Math.max(1, (i >= 0 ? Number(process.argv[i + 1]) : fallback) || fallback);
};
const rounds = option("--rounds", 1);
const pairs = option("--pairs", 3);
const withRemotion = !process.argv.includes("--no-remotion");
const load = () => spawnSync("cat", ["/proc/loadavg"], { encoding: "utf8" }).stdout.split(" ").slice(0, 3).join(" ");

interface Timed {
  wallS: number;
  /** User + system time of the process and every child it waited for (ffmpeg included). */
  cpuS: number;
  rssMb: number;
  videoS: number;
}

/** Wall, CPU (the process tree's) and peak RSS from /usr/bin/time -v's report. */
function timeReport(stderr: string): { wallS: number; cpuS: number; rssMb: number } {
  const wall = /Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)/.exec(stderr)!;
  const wallS = Number(wall[1] ?? 0) * 3600 + Number(wall[2]) * 60 + Number(wall[3]);
  const cpuS = Number(/User time \(seconds\): ([\d.]+)/.exec(stderr)![1]) + Number(/System time \(seconds\): ([\d.]+)/.exec(stderr)![1]);
  const rssMb = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(stderr)![1]) / 1024;
  return { wallS, cpuS, rssMb };
}

function timed(args: string[], out: string, env: NodeJS.ProcessEnv = process.env): Timed | string {
  const r = spawnSync("/usr/bin/time", ["-v", process.execPath, CLI, "render", ...args, "-o", out, "--no-progress"], { encoding: "utf8", env });
  if (r.status !== 0) return `exit ${r.status}: ${lastLines(r.stderr || "", 3)}`;
  const p = probeVideo(out);
  return { ...timeReport(r.stderr), videoS: p.frames / p.fps };
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
  x264Alone(cases[0][1], work);
} finally {
  rmSync(work, { recursive: true, force: true });
}

/**
 * x264 alone on the frames the native engine pipes: one render through a
 * wrapper that tees ffmpeg's stdin to a file and records its arguments, then
 * ffmpeg with those arguments and environment fed from the file, at each preset, timed. Then
 * the painter alone: the same render with ffmpeg replaced by a sink (verify,
 * reproject, paint and pipe; no encoding). On a machine whose cores x264
 * already fills, a render cannot beat the two's CPU time shared over the
 * cores: that floor is printed beside the goal. Each preset's end-to-end render
 * is run again right before its x264-alone run, so the pair sees the same load.
 */
function x264Alone(renderArgs: string[], work: string): void {
  const ffmpeg = resolveFfmpeg().path;
  const dir = mkdtempSync(join(tmpdir(), "georeplay-bench-x264-"));
  try {
    const wrapper = join(dir, "ffmpeg");
    writeFileSync(
      wrapper,
      `#!/bin/bash\nif [[ " $* " == *" rawvideo "* ]]; then printf '%s\\0' "$@" > "${dir}/args"; tee "${dir}/raw" | "${ffmpeg}" "$@"; else exec "${ffmpeg}" "$@"; fi\n`,
    );
    chmodSync(wrapper, 0o755);
    const captured = timed(renderArgs, join(dir, "captured.mp4"), { ...process.env, GEOREPLAY_FFMPEG: wrapper });
    if (typeof captured === "string") return void console.log(`  x264 alone: the capture render failed (${captured})`);
    // The sink notes when the first byte arrives, reads every frame and leaves the captured MP4
    // where the encoder would have written.
    const sink = join(dir, "sink");
    writeFileSync(
      sink,
      `#!/bin/bash\nexport LC_ALL=C\nif [[ " $* " == *" rawvideo "* ]]; then IFS= read -r -n 1 -d '' _; date +%s.%N > "${dir}/first"; cat > /dev/null; cp "${dir}/captured.mp4" "\${@: -1}"; else exec "${ffmpeg}" "$@"; fi\n`,
    );
    chmodSync(sink, 0o755);
    // Until the first frame reaches the pipe, ffmpeg has nothing to encode: a render's start-up.
    const painted: { run: Timed; firstS: number }[] = [];
    let painterFailed = "";
    for (let k = 0; k < pairs; k++) {
      const started = Date.now() / 1000;
      const run = timed(renderArgs, join(dir, "painted.mp4"), { ...process.env, GEOREPLAY_FFMPEG: sink });
      if (typeof run === "string") painterFailed = run;
      else painted.push({ run, firstS: Number(readFileSync(join(dir, "first"), "utf8")) - started });
    }
    const mid = median(painted, (p) => p.run.cpuS);
    const painter: Timed | string = mid ? mid.run : painterFailed;
    const firstS = mid ? mid.firstS : NaN;
    const args = readFileSync(join(dir, "args"), "utf8").split("\0").slice(0, -1);
    const cores = availableParallelism();
    console.log(`x264 alone on the native engine's piped frames (same arguments, fed from a file; the floor of a render), ${cores} cores`);
    if (typeof painter !== "string")
      console.log(
        `  painter alone (verify, reproject, paint, pipe into a sink; the median of ${painted.length} by CPU): ${painter.wallS.toFixed(1)} s wall, ${painter.cpuS.toFixed(1)} s CPU (${painted.map((p) => p.run.cpuS.toFixed(1)).join(", ")}), ${painter.rssMb.toFixed(0)} MB; its first frame reaches the pipe ${firstS.toFixed(2)} s after the command starts`,
      );
    const staged = stagesOf(renderArgs);
    if (typeof staged === "string") console.log(`  the painter's work by stage: failed (${staged})`);
    else {
      console.log(
        `  the painter's work by stage, each in turn on one thread (render-stages.ts; the median of ${pairs} by CPU): ${staged.cpuS.toFixed(1)} s CPU in all (the painter's threads: ${typeof painter === "string" ? "?" : painter.cpuS.toFixed(1)} s), ${staged.rssMb.toFixed(0)} MB`,
      );
      for (const [name, s] of Object.entries(staged.stages)) console.log(`    ${name.padEnd(52)} ${s.toFixed(2).padStart(5)} s`);
    }
    for (const preset of ["medium", "veryfast"] as const) {
      const measured: { whole: Timed | undefined; alone: { wallS: number; cpuS: number }; plain: { wallS: number; cpuS: number } | undefined }[] = [];
      for (let k = 0; k < pairs; k++) {
        // The end-to-end render again, right before x264 alone: on a shared machine the load
        // moves within minutes, and the two are compared.
        const rendered = timed([...renderArgs, "--preset", preset], join(work, `paired-${preset}.mp4`));
        const a = [...args];
        a[a.indexOf("-preset") + 1] = preset;
        a[a.length - 1] = join(dir, `alone-${preset}.mp4`);
        // x264 alone as the render runs ffmpeg (the same arguments and environment: the goal's
        // measure), then as a plain `ffmpeg ... < raw` with glibc's defaults (encoder-env.ts).
        const alone = (env: NodeJS.ProcessEnv) => {
          const fd = openSync(join(dir, "raw"), "r");
          const r = spawnSync("/usr/bin/time", ["-v", ffmpeg, ...a], { stdio: [fd, "ignore", "pipe"], encoding: "utf8", env });
          closeSync(fd);
          if (r.status === 0) return timeReport(r.stderr);
          console.log(`  ${preset}: ffmpeg failed (${r.stderr.trim().split("\n").slice(-2).join(" / ")})`);
          return undefined;
        };
        const same = alone(encoderEnv());
        if (!same) continue;
        const { GLIBC_TUNABLES: _, ...plainEnv } = process.env;
        measured.push({ whole: typeof rendered === "string" ? undefined : rendered, alone: same, plain: alone(plainEnv) });
      }
      const ratioOf = (m: (typeof measured)[number]) => (m.whole ? m.whole.wallS / m.alone.wallS : NaN);
      const pair = median(measured, ratioOf);
      if (!pair) continue;
      const { whole, alone } = pair;
      const goal = preset === "medium" ? 1.2 : 1.5;
      const ratio = ratioOf(pair);
      // Both sharing the cores: the render cannot finish before their CPU time is spent.
      const floor = typeof painter === "string" ? alone.wallS : Math.max(alone.wallS, painter.wallS, (alone.cpuS + painter.cpuS) / cores);
      console.log(
        `  preset ${preset.padEnd(8)}: x264 alone ${alone.wallS.toFixed(1)} s (${alone.cpuS.toFixed(1)} s CPU) · end to end ${whole ? `${whole.wallS.toFixed(1)} s (${whole.cpuS.toFixed(1)} s CPU)` : "?"} = ${ratio.toFixed(2)}x x264's own time (goal <= ${goal}x)`,
      );
      const plainOf = (m: (typeof measured)[number]) => (m.whole && m.plain ? m.whole.wallS / m.plain.wallS : NaN);
      const plain = median(measured, plainOf);
      if (plain?.plain)
        console.log(
          `    x264 alone with glibc's default allocator (plain ffmpeg; the render runs it with encoder-env.ts): ${plain.plain.wallS.toFixed(1)} s (${plain.plain.cpuS.toFixed(1)} s CPU); the end to end is ${plainOf(plain).toFixed(2)}x that (the median of ${measured
            .map(plainOf)
            .sort((x, y) => x - y)
            .map((x) => `${x.toFixed(2)}x`)
            .join(", ")})`,
        );
      if (measured.length > 1)
        console.log(
          `    the median of ${measured.length} pairs, each a render then x264 alone: ${measured
            .map(ratioOf)
            .sort((x, y) => x - y)
            .map((x) => `${x.toFixed(2)}x`)
            .join(", ")}`,
        );
      if (whole)
        console.log(
          `    CPU: end to end ${(whole.cpuS / alone.cpuS).toFixed(2)}x x264's, x264 + painter alone ${((alone.cpuS + (typeof painter === "string" ? 0 : painter.cpuS)) / alone.cpuS).toFixed(2)}x (load ${load()})`,
        );
      console.log(
        `    floor with the painter on ${cores} cores: ${floor.toFixed(1)} s = ${(floor / alone.wallS).toFixed(2)}x x264's time${
          ratio > goal
            ? ` · missed: ${floor / alone.wallS > goal ? "out of reach here (x264 and the painter share the cores)" : `${(whole!.wallS - floor).toFixed(1)} s above that floor`}`
            : ""
        }`,
      );
      if (whole && typeof painter !== "string") {
        // Sharing the cores costs CPU too (caches, switches): the render's own CPU time, perfectly
        // packed, is the tighter floor; and what the painter may spend for the goal to be reachable.
        const packed = whole.cpuS / cores;
        const budget = goal * alone.wallS * cores - alone.cpuS;
        console.log(
          `    the render's own CPU time over ${cores} cores: ${packed.toFixed(1)} s = ${(packed / alone.wallS).toFixed(2)}x · for ${goal}x the painter may spend at most ${budget.toFixed(1)} s CPU beside x264 (alone it spends ${painter.cpuS.toFixed(1)} s; sharing, ${(whole.cpuS - alone.cpuS).toFixed(1)} s)`,
        );
        // What stands in the way, by stage: their sum, and how many of the largest alone exceed the budget.
        if (typeof staged !== "string") {
          const largest = Object.entries(staged.stages).sort((x, y) => y[1] - x[1]);
          const total = largest.reduce((t, [, s]) => t + s, 0);
          let sum = 0;
          const over = largest.findIndex(([, s]) => (sum += s) > budget);
          console.log(
            `    against that budget, the painter's stages sum to ${total.toFixed(1)} s (the largest: ${largest
              .slice(0, 3)
              .map(([n, s]) => `${n.split(",")[0]} ${s.toFixed(2)}`)
              .join(", ")})${over >= 0 ? `; the largest ${over + 1} alone exceed it` : `; ${(budget - total).toFixed(1)} s of it left beside them`}`,
          );
        }
        // The render's start-up (no frame for x264 yet) apart from the encoding that follows it.
        console.log(
          `    before the first frame: ${firstS.toFixed(2)} s (the painter-alone run's) = ${(firstS / alone.wallS).toFixed(2)}x x264's time; the rest, ${(whole.wallS - firstS).toFixed(1)} s, is ${((whole.wallS - firstS) / alone.wallS).toFixed(2)}x`,
        );
        // x264 alone does not keep every core busy (its frame threads wait on each other and on
        // ffmpeg's one thread that reads and converts): a render that uses the cores only as well
        // as x264 does takes this long; below it only if the painter fills x264's idle moments.
        const busy = alone.cpuS / alone.wallS;
        const atPace = whole.cpuS / busy;
        console.log(
          `    at x264's own use of the cores (alone it keeps ${busy.toFixed(2)} of ${cores} busy): ${atPace.toFixed(1)} s = ${(atPace / alone.wallS).toFixed(2)}x; the render keeps ${(whole.cpuS / whole.wallS).toFixed(2)} busy`,
        );
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * render-stages.ts on the render's episode, `pairs` times as whole processes: its stages' CPU (the
 * median run by CPU) and the process's own figures.
 */
function stagesOf(renderArgs: string[]): (Timed & { stages: Record<string, number> }) | string {
  const [episodes, , tasks, , panos, , episode] = renderArgs;
  const runs: (Timed & { stages: Record<string, number> })[] = [];
  for (let k = 0; k < pairs; k++) {
    const r = spawnSync("/usr/bin/time", ["-v", process.execPath, join(ROOT, "dist", "bench", "render-stages.js"), episodes, tasks, panos, episode], {
      encoding: "utf8",
    });
    if (r.status !== 0) return `exit ${r.status}: ${lastLines(r.stderr, 2)}`;
    const { stages } = JSON.parse(r.stdout) as { stages: Record<string, number> };
    runs.push({ ...timeReport(r.stderr), videoS: 0, stages });
  }
  return median(runs, (r) => r.cpuS)!;
}

/** A failed command's last `n` lines of its own on stderr (/usr/bin/time's indented report left out). */
function lastLines(stderr: string, n: number): string {
  return stderr
    .split("\n")
    .filter((l) => !/^\s/.test(l))
    .slice(-n)
    .join(" ");
}

/** The middle element by `key` (the lower of the two middle ones for an even count); undefined when empty. */
function median<T>(xs: T[], key: (x: T) => number): T | undefined {
  const sorted = [...xs].sort((a, b) => key(a) - key(b));
  return sorted[(sorted.length - 1) >> 1];
}
