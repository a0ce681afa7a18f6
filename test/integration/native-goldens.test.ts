/**
 * Native frames against reviewed goldens, region by region: chosen frames of
 * real timelines (the frame generator's output) painted by the engine's own
 * loop (paint-frames.ts: the scene, the one painter, Skia), then compared
 * with test/golden/*.png per layout region (header, viewport, credit, HUD,
 * trace pane; the map and the numbers of a score card) with pixelmatch, so
 * one wrong number or a moved panel fails with the region's name. Rollout
 * and Compare, 16:9 (1280x720) and square (1080x1080); a trace pane in
 * twelve scripts (glyphs, not boxes: the per-code-point tofu check is
 * test/text-fonts.test.ts's; this is the same reply inside a real frame).
 *
 * Update goldens after a reviewed layout change: UPDATE_GOLDEN=1 npx vitest run test/native-goldens.test.ts
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// Every environment's compositions, registered before a scene is built.
import "../../envs/compositions.ts";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { PNG } from "pngjs";
import { FIXTURES } from "../helpers.ts";
import {
  armsTimeline,
  boxOf,
  compareRegions,
  expectGolden,
  images,
  paintNative,
  rolloutRegions,
  slideshowTimeline,
  textsInGroup,
  trainTimeline,
  triesteTimeline,
  twoUpSpec,
  tx,
} from "../video-helpers.ts";
import type { Timeline } from "../../envs/geoguesser/replay/timeline/timeline-schema.ts";
import { alignTimelines } from "../../envs/geoguesser/replay/timeline/align.ts";
import { RolloutPropsSchema, type RolloutProps } from "../../envs/geoguesser/video/rollout/props.ts";
import type { CompareProps } from "../../envs/geoguesser/video/compare/props.ts";
import { rolloutLayout, type Rect } from "../../video/scene/layout.ts";
import { sceneAt, type VideoSpec } from "../../video/compositions.ts";
import { haversineKm } from "../../video/map/frame.ts";

const tmp = mkdtempSync(join(tmpdir(), "georeplay-goldens-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const publicDir = join(tmp, "public");

let trieste: Timeline;
let slideshow: Timeline;
let train: Timeline;
let base: Timeline;
let ckpt: Timeline;

beforeAll(async () => {
  trieste = await triesteTimeline(publicDir);
  slideshow = await slideshowTimeline(publicDir);
  train = await trainTimeline(publicDir);
  base = await armsTimeline(publicDir, "d37a27bd393a", "rollouts/pair-a");
  ckpt = await armsTimeline(publicDir, "ff03ebd569bb", "rollouts/pair-b");
}, 600_000);

const SQUARE = { width: 1080, height: 1080 };
const WIDE = { width: 1280, height: 720 };

/** First frame of the n-th segment of a kind, plus an offset. */
function frameIn(t: Timeline, kind: string, offset: number, nth = 0): number {
  const s = t.segments.filter((x) => x.kind === kind)[nth];
  expect(s, `a ${kind} segment`).toBeDefined();
  return s.startFrame + Math.min(offset, s.durationFrames - 1);
}

/**
 * The Trieste episode with another outcome (the score card's map and numbers from it): the
 * framings the issue names that no fixture has, a miss inside a country, a pair across the
 * antimeridian, a guess near the pole.
 */
function withOutcome(t: Timeline, guess: [number, number], truth: [number, number], country: string, verdict: string): Timeline {
  const d = haversineKm(guess, truth);
  return {
    ...t,
    episode: { ...t.episode, country },
    outcome: { ...t.outcome!, guess, truth, distanceKm: d, points: Math.round(5000 * Math.exp(-d / 1492.7)), verdict },
  };
}

const rollout = (t: Timeline, output = WIDE): VideoSpec => ({ composition: "Rollout", props: RolloutPropsSchema.parse({ ...t, output }) });
const compare = (output = WIDE): VideoSpec => twoUpSpec(base, ckpt, output);

/** The score card's regions: its map (the scene's map primitive) and the numbers beside or under it. */
function scoreRegions(spec: VideoSpec, frame: number): [string, Rect][] {
  const scene = sceneAt(spec, frame, tx());
  // The map, then (a close map) its locator inset, drawn inside it.
  const maps = scene.prims.filter((p) => p.t === "map");
  expect(maps.length).toBeGreaterThanOrEqual(1);
  const m = maps[0] as Extract<(typeof scene.prims)[number], { t: "map" }>;
  const map: Rect = { x: Math.floor(m.x), y: Math.floor(m.y), width: Math.ceil(m.w), height: Math.ceil(m.h) };
  const stacked = scene.height > scene.width * 0.85;
  const card: Rect = stacked
    ? { x: 0, y: map.y + map.height, width: scene.width, height: scene.height - map.y - map.height }
    : { x: map.x + map.width, y: 0, width: scene.width - map.x - map.width, height: scene.height };
  return [
    ["map", map],
    ["score numbers", card],
  ];
}

async function paintOne(spec: VideoSpec, frame: number): Promise<PNG> {
  return (await paintNative(spec, [frame], publicDir))[0];
}

