/**
 * The Remotion engine draws what the native engine draws. Both paint the
 * same scenes with the same painter (video/paint.ts) and the same lines
 * (the text plan laid out in Node, props.text); they may differ only in
 * rasterisation (Skia in Node against Chromium's canvas: antialiasing, image
 * filtering). Stills of the Rollout and Compare compositions, rendered by
 * real Chromium through src/film/remotion/session.ts, are compared with the
 * native frames of the same frame numbers: PSNR over the whole frame and per
 * layout region must reach MIN_PSNR_DB. The threshold is tight enough that a
 * layout drift fails: the HUD moved by 4 px (a modified scene painted
 * natively) falls below it. Also the compositions' metadata
 * (Root.tsx's calculateMetadata): duration, fps and size from the props, the
 * Studio's default props from the public dir, invalid props refused.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// Every environment's compositions, registered before a scene is built.
import "../../envs/compositions.ts";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PNG } from "pngjs";
import {
  armsTimeline,
  boxOf,
  compareRegions,
  cropRgb,
  paintNative,
  paintScene,
  psnr,
  rolloutRegions,
  triesteTimeline,
  twoUpSpec,
  tx,
  wholeRect,
} from "../video-helpers.ts";
import type { Timeline } from "../../envs/geoguesser/replay/timeline/timeline-schema.ts";
import { alignTimelines } from "../../envs/geoguesser/replay/timeline/align.ts";
import { openSession, type RenderSession } from "../../src/film/remotion/session.ts";
import { resolveBrowser } from "../../src/film/remotion/browser.ts";
import { withTextPlan } from "../../src/film/shared/text-plan.ts";
import { RolloutPropsSchema, type RolloutProps } from "../../envs/geoguesser/video/rollout/props.ts";
import type { CompareProps } from "../../envs/geoguesser/video/compare/props.ts";
import { PLACEHOLDER } from "../../envs/geoguesser/video/rollout/placeholder.ts";
import { COMPARE_PLACEHOLDER } from "../../envs/geoguesser/video/compare/placeholder.ts";
import { rolloutLayout, type Rect } from "../../video/scene/layout.ts";
import { sceneAt, type VideoSpec } from "../../video/compositions.ts";
import type { Scene } from "../../video/scene/types.ts";

/**
 * Measured (Debian's Chromium, 2 cores): whole frames 36-42 dB; lowest regions are text-heavy
 * (trace panes 31.4-44 dB, HUDs 32.6-36.4 dB, headers 36-39 dB); viewports identical (inf) or
 * 47-52 dB. The HUD moved 4 px (right or down) drops to ~17 dB, 1 px to ~20 dB (logged).
 */
const MIN_PSNR_DB = 30;

const tmp = mkdtempSync(join(tmpdir(), "georeplay-parity-"));
const publicDir = join(tmp, "public");
let trieste: Timeline;
let base: Timeline;
let ckpt: Timeline;
let session: RenderSession;

beforeAll(async () => {
  // 10 fps: fewer frame files for the bundle to copy; every segment kind all the same.
  trieste = await triesteTimeline(publicDir, 10);
  base = await armsTimeline(publicDir, "d37a27bd393a", "rollouts/pair-a", 10);
  ckpt = await armsTimeline(publicDir, "ff03ebd569bb", "rollouts/pair-b", 10);
  // The bundle copies the public dir: every frame file exists before it is made.
  session = await openSession({ publicDir, browserExecutable: resolveBrowser() });
}, 900_000);
afterAll(async () => {
  await session?.close();
  rmSync(tmp, { recursive: true, force: true });
});

const WIDE = { width: 1280, height: 720 };
const SQUARE = { width: 1080, height: 1080 };

const rollout = (t: Timeline, output = WIDE): VideoSpec => withTextPlan({ composition: "Rollout", props: RolloutPropsSchema.parse({ ...t, output }) });
const compare = (output = WIDE): VideoSpec => withTextPlan(twoUpSpec(base, ckpt, output));

async function still(spec: VideoSpec, frame: number): Promise<PNG> {
  const file = join(tmp, `still-${spec.composition}-${frame}-${Math.random().toString(36).slice(2)}.png`);
  await session.renderStillPng(spec.composition, spec.props, frame, file);
  return PNG.sync.read(readFileSync(file));
}

