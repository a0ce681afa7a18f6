/**
 * Two-up render speed: `Compare` against `Rollout` for the same number of
 * video frames, in one run (same bundle, same Chromium, same machine load):
 *
 *   node dist/bench/compare.js [--size 1280x720] [--fps 30] [--frames N] [--rounds 1]
 *
 * A is base's attempt at eval #0 of the arms fixture, B ckpt200's pass 1;
 * Rollout renders A alone. Both render frames 0..N-1 (default: all of A's
 * timeline). Goal: Compare within 1.5x of Rollout's time.
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateFrames } from "../replay/frames/frames.ts";
import { alignTimelines } from "../replay/timeline/align.ts";
import { openSession } from "../src/mp4/session.ts";
import { resolveBrowser } from "../src/mp4/browser.ts";
import { parseSize } from "../src/mp4/size.ts";
import type { CompareProps } from "../video/compare-props.ts";
import { ROOT, MIXED, fmt } from "./common.ts";

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

const size = parseSize(arg("size", "1280x720"));
const fps = Number(arg("fps", "30"));
const limit = Number(arg("frames", "0"));
const rounds = Math.max(1, Number(arg("rounds", "1")));
const ARMS = join(ROOT, "test", "fixtures", "arms");

const work = mkdtempSync(join(tmpdir(), "georeplay-bench-compare-"));
try {
  const publicDir = join(work, "public");
  const gen = (episode: string, dir: string) =>
    generateFrames({ episodes: [ARMS], episode, tasks: join(MIXED, "tasks.jsonl"), panos: join(MIXED, "panos"), publicDir, out: join(publicDir, dir), fps });
  const a = (await gen("d37a27bd393a", "a")).timeline;
  const b = (await gen("ff03ebd569bb", "b")).timeline;
  const compare: CompareProps = {
    version: 1,
    a: { timeline: a, arm: "base", pass: 0, label: "A · base" },
    b: { timeline: b, arm: "ckpt200", pass: 1, label: "B · ckpt200" },
    output: size,
  };
  const clock = alignTimelines(a, b);
  const frames = Math.min(limit > 0 ? limit : a.totalFrames, a.totalFrames, clock.totalFrames);
  const frameRange: [number, number] = [0, frames - 1];
  const session = await openSession({ publicDir, browserExecutable: resolveBrowser() });
  console.log(
    `${frames} frames (${fmt(frames / fps, 1)} s of video) at ${size.width}x${size.height}, ${fps} fps; the whole two-up video is ${clock.totalFrames} frames`,
  );
  try {
    const ms: Record<string, number[]> = { Rollout: [], Compare: [] };
    for (let round = 0; round < rounds; round++) {
      // Alternate the order each round so neither always runs on a warmer machine.
      const order = round % 2 === 0 ? (["Rollout", "Compare"] as const) : (["Compare", "Rollout"] as const);
      for (const composition of order) {
        const out = join(work, `${composition}-${round}.mp4`);
        const props = composition === "Rollout" ? { ...a, output: size } : compare;
        const r = await session.renderMp4({ composition, props, outputLocation: out, frameRange });
        ms[composition].push(r.ms);
        console.log(
          `  ${composition.padEnd(8)} round ${round + 1}: ${fmt(r.ms / 1000)} s · ${fmt(frames / (r.ms / 1000))} fps · ${fmt(statSync(out).size / 1e6, 2)} MB`,
        );
      }
    }
    const best = (xs: number[]) => Math.min(...xs);
    const ratio = best(ms.Compare) / best(ms.Rollout);
    console.log(`  Compare takes ${fmt(ratio, 2)}x Rollout's time for the same frames (best of ${rounds}; goal <= 1.50x)`);
  } finally {
    await session.close();
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
