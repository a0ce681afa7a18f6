/**
 * The two-up video: the turn alignment (pure), choosing B from a board
 * (pure), the CLI's refusals, and the Compare scenes (pure: the primitives a
 * frame is made of) built from the real frame generator's output: which
 * frame file each viewport shows, the stamps, the header, the credits, the
 * trace strips, the score card's numbers and its map's framing (also across
 * the antimeridian). Pixels: test/native-goldens.test.ts (reviewed goldens)
 * and test/remotion-parity.test.ts (the Remotion composition, metadata).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FIXTURES, MIXED, runCli } from "../helpers.ts";
import type { Segment, Timeline } from "../../envs/geoguesser/replay/timeline/timeline-schema.ts";
import { alignTimelines, sideAt, slotAt } from "../../envs/geoguesser/replay/timeline/align.ts";
import { pickVersusAttempt, listAttempts, type Attempt } from "../../envs/geoguesser/replay/frames/versus.ts";
import { GeoreplayError } from "../../replay/io/errors.ts";
import { spanFrame } from "../../video/map/frame.ts";
import { geoevalReward } from "../../envs/geoguesser/replay/rules/reward.ts";
import { compareLayout } from "../../video/parts/compare-layout.ts";
import { ComparePropsSchema, sameTask, sideLabels, type CompareProps } from "../../envs/geoguesser/video/compare/props.ts";
import { creditLine } from "../../envs/geoguesser/video/scene/lookup.ts";
import { compareScene } from "../../envs/geoguesser/video/compare/scene.ts";
import { compareClock } from "../../envs/geoguesser/video/compare/clock.ts";
import { firstLines } from "../../envs/geoguesser/video/compare/side.ts";
import { sideResult } from "../../envs/geoguesser/video/compare/score-card.ts";
import { compactHudValues, UNKNOWN } from "../../envs/geoguesser/video/parts/hud.ts";
import { SLIDESHOW_LABEL, UNVERIFIED_LABEL } from "../../video/parts/overlays.ts";
import { framePath } from "../../envs/geoguesser/video/parts/viewport.ts";
import { isStacked } from "../../video/scene/layout.ts";
import type { Scene } from "../../video/scene/types.ts";
import { armsTimeline, BT709, colourTags, images, inRect, slideshowTimeline, texts, textStrings, tx } from "../video-helpers.ts";
import { probeVideo } from "../../src/ffmpeg/probe.ts";

const ARMS = join(FIXTURES, "arms");
const tmp = mkdtempSync(join(tmpdir(), "georeplay-compare-test-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

// ---------- the clock (pure) ----------

const hud = [{ heading: 0, pitch: 0, fov: 90, stepsRemaining: 5, cost: 0, frameIndex: 0, metres: 0 }];
function seg(kind: Segment["kind"], turn: number, durationFrames: number): Omit<Segment, "startFrame"> {
  return { turn, kind, durationFrames, frames: [`${kind}${turn}.jpg`], hud, crossfade: null, motionFrames: 0, pins: [], keyframe: null };
}
function tl(parts: Omit<Segment, "startFrame">[], fps = 30): Pick<Timeline, "fps" | "segments"> {
  let start = 0;
  return { fps, segments: parts.map((p) => ({ ...p, startFrame: (start += p.durationFrames) - p.durationFrames })) };
}

describe("alignTimelines: one clock for two episodes", () => {
  // A: opening, 3 turns, score. B: longer opening, 1 turn, score.
  const a = tl([seg("opening", 0, 45), seg("camera", 1, 30), seg("move", 2, 20), seg("guess", 3, 40), seg("score", -1, 120)]);
  const b = tl([seg("opening", 0, 50), seg("camera", 1, 60), seg("guess", 2, 10), seg("score", -1, 120)]);
  const clock = alignTimelines(a, b);

  it("starts turn n of both sides together; each slot lasts as long as the longer side's turn", () => {
    expect(clock.slots.map((s) => [s.kind, s.turn, s.startFrame, s.durationFrames, s.segments])).toEqual([
      ["opening", 0, 0, 50, [0, 0]],
      ["turn", 1, 50, 60, [1, 1]],
      ["turn", 2, 110, 20, [2, 2]],
      ["turn", 3, 130, 40, [3, null]],
      ["score", -1, 170, 150, [4, 3]], // at least COMPARE_SCORE_S (5 s)
    ]);
    expect(clock.totalFrames).toBe(320);
    expect(clock.scoreStart).toBe(170);
    expect(clock.turns).toEqual([3, 2]);
  });

  it("the shorter side holds its segment's last frame; the side that finished holds its last view", () => {
    // Turn 1: A's 30-frame camera move ended, B's goes on: A holds its last frame.
    expect(sideAt(clock, a.segments, 0, 50 + 45)).toMatchObject({ index: 1, offset: 29, holding: true, finished: false });
    expect(sideAt(clock, b.segments, 1, 50 + 45)).toMatchObject({ index: 1, offset: 45, holding: false, finished: false });
    // Turn 2: B's guess is 10 frames of a 20-frame slot.
    expect(sideAt(clock, b.segments, 1, 125)).toMatchObject({ index: 2, offset: 9, holding: true, finished: false });
    // Turn 3: B has none: it has finished and holds its guess's last frame.
    expect(sideAt(clock, b.segments, 1, 140)).toMatchObject({ index: 2, offset: 9, holding: true, finished: true, score: false });
    expect(sideAt(clock, a.segments, 0, 140)).toMatchObject({ index: 3, offset: 10, finished: false });
    // Score card: both on their own score segment.
    expect(sideAt(clock, a.segments, 0, 200)).toMatchObject({ index: 4, score: true });
    expect(sideAt(clock, b.segments, 1, 200)).toMatchObject({ index: 3, score: true });
  });

  it("covers every frame exactly once, in order, and is the same both ways round (sides swapped)", () => {
    let prev = -1;
    for (let f = 0; f < clock.totalFrames; f++) {
      const { index } = slotAt(clock, f);
      expect(index).toBeGreaterThanOrEqual(prev);
      prev = index;
    }
    const swapped = alignTimelines(b, a);
    expect(swapped.totalFrames).toBe(clock.totalFrames);
    expect(swapped.slots.map((s) => s.segments)).toEqual(clock.slots.map((s) => [s.segments[1], s.segments[0]]));
  });

  it("an episode without a score card still gets the shared one; frame rates must agree", () => {
    const noScore = tl([seg("opening", 0, 10), seg("camera", 1, 10)]);
    const c = alignTimelines(noScore, noScore);
    expect(c.slots.at(-1)).toMatchObject({ kind: "score", durationFrames: 150, segments: [null, null] });
    expect(sideAt(c, noScore.segments, 0, c.scoreStart + 3)).toMatchObject({ index: 1, finished: true, score: true });
    expect(() => alignTimelines(tl([seg("opening", 0, 10)], 30), tl([seg("opening", 0, 10)], 24))).toThrow(/different frame rates/);
  });
});

// ---------- choosing B from a board (pure) ----------

describe("pickVersusAttempt: the arm's attempt at A's task", () => {
  const at = (episodeId: string, arm: string, index: number, sample: number | null, line: number, split = "eval"): Attempt => ({
    episodeId,
    arm,
    split,
    index,
    sample,
    file: "run.jsonl",
    line,
  });
  const board = [
    at("a0", "base", 0, 0, 1),
    at("a1", "base", 0, 1, 2),
    at("c1", "ckpt200", 0, 1, 3),
    at("c0", "ckpt200", 0, 0, 4),
    at("c2", "ckpt200", 0, 2, 5),
    at("t1", "ckpt200", 1, 0, 6),
    at("x0", "ckpt200", 0, 0, 7, "test"), // another split: not the same task
    at("n", "nosample", 0, null, 8),
  ];
  it("takes the same pass as A, else the arm's lowest; --pass picks one", () => {
    expect(pickVersusAttempt(board, board[1], { arm: "ckpt200" }).episodeId).toBe("c1");
    expect(pickVersusAttempt(board, board[0], { arm: "ckpt200" }).episodeId).toBe("c0");
    expect(pickVersusAttempt(board, at("a9", "base", 0, 9, 9), { arm: "ckpt200" }).episodeId).toBe("c0");
    expect(pickVersusAttempt(board, board[0], { arm: "ckpt200", pass: 2 }).episodeId).toBe("c2");
    expect(pickVersusAttempt(board, board[0], { arm: "base" }).episodeId).toBe("a1"); // never A itself
    expect(pickVersusAttempt(board, board[0], { arm: "nosample" }).episodeId).toBe("n");
  });
  it("says which arms and passes exist at the task when there is none", () => {
    const err = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        expect(e).toBeInstanceOf(GeoreplayError);
        return (e as Error).message;
      }
      throw new Error("no error");
    };
    expect(err(() => pickVersusAttempt(board, board[0], { arm: "ckpt999" }))).toBe(
      '--versus-arm "ckpt999": no attempt by that arm at task eval #0 (episode a0\'s task); attempts at this task: "base" (passes 0, 1); "ckpt200" (passes 0, 1, 2); "nosample" (pass none)',
    );
    expect(err(() => pickVersusAttempt(board, board[0], { arm: "ckpt200", pass: 7 }))).toMatch(
      /that arm has no pass 7 at task eval #0; attempts at this task: .*"ckpt200" \(passes 0, 1, 2\)/,
    );
  });
  it("reads the arms fixture: base and ckpt200 on the mixed tasks", async () => {
    const all = await listAttempts([ARMS]);
    expect(all.map((t) => `${t.arm}:${t.index}:${t.sample}`).sort()).toEqual([
      "base:0:0",
      "base:1:0",
      "base:2:0",
      "base:3:0",
      "ckpt200:0:0",
      "ckpt200:0:1",
      "ckpt200:1:1",
      "ckpt200:3:0",
    ]);
  });
});

describe("render --versus refuses bad pairs before any work, with exit 2 and a reason", () => {
  const args = (...more: string[]) => [
    "render",
    ARMS,
    "--tasks",
    join(MIXED, "tasks.jsonl"),
    "--panos",
    join(MIXED, "panos"),
    "-o",
    join(tmp, "bad", "x.mp4"),
    ...more,
  ];
  it("names the arms and passes recorded at the task when the arm or pass is not there", () => {
    const noArm = runCli(args("--episode", "d37a27bd393a", "--versus-arm", "ckpt999"));
    expect(noArm.code).toBe(2);
    expect(noArm.stderr).toContain(
      'no attempt by that arm at task eval #0 (episode d37a27bd393a\'s task); attempts at this task: "base" (pass 0); "ckpt200" (passes 0, 1)',
    );
    const noPass = runCli(args("--episode", "d37a27bd393a", "--versus-arm", "ckpt200", "--pass", "4"));
    expect(noPass.code).toBe(2);
    expect(noPass.stderr).toMatch(/that arm has no pass 4 at task eval #0/);
    const self = runCli(args("--episode", "d37a27bd393a", "--versus", "d37a27bd393a"));
    expect(self.code).toBe(2);
    expect(self.stderr).toMatch(/is episode d37a27bd393a itself/);
    const both = runCli(args("--episode", "d37a27bd393a", "--versus", "#2", "--versus-arm", "ckpt200"));
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/exactly one of --versus/);
    const passAlone = runCli(args("--episode", "d37a27bd393a", "--pass", "1"));
    expect(passAlone.code).toBe(2);
    expect(passAlone.stderr).toMatch(/--pass chooses among --versus-arm's attempts/);
    for (const r of [noArm, noPass, self, both, passAlone]) expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(join(tmp, "bad", "x.mp4"))).toBe(false);
  });
});

describe("compare pieces", () => {
  it("labels, same task, framing the score card's map on the points' span", () => {
    expect(sideLabels({ arm: "base", pass: 0 }, { arm: "ckpt200", pass: 0 })).toEqual(["A · base", "B · ckpt200"]);
    expect(sideLabels({ arm: "m", pass: 0 }, { arm: "m", pass: 2 })).toEqual(["A · m attempt 0", "B · m attempt 2"]);
    const f = spanFrame(
      [
        [45.65, 13.77],
        [45.66, 13.78],
        [45.65, 13.77],
      ],
      600,
      600,
    );
    expect(f.halfWidthDeg).toBeLessThan(0.5);
    const wide = spanFrame(
      [
        [45.65, 13.77],
        [-33.9, 151.2],
      ],
      600,
      600,
    );
    expect(wide.halfWidthDeg).toBeGreaterThan((151.2 - 13.77) / 2);
  });

  it("a pair across the antimeridian frames the Pacific, not the world", () => {
    // Truth at lon 179.5, guesses at -179.8 and 179.0 (all near Fiji's latitude).
    const f = spanFrame(
      [
        [-17.5, 179.5],
        [-17.2, -179.8],
        [-17.9, 179.0],
      ],
      672,
      672,
    );
    expect(f.halfWidthDeg).toBeGreaterThan(0.5);
    expect(f.halfWidthDeg).toBeLessThan(5);
    expect(180 - Math.abs(f.center[1])).toBeLessThan(1);
    expect(f.center[0]).toBeCloseTo(-17.55, 6);
  });

  it("the trace strip's first lines and the compact HUD's values, unknown ones as —", () => {
    expect(firstLines("one\n\n two \nthree\nfour", 2)).toBe("one\n two");
    expect(firstLines("a\u0000b\n<b>x</b>", 5)).not.toContain("\u0000");
    expect(compactHudValues({ ...hud[0], unknown: ["fov"] })).toEqual([
      ["Heading", "000°"],
      ["FOV", UNKNOWN],
      ["Actions left", "5"],
      ["Cost", "0.00"],
    ]);
  });
});

// ---------- scenes from the real generator's output ----------

let base: Timeline; // base on eval #0: 11 turns
let ckpt: Timeline; // ckpt200 pass 1 on eval #0: 8 turns
let other: Timeline; // base on eval #1: another task
let slides: Timeline; // an example-rollout slideshow
let props: CompareProps;

beforeAll(async () => {
  const publicDir = join(tmp, "public");
  base = await armsTimeline(publicDir, "d37a27bd393a", "rollouts/pair-a");
  ckpt = await armsTimeline(publicDir, "ff03ebd569bb", "rollouts/pair-b");
  other = await armsTimeline(publicDir, "b9b50c59f425", "rollouts/other");
  slides = await slideshowTimeline(publicDir);
  props = ComparePropsSchema.parse({
    version: 1,
    a: { timeline: base, arm: "base", pass: 0, label: "A · base" },
    b: { timeline: ckpt, arm: "ckpt200", pass: 1, label: "B · ckpt200" },
  });
}, 600_000);

const clockOf = () => alignTimelines(base, ckpt);
/** A frame inside the n-th turn slot, `offset` frames in. */
const turnFrame = (n: number, offset: number) => {
  const s = clockOf().slots.find((x) => x.kind === "turn" && x.turn === n)!;
  return s.startFrame + Math.min(offset, s.durationFrames - 1);
};
const scene = (frame: number, p: CompareProps = props): Scene => compareScene(p, frame, tx());
const withB = (t: Timeline, o: Partial<CompareProps["b"]> = {}): CompareProps => ({ ...props, b: { ...props.b, timeline: t, ...o } });
const unverified = (t: Timeline): Timeline => ({ ...t, episode: { ...t.episode, verified: false } });