function frameIn(t: Timeline, kind: string, offset: number, nth = 0): number {
  const s = t.segments.filter((x) => x.kind === kind)[nth];
  return s.startFrame + Math.min(offset, s.durationFrames - 1);
}

/** The score card's map (the scene's map primitive) and the rest. */
function scoreRegions(spec: VideoSpec, frame: number): [string, Rect][] {
  const scene = sceneAt(spec, frame, tx());
  const m = scene.prims.find((p) => p.t === "map") as Extract<Scene["prims"][number], { t: "map" }>;
  const map: Rect = { x: Math.ceil(m.x), y: Math.ceil(m.y), width: Math.floor(m.w), height: Math.floor(m.h) };
  return [
    ["map", map],
    ["numbers", { x: map.x + map.width, y: 0, width: scene.width - map.x - map.width, height: scene.height }],
  ];
}

const measured: string[] = [];
afterAll(() => console.log(`native vs Remotion PSNR (dB):\n${measured.join("\n")}`));

async function expectParity(name: string, spec: VideoSpec, frame: number, regions: [string, Rect][]): Promise<void> {
  const remotion = await still(spec, frame);
  const [native] = await paintNative(spec, [frame], publicDir);
  expect([remotion.width, remotion.height]).toEqual([native.width, native.height]);
  const all: [string, Rect][] = [["whole", wholeRect(native)], ...regions];
  const line: string[] = [];
  for (const [region, r] of all) {
    const db = psnr(cropRgb(remotion, r), cropRgb(native, r));
    line.push(`${region} ${db === Infinity ? "inf" : db.toFixed(1)}`);
    expect(db, `${name} frame ${frame}: ${region} PSNR native vs Remotion`).toBeGreaterThanOrEqual(MIN_PSNR_DB);
  }
  measured.push(`${name} (frame ${frame}): ${line.join(", ")}`);
}

describe("Remotion stills equal native frames within the stated PSNR", () => {
  const cases: [string, () => VideoSpec, () => number, () => [string, Rect][]][] = [
    ["rollout opening", () => rollout(trieste), () => frameIn(trieste, "opening", 8), () => rolloutRegions(trieste, WIDE)],
    ["rollout camera", () => rollout(trieste), () => frameIn(trieste, "camera", 20, 1), () => rolloutRegions(trieste, WIDE)],
    ["rollout map", () => rollout(trieste), () => frameIn(trieste, "map", 10), () => rolloutRegions(trieste, WIDE)],
    ["rollout move", () => rollout(trieste), () => frameIn(trieste, "move", 2), () => rolloutRegions(trieste, WIDE)],
    ["rollout score", () => rollout(trieste), () => frameIn(trieste, "score", 30), () => scoreRegions(rollout(trieste), frameIn(trieste, "score", 30))],
    ["rollout square camera", () => rollout(trieste, SQUARE), () => frameIn(trieste, "camera", 20, 1), () => rolloutRegions(trieste, SQUARE)],
    ["compare aligned", () => compare(), () => alignedFrame(2, 10), () => compareRegions(WIDE, [base.viewport, ckpt.viewport], { credit: false })],
    ["compare hold", () => compare(), () => alignedFrame(10, 10), () => compareRegions(WIDE, [base.viewport, ckpt.viewport], { credit: false })],
    [
      "compare score",
      () => compare(),
      () => alignTimelines(base, ckpt).scoreStart + 30,
      () => scoreRegions(compare(), alignTimelines(base, ckpt).scoreStart + 30),
    ],
  ];
  for (const [name, spec, frame, regions] of cases) {
    it(
      name,
      async () => {
        await expectParity(name, spec(), frame(), regions());
      },
      300_000,
    );
  }

  it("is tight enough that a layout drift fails: the HUD moved 4 px right drops below it", async () => {
    const spec = rollout(trieste);
    const f = frameIn(trieste, "camera", 20, 1);
    const L = rolloutLayout(1280, 720, trieste.viewport);
    const scene = sceneAt(spec, f, tx());
    // The HUD's primitives: from its compass tape's group (clipped to the tape) to the trace pane's group.
    const tapeAt = scene.prims.findIndex((p) => p.t === "push" && p.clip?.x === L.hud.x && p.clip?.y === L.hud.y && p.clip?.w === L.hud.width);
    const trace = boxOf(L.trace);
    const traceAt = scene.prims.findIndex(
      (p) => p.t === "push" && p.clip?.x === trace.x && p.clip?.y === trace.y && p.clip?.w === trace.w && p.clip?.h === trace.h,
    );
    expect(tapeAt).toBeGreaterThan(0);
    expect(traceAt).toBeGreaterThan(tapeAt);
    const moved = (dx: number, dy: number): Scene => ({
      ...scene,
      prims: [...scene.prims.slice(0, tapeAt), { t: "push", dx, dy }, ...scene.prims.slice(tapeAt, traceAt), { t: "pop" }, ...scene.prims.slice(traceAt)],
    });
    const remotion = await still(spec, f);
    const [native] = await paintNative(spec, [f], publicDir);
    // The helper paints exactly as the engine does.
    expect(Buffer.compare((await paintScene(scene, publicDir)).data, native.data)).toBe(0);
    const hud = L.hud;
    const results: string[] = [];
    for (const [dx, dy] of [
      [0, 0],
      [1, 0],
      [4, 0],
      [0, 4],
    ]) {
      const shifted = await paintScene(moved(dx, dy), publicDir);
      const db = psnr(cropRgb(remotion, hud), cropRgb(shifted, hud));
      results.push(`HUD shifted (${dx}, ${dy}) px: ${db.toFixed(1)} dB`);
      if (dx === 0 && dy === 0) expect(db).toBeGreaterThanOrEqual(MIN_PSNR_DB);
      else if (Math.max(dx, dy) >= 4) expect(db, `HUD shifted by (${dx}, ${dy}) px`).toBeLessThan(MIN_PSNR_DB);
    }
    measured.push(results.join(", "));
  }, 300_000);
});

