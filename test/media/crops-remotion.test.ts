/**
 * `--engine remotion` films crops videos as it films GeoGuesser's: the Remotion root registers
 * every environment's compositions from the registry (video/remotion/Root.tsx), so a crops
 * episode and a crops group render through the same bundle. Real MP4s from the CLI, checked with
 * ffprobe against the native engine's (size, fps, frame count, duration equal); then Remotion
 * stills of the same frames (rendered by real Chromium through src/film/remotion/session.ts)
 * compared with the native frames, as test/media/remotion-parity.test.ts does for GeoGuesser:
 * PSNR over the whole frame must reach MIN_PSNR_DB.
 */
import { afterAll, describe, expect, it } from "vitest";
// Every environment's compositions, registered before a scene is built.
import "../../envs/compositions.ts";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PNG } from "pngjs";
import { FIXTURES, runCli } from "../helpers.ts";
import { cropRgb, paintNative, psnr, wholeRect } from "../video-helpers.ts";
import { probeVideo } from "../../src/ffmpeg/probe.ts";
import { openSession } from "../../src/film/remotion/session.ts";
import { resolveBrowser } from "../../src/film/remotion/browser.ts";
import { withTextPlan } from "../../src/film/shared/text-plan.ts";
import { videoFps, videoFrames, videoSize, type VideoSpec } from "../../video/compositions.ts";
import { prepareCrops } from "../../envs/crops/src/film/render-crops.ts";
import { prepareCropsGroup } from "../../envs/crops/src/film/render-crops-group.ts";
import type { CropsVideoProps } from "../../envs/crops/video/props.ts";
import type { CropsGroupProps } from "../../envs/crops/video/group-props.ts";
import { cropsGroupClock } from "../../envs/crops/video/group-clock.ts";

/** Same floor as GeoGuesser's parity test (text-heavy regions are the lowest there: 31-44 dB). */
const MIN_PSNR_DB = 30;

const SAMPLE = join(FIXTURES, "crops", "sample");
const EVAL = join(SAMPLE, "eval", "episodes.jsonl");
const TRAIN = join(SAMPLE, "train");
const EPISODE = "c46800576146";
const GROUP = "0/train/0";
const SIZE = { width: 640, height: 360 };

const tmp = mkdtempSync(join(tmpdir(), "georeplay-crops-remotion-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const measured: string[] = [];
afterAll(() => console.log(`crops: native vs Remotion PSNR (dB):\n${measured.join("\n")}`));

/** The same video rendered by both engines from the CLI: equal size, rate, frame count and duration. */
function expectSameVideo(args: string[], name: string): void {
  const probes = (["native", "remotion"] as const).map((engine) => {
    const out = join(tmp, `${name}-${engine}.mp4`);
    const r = runCli(["render", ...args, "-o", out, "--size", `${SIZE.width}x${SIZE.height}`, "--fps", "10", "--engine", engine, "--json"]);
    expect(r.stderr, `${engine}: ${r.stderr}`).not.toMatch(/Error|at \w+ \(/);
    expect(r.code, `${engine}: ${r.stderr}`).toBe(0);
    const report = JSON.parse(r.stdout) as { env: string; frames: number; fps: number; width: number; height: number };
    expect(report).toMatchObject({ env: "crops", fps: 10, width: SIZE.width, height: SIZE.height });
    const p = probeVideo(out);
    expect(p).toMatchObject({ codec: "h264", pixFmt: "yuv420p", width: SIZE.width, height: SIZE.height, fps: 10 });
    expect(p.frames).toBe(report.frames);
    return p;
  });
  const [native, remotion] = probes;
  expect([remotion.width, remotion.height, remotion.fps, remotion.frames]).toEqual([native.width, native.height, native.fps, native.frames]);
  expect(remotion.durationS).toBeCloseTo(native.durationS, 1);
}

/** Remotion stills of `frames` against the native engine's frames of the same spec. */
async function expectParity(name: string, spec: VideoSpec, frames: number[], publicDir: string): Promise<void> {
  const planned = withTextPlan(spec);
  const session = await openSession({ publicDir, browserExecutable: resolveBrowser() });
  try {
    const c = await session.select(planned.composition, planned.props);
    const size = videoSize(planned);
    expect([c.durationInFrames, c.fps, c.width, c.height]).toEqual([videoFrames(planned), videoFps(planned), size.width, size.height]);
    const native = await paintNative(planned, frames, publicDir);
    for (const [i, frame] of frames.entries()) {
      const file = join(tmp, `${name}-${frame}.png`);
      await session.renderStillPng(planned.composition, planned.props, frame, file);
      const still = PNG.sync.read(readFileSync(file));
      expect([still.width, still.height]).toEqual([native[i].width, native[i].height]);
      const db = psnr(cropRgb(still, wholeRect(still)), cropRgb(native[i], wholeRect(native[i])));
      measured.push(`${name} frame ${frame}: whole ${db === Infinity ? "inf" : db.toFixed(1)}`);
      expect(db, `${name} frame ${frame}: PSNR native vs Remotion`).toBeGreaterThanOrEqual(MIN_PSNR_DB);
    }
  } finally {
    await session.close();
  }
}

describe("--engine remotion on a crops run", () => {
  it("an episode: the same MP4 shape as the native engine's, and frames that match it (mid-episode, the score card)", async () => {
    expectSameVideo([EVAL, "--episode", EPISODE], "episode");
    const p = await prepareCrops({ inputs: [EVAL], episode: EPISODE, fps: 10, size: SIZE });
    try {
      const t = (p.spec.props as unknown as CropsVideoProps).timeline.totalFrames;
      await expectParity("episode", p.spec, [Math.round(t * 0.3), Math.round(t * 0.6), t + 20], p.publicDir);
    } finally {
      p.dispose();
    }
  }, 900_000);

  it("a GRPO group: the same MP4 shape as the native engine's, and frames that match it (the grid mid-turn, the group's score card)", async () => {
    expectSameVideo([TRAIN, "--group", GROUP], "group");
    const p = await prepareCropsGroup({ inputs: [TRAIN], group: GROUP, fps: 10, size: SIZE });
    try {
      const c = cropsGroupClock(p.spec.props as unknown as CropsGroupProps);
      await expectParity("group", p.spec, [c.turnStarts[2] + 7, c.gridFrames + 15], p.publicDir);
    } finally {
      p.dispose();
    }
  }, 900_000);
});