describe("Compare scenes", () => {
  it("the clock's length is the composition's; the pair is one task", () => {
    const clock = compareClock(props);
    expect(clock.totalFrames).toBe(clockOf().totalFrames);
    expect(clock.turns).toEqual([base.segments.length - 2, ckpt.segments.length - 2]);
    expect(sameTask(props)).toBe(true);
  });

  it("each viewport shows its own side's frame file, in its own column", () => {
    const L = compareLayout(1280, 720, [base.viewport, ckpt.viewport]);
    const clock = clockOf();
    for (const f of [turnFrame(1, 5), turnFrame(2, 40), turnFrame(10, 30)]) {
      const imgs = images(scene(f));
      for (const [i, t] of [base, ckpt].entries()) {
        const sf = sideAt(clock, t.segments, i as 0 | 1, f);
        const file =
          sf.segment.crossfade && sf.offset < sf.segment.crossfade.blendFrames
            ? null
            : (sf.segment.frames[Math.min(sf.offset, sf.segment.frames.length - 1)] ?? null);
        const inCol = imgs.filter((p) => inRect(p.x + 1, p.y + 1, L.columns[i].viewportBox));
        expect(inCol.length, `side ${i} at frame ${f}`).toBeGreaterThan(0);
        expect(
          inCol.every((p) => p.src.startsWith(`${t.framesDir}/`)),
          `side ${i} shows only its own files`,
        ).toBe(true);
        expect(inCol[0]).toMatchObject({
          x: L.columns[i].viewport.x,
          y: L.columns[i].viewport.y,
          w: L.columns[i].viewport.width,
          h: L.columns[i].viewport.height,
        });
        if (file) expect(inCol[0].src).toBe(framePath(t.framesDir, file));
      }
    }
  });

  it("stamps only the unverified side, on every kind of frame but the score card, and a slideshow side as RECORDED IMAGES", () => {
    const L = compareLayout(1280, 720, [base.viewport, ckpt.viewport]);
    const clock = clockOf();
    const stamped = (s: Scene, label: string) => [0, 1].filter((i) => texts(s).some((p) => p.text === label && inRect(p.x, p.y, L.columns[i].viewportBox)));
    const frames = [clock.slots[0].startFrame + 5, turnFrame(1, 10), turnFrame(3, 20), turnFrame(10, 30)];
    for (const f of frames) {
      expect(stamped(scene(f, withB(unverified(ckpt))), UNVERIFIED_LABEL), `frame ${f}`).toEqual([1]);
      expect(stamped(scene(f, { ...props, a: { ...props.a, timeline: unverified(base) } }), UNVERIFIED_LABEL), `frame ${f}`).toEqual([0]);
      expect(stamped(scene(f), UNVERIFIED_LABEL), `frame ${f}: verified pair`).toEqual([]);
    }
    // A slideshow on side B: labelled as recorded images, never as an unverified replay.
    const mixed = withB(slides, { arm: "synthetic-model", pass: null, label: "B · synthetic-model" });
    const mc = alignTimelines(base, slides);
    for (const slot of mc.slots.filter((s) => s.kind !== "score")) {
      const s = compareScene(mixed, slot.startFrame + 2, tx());
      expect(stamped(s, SLIDESHOW_LABEL), `slot ${slot.kind} ${slot.turn}`).toEqual([1]);
      expect(stamped(s, UNVERIFIED_LABEL)).toEqual([]);
    }
    // The score card says so under that side's name instead.
    const card = textStrings(compareScene(mixed, mc.scoreStart + 60, tx()));
    expect(card).toContain("recorded images");
    expect(textStrings(scene(clock.scoreStart + 60, withB(unverified(ckpt))))).toContain("UNVERIFIED");
  });

  it("says DIFFERENT TASKS in the header when the tasks differ, and the same task otherwise", () => {
    const diffTasks = withB(other);
    expect(sameTask(diffTasks)).toBe(false);
    const f = turnFrame(1, 10);
    const header = (s: Scene) => textStrings(s).filter((t) => /TASK/i.test(t));
    expect(header(compareScene(diffTasks, f, tx())).some((t) => t.startsWith("DIFFERENT TASKS · eval #0 vs eval #1"))).toBe(true);
    expect(header(scene(f)).some((t) => t.startsWith("DIFFERENT TASKS"))).toBe(false);
    expect(header(scene(f))).toContain("same task · eval #0 · fixture-00");
    // On the score card too.
    const dc = alignTimelines(base, other);
    expect(textStrings(compareScene(diffTasks, dc.scoreStart + 60, tx())).some((t) => t.startsWith("DIFFERENT TASKS · EVAL #0 AND EVAL #1"))).toBe(true);
  });

  it("credits the imagery on both sides while panoramas show, and nowhere on the score card", () => {
    const L = compareLayout(1280, 720, [base.viewport, ckpt.viewport]);
    const s = scene(turnFrame(1, 10));
    for (const [i, t] of [base, ckpt].entries())
      expect(texts(s).filter((p) => p.text === creditLine(t) && inRect(p.x, p.y, L.columns[i].credit)).length, `side ${i}`).toBe(1);
    const card = textStrings(scene(clockOf().scoreStart + 60));
    expect(card.filter((t) => t.startsWith("Imagery:"))).toEqual([]);
  });

  it("the trace strip shows the current tool call and the reply as text, markup and all", () => {
    const f = turnFrame(2, 30);
    const strings = textStrings(scene(f));
    const b2 = ckpt.trace.find((e) => e.turn === 2)!;
    expect(b2.reply).toContain("<img src=x onerror=alert(1)>");
    expect(strings).toContain(`▶ ${b2.toolCall}`);
    expect(strings.some((t) => t.includes("</script><img src=x onerror=alert(1)>"))).toBe(true);
  });

  it("the score card's numbers are geoeval's reward, both sides", () => {
    const r = sideResult(props.a, 11);
    expect(r.reward).toBe(geoevalReward({ distance_km: base.outcome!.distanceKm, action_cost: base.outcome!.cost }));
    expect(r.reward).not.toBe(base.outcome!.reward);
    const card = textStrings(scene(clockOf().scoreStart + 100));
    expect(card).toContain(r.reward!.toFixed(4));
    expect(card).toContain("REWARD (GEOEVAL)");
  });

  it("the score card's map has the span frame of the truth and both guesses (the antimeridian pair: the Pacific, not the world)", () => {
    const at = (t: Timeline, guess: [number, number], truth: [number, number]): Timeline => ({ ...t, outcome: { ...t.outcome!, guess, truth } });
    const truth: [number, number] = [-17.5, 179.5];
    const pacific: CompareProps = {
      ...props,
      a: { ...props.a, timeline: at(base, [-17.2, -179.8], truth) },
      b: { ...props.b, timeline: at(ckpt, [-17.9, 179.0], truth) },
    };
    for (const output of [
      { width: 1280, height: 720 },
      { width: 1080, height: 1080 },
    ]) {
      const p = { ...pacific, output };
      const s = compareScene(p, compareClock(p).scoreStart + 100, tx());
      const maps = s.prims.filter((x) => x.t === "map");
      expect(maps.length).toBe(1);
      const m = maps[0] as Extract<Scene["prims"][number], { t: "map" }>;
      const pad = 24 * (isStacked(output.width, output.height) ? output.width / 1080 : output.height / 720);
      expect(m.x).toBeCloseTo(pad, 6);
      expect(m.frame).toEqual(spanFrame([truth, [-17.2, -179.8], [-17.9, 179.0]], m.w, m.h));
      expect(m.frame.halfWidthDeg, `${output.width}x${output.height}`).toBeLessThan(5);
      expect(180 - Math.abs(m.frame.center[1])).toBeLessThan(1);
    }
  });
});