function alignedFrame(turn: number, offset: number): number {
  const s = alignTimelines(base, ckpt).slots.find((x) => x.kind === "turn" && x.turn === turn)!;
  return s.startFrame + Math.min(offset, s.durationFrames - 1);
}

describe("composition metadata (Root.tsx's calculateMetadata)", () => {
  it("Rollout: duration and fps from the timeline, size from the optional output prop (default 1280x720)", async () => {
    const c = await session.select("Rollout", trieste as RolloutProps);
    expect([c.durationInFrames, c.fps, c.width, c.height]).toEqual([trieste.totalFrames, trieste.fps, 1280, 720]);
    const small = await session.select("Rollout", { ...trieste, output: { width: 640, height: 360 } });
    expect([small.width, small.height]).toEqual([640, 360]);
  });

  it("Rollout without a timeline (Studio, no --props) previews the one in the public dir", async () => {
    const c = await session.select("Rollout", PLACEHOLDER);
    expect(c.durationInFrames).toBe(trieste.totalFrames);
    expect((c.props as RolloutProps).episode.episodeId).toBe(trieste.episode.episodeId);
  });

  it("Compare: duration from the shared clock, fps from the timelines, size from the output prop", async () => {
    const props = compare().props as CompareProps;
    const clock = alignTimelines(base, ckpt);
    const c = await session.select("Compare", props);
    expect([c.durationInFrames, c.fps, c.width, c.height]).toEqual([clock.totalFrames, 10, 1280, 720]);
    const sq = await session.select("Compare", { ...props, output: SQUARE });
    expect([sq.width, sq.height]).toEqual([1080, 1080]);
  });

  it("Compare without props (the Studio) compares two timelines of one task from the public dir", async () => {
    const c = await session.select("Compare", COMPARE_PLACEHOLDER);
    const p = c.props as CompareProps;
    expect(new Set([p.a.timeline.episode.episodeId, p.b.timeline.episode.episodeId])).toEqual(new Set([base.episode.episodeId, ckpt.episode.episodeId]));
    expect(c.durationInFrames).toBe(alignTimelines(p.a.timeline, p.b.timeline).totalFrames);
  });

  it("refuses props that are not a timeline (or two), naming the field", async () => {
    await expect(session.select("Rollout", { ...trieste, fps: -3 } as RolloutProps)).rejects.toThrow(/fps/);
    const props = compare().props as CompareProps;
    await expect(session.select("Compare", { ...props, b: { ...props.b, timeline: { ...ckpt, fps: -1 } } })).rejects.toThrow(/fps/);
  });
});