describe("Rollout, native", () => {
  const cases: [string, () => Timeline, (t: Timeline) => number, { width: number; height: number }][] = [
    ["opening", () => trieste, (t) => frameIn(t, "opening", 20), WIDE],
    ["camera", () => trieste, (t) => frameIn(t, "camera", 60, 1), WIDE],
    // The pins map over the viewport.
    ["map", () => trieste, (t) => frameIn(t, "map", 30), WIDE],
    // Mid-crossfade of a move.
    ["move", () => trieste, (t) => frameIn(t, "move", Math.floor(t.segments.find((x) => x.kind === "move")!.crossfade!.blendFrames / 2)), WIDE],
    ["score", () => trieste, (t) => frameIn(t, "score", 80), WIDE],
    // 269 km inside Nigeria (Abuja, and a guess due north of it): towns and the country's outline, not a blank square.
    ["score-in-country", () => withOutcome(trieste, [11.4955, 7.3986], [9.0765, 7.3986], "Nigeria", "Right country"), (t) => frameIn(t, "score", 80), WIDE],
    // Fiji: guess and truth on either side of the antimeridian, one map across it.
    ["score-antimeridian", () => withOutcome(trieste, [-16.4, -179.6], [-18.14, 178.44], "Fiji", "Right country"), (t) => frameIn(t, "score", 80), WIDE],
    // A guess near the North Pole, the truth on Svalbard: Mercator's top edge, the pin kept in view.
    ["score-pole", () => withOutcome(trieste, [86.5, 30.0], [78.22, 15.65], "Svalbard", "Far off"), (t) => frameIn(t, "score", 80), WIDE],
    // Square videos stack the panel under the viewport.
    ["square-camera", () => trieste, (t) => frameIn(t, "camera", 60, 1), SQUARE],
    ["square-score", () => trieste, (t) => frameIn(t, "score", 80), SQUARE],
    // A slideshow: RECORDED IMAGES in the header, "—" for the HUD fields it does not record.
    ["slideshow-camera", () => slideshow, (t) => frameIn(t, "camera", 40, 1), WIDE],
    // A recorded map image: no imagery credit under it.
    ["slideshow-map", () => slideshow, (t) => frameIn(t, "map", 30), WIDE],
    // A training rollout: the tool call and feedback, and why there is no reply.
    ["train-camera", () => train, (t) => frameIn(t, "camera", 40), WIDE],
  ];
  for (const [name, timeline, pick, output] of cases) {
    it(`matches the reviewed frame: ${name} (${output.width}x${output.height})`, async () => {
      const t = timeline();
      const spec = rollout(t, output);
      const f = pick(t);
      const png = await paintOne(spec, f);
      const regions = name.includes("score") ? scoreRegions(spec, f) : rolloutRegions(t, output);
      if (name === "move") expect(images(sceneAt(spec, f, tx())).length, "both frame files of the crossfade").toBe(2);
      if (name === "map") {
        const scene = sceneAt(spec, f, tx());
        const m = scene.prims.find((p) => p.t === "map") as Extract<(typeof scene.prims)[number], { t: "map" }>;
        expect(m, "a map over the viewport").toBeDefined();
        regions.push(["pins map", { x: Math.floor(m.x), y: Math.floor(m.y), width: Math.ceil(m.w), height: Math.ceil(m.h) }]);
      }
      expectGolden(`rollout-${name}`, png, regions);
    });
  }

  it("a trace pane in twelve scripts and emoji draws them (reviewed goldens of real frames: the reply's start, then scrolled to its end)", async () => {
    const reply = readFileSync(join(FIXTURES, "text", "multiscript-reply.txt"), "utf8");
    // A copy of the Trieste timeline whose turn 2 replied in every script.
    const turn = 2;
    const t: Timeline = { ...trieste, trace: trieste.trace.map((e) => (e.turn === turn ? { ...e, reply } : e)) };
    const seg = t.segments.find((s) => s.kind !== "opening" && s.turn === turn)!;
    const spec = rollout(t);
    const L = rolloutLayout(1280, 720, t.viewport);
    // Past the card's fade-in, before the reply scrolls; and near the segment's end, scrolled to the last lines.
    const frames = { top: seg.startFrame + 8, end: seg.startFrame + Math.round(0.9 * (seg.durationFrames - 1)) };
    let drawn = "";
    for (const [name, f] of Object.entries(frames)) {
      drawn += textsInGroup(sceneAt(spec, f, tx()), boxOf(L.trace))
        .map((p) => p.text)
        .join("\n");
      expectGolden(`rollout-multiscript-trace-${name}`, await paintOne(spec, f), rolloutRegions(t, WIDE));
    }
    // Between them the two frames show every line of the reply (each line's first word).
    for (const line of reply.split("\n").filter((l) => l.trim())) expect(drawn, line).toContain(line.split(" ")[0]);
  });
});

describe("Compare, native", () => {
  const clock = () => alignTimelines(base, ckpt);
  const turnFrame = (n: number, offset: number) => {
    const s = clock().slots.find((x) => x.kind === "turn" && x.turn === n)!;
    return s.startFrame + Math.min(offset, s.durationFrames - 1);
  };
  const cases: [string, () => number, { width: number; height: number }][] = [
    // Turn 2 of both, both mid-turn.
    ["aligned", () => turnFrame(2, 30), WIDE],
    // B (8 turns) has guessed and holds its last view under GUESSED while A (11 turns) goes on.
    ["hold", () => turnFrame(10, 30), WIDE],
    ["score", () => clock().scoreStart + 100, WIDE],
    ["square-hold", () => turnFrame(10, 30), SQUARE],
    ["square-score", () => clock().scoreStart + 100, SQUARE],
  ];
  for (const [name, pick, output] of cases) {
    it(`matches the reviewed frame: ${name} (${output.width}x${output.height})`, async () => {
      const spec = compare(output);
      const f = pick();
      const png = await paintOne(spec, f);
      expect(images(sceneAt(spec, f, tx())).length > 0 || name.includes("score")).toBe(true);
      expectGolden(`compare-${name}`, png, name.includes("score") ? scoreRegions(spec, f) : compareRegions(output, [base.viewport, ckpt.viewport]));
    });
  }
});

export type { RolloutProps, CompareProps };
