/**
 * Render speed, in one run (same machine load), at 1280x720 30 fps on the
 * bundled Trieste episode:
 *
 *   node dist/bench/render.js [--size 1280x720] [--fps 30] [--concurrency 1] [--explore]
 *
 *  1. end to end: the whole `georeplay render` process (frame files, bundle,
 *     browser, video), timed with /usr/bin/time -v, as video frames per
 *     second of wall time, against real time (the goal: >= fps);
 *  2. in one warm session: the trivial composition (Remotion and Chromium's
 *     fixed per-frame cost, every frame rendered), Rollout rendered in full
 *     (every frame screenshotted) and hold-aware (each run of equal frames
 *     once), with the same encoder: the hold-aware speed-up, and Rollout
 *     against Trivial.
 *  --explore adds hold-aware variants (PNG screenshots, concurrency 2).
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { generateFrames } from "../replay/frames/frames.ts";
import { openSession } from "../src/mp4/session.ts";
import { resolveBrowser } from "../src/mp4/browser.ts";
import { parseSize } from "../src/mp4/size.ts";
import { probeVideo } from "../src/mp4/ffmpeg.ts";
import { ROOT, fmt } from "./common.ts";

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

const size = parseSize(arg("size", "1280x720"));
const fps = Number(arg("fps", "30"));
const concurrency = Number(arg("concurrency", "1"));
const explore = process.argv.includes("--explore");
const TRIESTE = join(ROOT, "test", "fixtures", "trieste");
const CLI = join(ROOT, "dist", "src", "cli.js");
const load = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");

/** `/usr/bin/time -v` output: wall clock seconds and peak RSS (MB). */
function timeV(stderr: string): { wallS: number; rssMb: number } {
  const wall = /Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)/.exec(stderr);
  const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr);
  if (!wall) throw new Error(`no /usr/bin/time output in: ${stderr.slice(-500)}`);
  return { wallS: Number(wall[1] ?? 0) * 3600 + Number(wall[2]) * 60 + Number(wall[3]), rssMb: rss ? Number(rss[1]) / 1024 : NaN };
}

const work = mkdtempSync(join(tmpdir(), "georeplay-bench-render-"));
try {
  console.log(`render · Trieste episode #1 at ${size.width}x${size.height}, ${fps} fps, concurrency ${concurrency} · load ${load()}`);

  // 1. The whole process, as a user runs it.
  const out = join(work, "cli.mp4");
  const cliArgs = [
    CLI,
    "render",
    join(TRIESTE, "episodes.jsonl"),
    "--episode",
    "#1",
    "--tasks",
    join(TRIESTE, "tasks.jsonl"),
    "--panos",
    join(TRIESTE, "panos"),
    "-o",
    out,
    "--size",
    `${size.width}x${size.height}`,
    "--fps",
    String(fps),
    "--concurrency",
    String(concurrency),
  ];
  const cli = spawnSync("/usr/bin/time", ["-v", process.execPath, ...cliArgs], { encoding: "utf8", cwd: ROOT, maxBuffer: 64 * 1024 * 1024 });
  if (cli.status !== 0) throw new Error(`georeplay render failed (${cli.status}): ${cli.stderr.slice(-2000)}`);
  const e2e = timeV(cli.stderr);
  const frames = probeVideo(out).frames;
  const e2eFps = frames / e2e.wallS;
  console.log(
    `  georeplay render, whole process : ${fmt(e2e.wallS)} s for ${frames} frames (${fmt(frames / fps)} s of video) · ${fmt(e2eFps)} fps · ${fmt(e2eFps / fps, 2)}x real time · peak RSS ${fmt(e2e.rssMb, 0)} MB`,
  );
  console.log(`    (${cli.stdout.trim().split("\n").at(-1)})`);

  // 2. One warm session, same encoder for every variant.
  const gen = await generateFrames({
    episodes: [join(TRIESTE, "episodes.jsonl")],
    episode: "#1",
    tasks: join(TRIESTE, "tasks.jsonl"),
    panos: join(TRIESTE, "panos"),
    publicDir: join(work, "public"),
    fps,
  });
  const props = { ...gen.timeline, output: size };
  const session = await openSession({ publicDir: join(work, "public"), browserExecutable: resolveBrowser() });
  const speed: Record<string, number> = {};
  try {
    const variants: [string, Parameters<typeof session.renderHoldAware>[0]][] = [
      ["Trivial (every frame)", { composition: "Trivial", props, outputLocation: join(work, "trivial.mp4"), concurrency }],
      ["Rollout full (every frame)", { composition: "Rollout", props, outputLocation: join(work, "full.mp4"), holds: false, concurrency }],
      ["Rollout hold-aware", { composition: "Rollout", props, outputLocation: join(work, "hold.mp4"), concurrency }],
    ];
    if (explore) {
      variants.push([
        "Rollout hold-aware, PNG screenshots",
        { composition: "Rollout", props, outputLocation: join(work, "hold-png.mp4"), imageFormat: "png", concurrency },
      ]);
      variants.push(["Rollout hold-aware, concurrency 2", { composition: "Rollout", props, outputLocation: join(work, "hold-c2.mp4"), concurrency: 2 }]);
    }
    for (const [name, opts] of variants) {
      const r = await session.renderHoldAware(opts);
      speed[name] = r.frames / (r.ms / 1000);
      console.log(
        `  ${name.padEnd(36)}: ${fmt(r.ms / 1000)} s · ${r.rendered}/${r.frames} screenshots · ${fmt(speed[name])} video fps · ${fmt(statSync(opts.outputLocation).size / 1e6, 2)} MB · load ${load()}`,
      );
    }
  } finally {
    await session.close();
  }
  const trivial = speed["Trivial (every frame)"];
  const full = speed["Rollout full (every frame)"];
  const hold = speed["Rollout hold-aware"];
  console.log(`  hold-aware speed-up over a full render of the same episode: ${fmt(hold / full, 2)}x`);
  console.log(`  Rollout hold-aware vs Trivial: ${fmt(hold / trivial, 2)}x the trivial composition's speed (full render: ${fmt(full / trivial, 2)}x)`);
  console.log(`  end to end: ${fmt(e2eFps, 1)} fps = ${fmt(e2eFps / trivial, 2)}x Trivial's render speed, ${fmt(e2eFps / fps, 2)}x real time (goal >= 1.00x)`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
