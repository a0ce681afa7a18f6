/**
 * The two-up video: the turn alignment (pure), choosing B from a board
 * (pure), and the Compare composition rendered by real Chromium from the
 * real frame generator's output: metadata, the Studio's default props, and
 * stills against reviewed goldens, region by region.
 *
 * Update goldens after a reviewed layout change: UPDATE_GOLDEN=1 npx vitest run test/compare.test.ts
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import pixelmatch from "pixelmatch";
import { PNG } from "pngjs";
import React from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { FIXTURES, MIXED, ROOT, runCli } from "./helpers.ts";
import { generateFrames } from "../replay/frames/frames.ts";
import type { Segment, Timeline } from "../replay/timeline/timeline-schema.ts";
import { alignTimelines, sideAt, slotAt } from "../replay/timeline/align.ts";
import { pickVersusAttempt, listAttempts, type Attempt } from "../replay/frames/versus.ts";
import { GeoreplayError } from "../replay/io/errors.ts";
import { openSession, type RenderSession } from "../src/mp4/session.ts";
import { resolveBrowser } from "../src/mp4/browser.ts";
import { compareLayout } from "../video/compare-layout.ts";
import type { Rect } from "../video/layout.ts";
import { ComparePropsSchema, sameTask, sideLabels, type CompareProps } from "../video/compare-props.ts";
import { COMPARE_PLACEHOLDER } from "../video/compare-placeholder.ts";
import { spanFrame } from "../video/compare-frame.ts";
import { TraceStrip, firstLines } from "../video/scenes/compare/TraceStrip.tsx";
import { compactHudValues } from "../video/scenes/compare/CompactHud.tsx";
import { sideResult } from "../video/scenes/compare/CompareScoreCard.tsx";
import { geoevalReward } from "../replay/rules/reward.ts";

const GOLDEN = join(ROOT, "test", "golden");
const UPDATE = process.env.UPDATE_GOLDEN === "1";
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
  it("labels, same task, framing and the geoeval reward on the card", () => {
    expect(sideLabels({ arm: "base", pass: 0 }, { arm: "ckpt200", pass: 0 })).toEqual(["A · base", "B · ckpt200"]);
    expect(sideLabels({ arm: "m", pass: 0 }, { arm: "m", pass: 2 })).toEqual(["A · m pass 0", "B · m pass 2"]);
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
  it("the trace strip shows the tool call and the first lines of the reply, as text", () => {
    expect(firstLines("one\n\n two \nthree\nfour", 2)).toBe("one\n two");
    const e = {
      turn: 3,
      status: "ok",
      failed: false,
      actionName: "look",
      toolCall: "look(heading_deg=90)",
      reply: "<b>I see</b> a sign\nline 2",
      reasoning: null,
      feedback: null,
      tokensIn: null,
      tokensOut: null,
      latencyS: null,
      errors: [],
    };
    const html = renderToStaticMarkup(React.createElement(TraceStrip, { entry: e, width: 500, height: 200, offset: 10, unit: 1 }));
    expect(html).toContain("▶ look(heading_deg=90)");
    expect(html).toContain("&lt;b&gt;I see&lt;/b&gt; a sign\nline 2");
    expect(compactHudValues({ ...hud[0], unknown: ["fov"] })).toEqual([
      ["Heading", "000°"],
      ["FOV", "—"],
      ["Actions left", "5"],
      ["Cost", "0.00"],
    ]);
  });
});

// ---------- the real generator, Remotion and Chromium ----------

let base: Timeline; // base on eval #0: 11 turns
let ckpt: Timeline; // ckpt200 pass 1 on eval #0: 8 turns
let other: Timeline; // base on eval #1: another task
let publicDir: string;
let session: RenderSession;
let props: CompareProps;

const frames = (episode: string, out: string) =>
  generateFrames({
    episodes: [ARMS],
    episode,
    tasks: join(MIXED, "tasks.jsonl"),
    panos: join(MIXED, "panos"),
    publicDir,
    out: join(publicDir, "rollouts", out),
    fps: 30,
    jobs: 1,
  });

beforeAll(async () => {
  publicDir = join(tmp, "public");
  base = (await frames("d37a27bd393a", "pair-a")).timeline;
  ckpt = (await frames("ff03ebd569bb", "pair-b")).timeline;
  other = (await frames("b9b50c59f425", "other")).timeline;
  props = ComparePropsSchema.parse({
    version: 1,
    a: { timeline: base, arm: "base", pass: 0, label: "A · base" },
    b: { timeline: ckpt, arm: "ckpt200", pass: 1, label: "B · ckpt200" },
  });
  session = await openSession({ publicDir, browserExecutable: resolveBrowser() });
}, 900_000);
afterAll(async () => {
  await session?.close();
});

async function still(frame: number, p: CompareProps = props): Promise<PNG> {
  const file = join(tmp, `still-${frame}-${Math.random().toString(36).slice(2)}.png`);
  await session.renderStillPng("Compare", p, frame, file);
  return PNG.sync.read(readFileSync(file));
}

async function crop(png: PNG, r: Rect): Promise<Buffer> {
  return sharp(PNG.sync.write(png)).extract({ left: r.x, top: r.y, width: r.width, height: r.height }).removeAlpha().raw().toBuffer();
}

function psnr(a: Buffer, b: Buffer): number {
  let se = 0;
  for (let i = 0; i < a.length; i++) se += (a[i] - b[i]) ** 2;
  const mse = se / a.length;
  return mse === 0 ? Infinity : 10 * Math.log10((255 * 255) / mse);
}

describe("Compare metadata", () => {
  it("takes its duration from the shared clock, fps from the timelines, size from the output prop", async () => {
    const clock = alignTimelines(base, ckpt);
    const c = await session.select("Compare", props);
    expect([c.durationInFrames, c.fps, c.width, c.height]).toEqual([clock.totalFrames, 30, 1280, 720]);
    const sq = await session.select("Compare", { ...props, output: { width: 1080, height: 1080 } });
    expect([sq.width, sq.height]).toEqual([1080, 1080]);
    expect(clock.turns).toEqual([base.segments.length - 2, ckpt.segments.length - 2]);
    expect(sameTask(props)).toBe(true);
  });

  it("without props (the Studio) compares two timelines of one task from the public dir", async () => {
    const c = await session.select("Compare", COMPARE_PLACEHOLDER);
    const p = c.props as CompareProps;
    expect(new Set([p.a.timeline.episode.episodeId, p.b.timeline.episode.episodeId])).toEqual(new Set([base.episode.episodeId, ckpt.episode.episodeId]));
    expect(c.durationInFrames).toBe(alignTimelines(p.a.timeline, p.b.timeline).totalFrames);
  });

  it("rejects props that are not two timelines, naming the field", async () => {
    await expect(session.select("Compare", { ...props, b: { ...props.b, timeline: { ...ckpt, fps: -1 } } } as CompareProps)).rejects.toThrow(/fps/);
  });
});

const clockOf = () => alignTimelines(base, ckpt);
/** A frame inside the n-th turn slot, `offset` frames in. */
const turnFrame = (n: number, offset: number) => {
  const s = clockOf().slots.find((x) => x.kind === "turn" && x.turn === n)!;
  return s.startFrame + Math.min(offset, s.durationFrames - 1);
};