describe("render --versus-arm (native engine)", () => {
  it("a two-up MP4: h264, yuv420p, bt709, faststart, every frame of the shared clock (and --json says so)", async () => {
    const outDir = mkdtempSync(join(tmp, "two-up-"));
    const out = join(outDir, "two-up.mp4");
    const r = runCli(
      // ckpt200's pass 0 at this task drifts (a fixture of the drift tests): pass 1 is verified.
      [
        "render",
        ARMS,
        "--episode",
        "d37a27bd393a",
        "--versus-arm",
        "ckpt200",
        "--pass",
        "1",
        "--tasks",
        join(MIXED, "tasks.jsonl"),
        "--panos",
        join(MIXED, "panos"),
      ].concat(["-o", out, "--fps", "5", "--size", "480x270", "--preset", "ultrafast", "--jobs", "1", "--json"]),
      { timeoutMs: 600_000 },
    );
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.episodes.map((e: { arm: string; pass: number }) => [e.arm, e.pass])).toEqual([
      ["base", 0],
      ["ckpt200", 1],
    ]);
    const pub = join(tmp, "two-up-public");
    const a = await armsTimeline(pub, "d37a27bd393a", "a", 5);
    const b = await armsTimeline(pub, report.episodes[1].episode_id, "b", 5);
    const want = alignTimelines(a, b).totalFrames;
    const p = probeVideo(out);
    expect(p).toMatchObject({ codec: "h264", pixFmt: "yuv420p", colorSpace: "bt709", width: 480, height: 270, fps: 5, frames: want, faststart: true });
    expect(colourTags(out)).toEqual(BT709);
    expect(report).toMatchObject({ out, frames: want, fps: 5, codec: "h264", pix_fmt: "yuv420p", composition: "Compare", same_task: true });
    expect(readdirSync(outDir)).toEqual(["two-up.mp4"]);
  }, 600_000);
});
