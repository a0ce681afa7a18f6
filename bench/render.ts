/**
 * Rollout render speed against a trivial composition of the same size and
 * length, in one run (same bundle, same Chromium, same machine load):
 *
 *   node dist/bench/render.js [--size 1280x720] [--fps 30] [--concurrency 1,2] [--frames N]
 *
 *   [--preset veryfast]  (x264 preset; default: what georeplay render uses, veryfast)
 *
 * Renders the bundled Trieste episode with `Rollout`, then with `Trivial`,
 * for each concurrency given, and prints both speeds (video frames per
 * second of wall time) and the ratio. Goal: Rollout within 1.3x of Trivial,
 * and at least real time (30 fps) at 1280x720.
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateFrames } from "../replay/frames/frames.ts";
import { openSession, type X264Preset } from "../src/mp4/session.ts";
import { resolveBrowser } from "../src/mp4/browser.ts";
import { parseSize } from "../src/mp4/size.ts";
import { ROOT, fmt } from "./common.ts";

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

const size = parseSize(arg("size", "1280x720"));
const fps = Number(arg("fps", "30"));
const concurrencies = arg("concurrency", "1").split(",").map(Number);
const limit = Number(arg("frames", "0"));
const preset = arg("preset", "") as X264Preset | "";
const TRIESTE = join(ROOT, "test", "fixtures", "trieste");

const work = mkdtempSync(join(tmpdir(), "georeplay-bench-render-"));
try {
  const t0 = performance.now();
  const gen = await generateFrames({
    episodes: [join(TRIESTE, "episodes.jsonl")],
    episode: "#1",
    tasks: join(TRIESTE, "tasks.jsonl"),
    panos: join(TRIESTE, "panos"),
    publicDir: join(work, "public"),
    fps,
  });
  const framesMs = performance.now() - t0;
  const props = { ...gen.timeline, output: size };
  const frames = limit > 0 ? Math.min(limit, props.totalFrames) : props.totalFrames;
  const frameRange: [number, number] | undefined = limit > 0 ? [0, frames - 1] : undefined;
  const t1 = performance.now();
  const session = await openSession({ publicDir: join(work, "public"), browserExecutable: resolveBrowser() });
  const setupMs = performance.now() - t1;
  console.log(
    `episode ${props.episode.episodeId}: ${frames} frames (${fmt(frames / fps, 1)} s of video) at ${size.width}x${size.height}, ${fps} fps` +
      ` · frame files ${fmt(framesMs / 1000)} s · bundle + browser ${fmt(setupMs / 1000)} s`,
  );
  try {
    for (const concurrency of concurrencies) {
      const speed: Record<string, number> = {};
      for (const composition of ["Rollout", "Trivial"] as const) {
        const out = join(work, `${composition}-${concurrency}.mp4`);
        const r = await session.renderMp4({ composition, props, outputLocation: out, concurrency, frameRange, x264Preset: preset || undefined });
        speed[composition] = frames / (r.ms / 1000);
        console.log(
          `  ${composition.padEnd(8)} concurrency ${concurrency}: ${fmt(r.ms / 1000)} s · ${fmt(speed[composition])} fps · ${fmt(statSync(out).size / 1e6, 2)} MB`,
        );
      }
      const ratio = speed.Trivial / speed.Rollout;
      console.log(
        `  Rollout takes ${fmt(ratio, 2)}x the trivial composition's time (goal <= 1.30x)` +
          ` · ${speed.Rollout >= fps ? "faster than" : "slower than"} real time (${fmt(speed.Rollout)} vs ${fps} fps)`,
      );
    }
  } finally {
    await session.close();
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