describe("Compare stills", () => {
  it("each viewport shows its own side's frame file", async () => {
    const L = compareLayout(1280, 720, [base.viewport, ckpt.viewport]);
    const f = turnFrame(2, 40);
    const png = await still(f);
    const clock = clockOf();
    for (const [i, t] of [base, ckpt].entries()) {
      const sf = sideAt(clock, t.segments, i as 0 | 1, f);
      const file = sf.segment.frames[Math.min(sf.offset, sf.segment.frames.length - 1)] ?? sf.segment.crossfade!.to;
      const got = await crop(png, L.columns[i].viewport);
      const want = await sharp(join(publicDir, t.framesDir, file))
        .resize(L.columns[i].viewport.width, L.columns[i].viewport.height, { kernel: "lanczos3" })
        .removeAlpha()
        .raw()
        .toBuffer();
      expect(psnr(got, want), `side ${i} viewport vs ${file}`).toBeGreaterThan(28);
    }
  });

  const square = { width: 1080, height: 1080 };
  const goldens: [string, () => number, { width: number; height: number }?][] = [
    // Turn 2 of both, both mid-turn.
    ["aligned", () => turnFrame(2, 30)],
    // B (8 turns) has guessed and holds its last view while A (11 turns) goes on.
    ["hold", () => turnFrame(10, 30)],
    ["score", () => clockOf().scoreStart + 100],
    ["square-hold", () => turnFrame(10, 30), square],
    ["square-score", () => clockOf().scoreStart + 100, square],
  ];
  for (const [name, pick, output] of goldens) {
    it(`matches the reviewed layout: ${name}`, async () => {
      const p = output ? { ...props, output } : props;
      const png = await still(pick(), p);
      const file = join(GOLDEN, `compare-${name}.png`);
      if (UPDATE) {
        mkdirSync(GOLDEN, { recursive: true });
        writeFileSync(file, PNG.sync.write(png));
      }
      expect(existsSync(file), `${file} (create with UPDATE_GOLDEN=1 and review it)`).toBe(true);
      const want = PNG.sync.read(readFileSync(file));
      const w = output?.width ?? 1280;
      const h = output?.height ?? 720;
      expect([png.width, png.height]).toEqual([want.width, want.height]);
      const diffImg = new PNG({ width: w, height: h });
      const diff = pixelmatch(png.data, want.data, diffImg.data, w, h, { threshold: 0.1 });
      const L = compareLayout(w, h, [base.viewport, ckpt.viewport]);
      const whole: [string, Rect] = ["whole", { x: 0, y: 0, width: w, height: h }];
      const regions: [string, Rect][] = name.includes("score")
        ? [whole]
        : [
            ["header", L.header],
            ...L.columns.flatMap((c, i): [string, Rect][] => [
              [`caption ${"AB"[i]}`, c.caption],
              [`viewport ${"AB"[i]}`, c.viewportBox],
              [`credit ${"AB"[i]}`, c.credit],
              [`hud ${"AB"[i]}`, c.hud],
              [`trace ${"AB"[i]}`, c.trace],
            ]),
            whole,
          ];
      for (const [region, r] of regions) {
        let n = 0;
        for (let y = r.y; y < Math.min(h, r.y + r.height); y++) {
          for (let x = r.x; x < Math.min(w, r.x + r.width); x++) if (diffImg.data[(y * w + x) * 4] === 255 && diffImg.data[(y * w + x) * 4 + 1] === 0) n++;
        }
        expect(n, `${name}: differing pixels in the ${region} region (whole image: ${diff})`).toBeLessThanOrEqual(region === "whole" ? 60 : 30);
      }
    });
  }

  it("stamps only the unverified side, says DIFFERENT TASKS when they differ, and credits imagery on both sides", async () => {
    const L = compareLayout(1280, 720, [base.viewport, ckpt.viewport]);
    const red = (px: Buffer) => {
      let n = 0;
      for (let i = 0; i < px.length; i += 3) if (px[i] > 150 && px[i + 1] < 70 && px[i + 2] < 70) n++;
      return n / (px.length / 3);
    };
    const stampRect = (i: number): Rect => ({
      x: L.columns[i].viewportBox.x + L.columns[i].viewportBox.width / 2 - 60,
      y: L.columns[i].viewportBox.y,
      width: 120,
      height: 18,
    });
    const f = turnFrame(1, 10);
    const unverifiedB = { ...props, b: { ...props.b, timeline: { ...ckpt, episode: { ...ckpt.episode, verified: false } } } };
    const png = await still(f, unverifiedB);
    expect(red(await crop(png, stampRect(1))), "B stamped").toBeGreaterThan(0.3);
    expect(red(await crop(png, stampRect(0))), "A not stamped").toBeLessThan(0.01);
    const ink = (px: Buffer) => px.reduce((n, v) => n + (v > 100 ? 1 : 0), 0);
    for (const c of L.columns) expect(ink(await crop(png, c.credit))).toBeGreaterThan(100);
    // On the score card no panorama shows: no credit.
    const score = await still(clockOf().scoreStart + 60);
    for (const c of L.columns) expect(ink(await crop(score, { ...c.credit, width: 200 }))).toBe(0);
    // Different tasks: the header says so in accent colour.
    const diffTasks = { ...props, b: { ...props.b, timeline: other } };
    expect(sameTask(diffTasks)).toBe(false);
    const accent = (px: Buffer) => {
      let n = 0;
      for (let i = 0; i < px.length; i += 3) if (Math.abs(px[i] - 0xe8) + Math.abs(px[i + 1] - 0xb5) + Math.abs(px[i + 2] - 0x4a) < 30) n++;
      return n / (px.length / 3);
    };
    const headerMid: Rect = { x: 240, y: L.header.y, width: 300, height: L.header.height };
    expect(accent(await crop(await still(f, diffTasks), headerMid))).toBeGreaterThan(0.2);
    expect(accent(await crop(await still(f), headerMid))).toBeLessThan(0.05);
  });

  it("the score card's numbers are geoeval's reward, both sides", () => {
    const r = sideResult(props.a, 11);
    expect(r.reward).toBe(geoevalReward({ distance_km: base.outcome!.distanceKm, action_cost: base.outcome!.cost }));
    expect(r.reward).not.toBe(base.outcome!.reward);
  });
});
