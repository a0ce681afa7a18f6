/**
 * The group video's pure parts: the grid rule and every tile's rectangles
 * (2, 3, 4, 8 and 16 siblings at 1280x720 and 1920x1080), the N-way clock,
 * the ranking and how advantages read, the score card's motion, and how
 * `--group` names a group (and what it says when there is none).
 */
import { describe, expect, it } from "vitest";
import { gridShape, groupLayout, type GroupLayout } from "../../video/parts/group-grid.ts";
import { formatAdvantage, rankSiblings } from "../../envs/geoguesser/video/group/rank.ts";
import { advantageRule } from "../../envs/geoguesser/video/group/score-card.ts";
import { alignClock, alignTimelines, scoreSeconds, sideAt } from "../../envs/geoguesser/replay/timeline/align.ts";
import { compareScoreMotion, sharedScoreMotion } from "../../video/scene/motion.ts";
import { findGroup, parseGroupRef } from "../../replay/groups/find.ts";
import { computeGroups, type RolloutNumbers } from "../../replay/groups/groups.ts";
import { GeoreplayError } from "../../replay/io/errors.ts";
import type { Rect } from "../../video/scene/layout.ts";
import type { Segment } from "../../envs/geoguesser/replay/timeline/timeline-schema.ts";

const VIEW = { width: 640, height: 640 };
const inside = (a: Rect, b: Rect) => a.x >= b.x && a.y >= b.y && a.x + a.width <= b.x + b.width && a.y + a.height <= b.y + b.height;
const overlap = (a: Rect, b: Rect) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe("the grid rule", () => {
  it("2 -> 1x2, 3 and 4 -> 2x2, 8 -> 2x4, 16 -> 4x4 (16:9), and the sizes between", () => {
    const shape = (n: number) => {
      const s = gridShape(n, 1280, 720);
      return `${s.rows}x${s.cols}`;
    };
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 13, 16, 20, 64].map(shape)).toEqual([
      "1x1",
      "1x2",
      "2x2",
      "2x2",
      "2x3",
      "2x3",
      "2x4",
      "2x4",
      "3x4",
      "3x4",
      "4x4",
      "4x4",
      "4x5",
      "8x8",
    ]);
    // Square keeps the rule; portrait turns it on its side.
    expect(gridShape(8, 1080, 1080)).toEqual({ rows: 2, cols: 4 });
    expect(gridShape(8, 720, 1280)).toEqual({ rows: 4, cols: 2 });
    expect(() => gridShape(0, 1280, 720)).toThrow(/at least one/);
  });
});

describe("groupLayout: tile rectangles", () => {
  // Hand-computed at 1280x720 (unit 1): pad 10, gap 8, header 6..36, grid from y 42 to 694, credit at 698.
  it("2x2 at 1280x720: 626x322 cells, the viewport beside the HUD", () => {
    const L = groupLayout(1280, 720, 4, VIEW);
    expect(L.header).toEqual({ x: 10, y: 6, width: 1260, height: 30 });
    expect(L.credit).toEqual({ x: 10, y: 698, width: 1260, height: 16 });
    expect(L.tiles.map((t) => t.cell)).toEqual([
      { x: 10, y: 42, width: 626, height: 322 },
      { x: 644, y: 42, width: 626, height: 322 },
      { x: 10, y: 372, width: 626, height: 322 },
      { x: 644, y: 372, width: 626, height: 322 },
    ]);
    const t = L.tiles[0];
    expect(t.beside).toBe(true);
    expect(t.caption).toEqual({ x: 10, y: 42, width: 626, height: 26 });
    expect(t.viewportBox).toEqual({ x: 10, y: 71, width: 293, height: 293 });
    expect(t.hud).toEqual({ x: 309, y: 71, width: 327, height: 293 });
  });

  it("3 at 1280x720: the 2x2 grid with its last cell empty", () => {
    const L = groupLayout(1280, 720, 3, VIEW);
    expect(L.shape).toEqual({ rows: 2, cols: 2 });
    expect(L.tiles.map((t) => t.cell)).toEqual(
      groupLayout(1280, 720, 4, VIEW)
        .tiles.slice(0, 3)
        .map((t) => t.cell),
    );
  });

  it("2 at 1280x720: two tall cells, the HUD under a 573 px viewport", () => {
    const L = groupLayout(1280, 720, 2, VIEW);
    expect(L.tiles.map((t) => t.cell)).toEqual([
      { x: 10, y: 42, width: 626, height: 652 },
      { x: 644, y: 42, width: 626, height: 652 },
    ]);
    expect(L.tiles[0]).toMatchObject({ beside: false, viewportBox: { x: 37, y: 71, width: 573, height: 573 }, hud: { x: 10, y: 650, width: 626, height: 44 } });
  });

  it("8 at 1280x720: 2x4 cells of 309x322, the HUD under a 262 px viewport", () => {
    const L = groupLayout(1280, 720, 8, VIEW);
    expect(L.tiles.map((t) => [t.cell.x, t.cell.y])).toEqual([
      [10, 42],
      [327, 42],
      [644, 42],
      [961, 42],
      [10, 372],
      [327, 372],
      [644, 372],
      [961, 372],
    ]);
    expect(L.tiles[7]).toMatchObject({
      unit: 0.75,
      cell: { width: 309, height: 322 },
      beside: false,
      viewportBox: { x: 985, y: 394, width: 262, height: 262 },
      hud: { x: 961, y: 661, width: 309, height: 33 },
    });
  });

  it("16 at 1280x720: 4x4 cells of 309x157, a 135 px viewport beside the HUD", () => {
    const L = groupLayout(1280, 720, 16, VIEW);
    expect(L.tiles[15]).toMatchObject({
      cell: { x: 961, y: 537, width: 309, height: 157 },
      beside: true,
      viewportBox: { x: 961, y: 559, width: 135, height: 135 },
      hud: { x: 1101, y: 559, width: 169, height: 135 },
    });
  });

  it("1920x1080 is the same grid at 1.5x (within rounding)", () => {
    for (const n of [2, 3, 4, 8, 16]) {
      const a = groupLayout(1280, 720, n, VIEW);
      const b = groupLayout(1920, 1080, n, VIEW);
      expect(b.shape).toEqual(a.shape);
      expect(b.unit).toBe(1.5);
      a.tiles.forEach((t, i) => {
        const s = b.tiles[i];
        expect(s.beside, `${n} tile ${i}`).toBe(t.beside);
        for (const k of ["cell", "viewportBox", "hud"] as const)
          for (const f of ["x", "y", "width", "height"] as const) expect(Math.abs(s[k][f] - 1.5 * t[k][f]), `${n} tile ${i} ${k}.${f}`).toBeLessThanOrEqual(16);
      });
    }
    expect(groupLayout(1920, 1080, 4, VIEW).tiles[3].cell).toEqual({ x: 966, y: 558, width: 939, height: 483 });
  });

  const check = (L: GroupLayout, w: number, h: number, n: number) => {
    const frame = { x: 0, y: 0, width: w, height: h };
    expect(L.tiles).toHaveLength(n);
    L.tiles.forEach((t, i) => {
      const at = `${w}x${h} n=${n} tile ${i}`;
      expect(inside(t.cell, frame), at).toBe(true);
      for (const part of [t.caption, t.viewportBox, t.hud]) expect(inside(part, t.cell), at).toBe(true);
      expect(inside(t.viewport, t.viewportBox), at).toBe(true);
      expect(overlap(t.viewportBox, t.hud) || overlap(t.caption, t.viewportBox), at).toBe(false);
      expect(t.viewportBox.width, at).toBe(t.viewportBox.height);
      expect(t.viewportBox.width, at).toBeGreaterThan(100);
      expect(overlap(t.cell, L.header) || overlap(t.cell, L.credit), at).toBe(false);
      for (const o of L.tiles.slice(i + 1)) expect(overlap(t.cell, o.cell), at).toBe(false);
    });
  };

  it("every tile inside the frame, its parts inside it, no two overlapping (2/3/4/8/16 at 1280x720, 1920x1080; also square and portrait)", () => {
    for (const [w, h] of [
      [1280, 720],
      [1920, 1080],
      [1080, 1080],
      [720, 1280],
    ])
      for (const n of [2, 3, 4, 8, 16]) check(groupLayout(w, h, n, VIEW), w, h, n);
  });

  it("a wide frame file keeps its aspect inside the square box", () => {
    const t = groupLayout(1280, 720, 4, { width: 800, height: 400 }).tiles[0];
    expect(t.viewport).toEqual({ x: 10, y: 71 + 73, width: 293, height: 147 });
  });
});

describe("one clock for N siblings", () => {
  const seg = (kind: Segment["kind"], turn: number, start: number, duration: number) =>
    ({ kind, turn, startFrame: start, durationFrames: duration }) as Segment;
  const tl = (segments: Segment[], fps = 30) => ({ fps, segments });
  const a = tl([seg("opening", 0, 0, 50), seg("camera", 1, 50, 30), seg("camera", 2, 80, 40), seg("score", -1, 120, 90)]);
  const b = tl([seg("opening", 0, 0, 40), seg("camera", 1, 40, 60), seg("score", -1, 100, 90)]);
  const c = tl([seg("opening", 0, 0, 50), seg("camera", 1, 50, 10), seg("camera", 2, 60, 10), seg("camera", 3, 70, 25), seg("score", -1, 95, 90)]);

  it("each turn slot lasts as long as the longest sibling's turn; the score card grows with the group", () => {
    const k = alignClock([a, b, c]);
    expect(k.turns).toEqual([2, 1, 3]);
    expect(k.slots.map((s) => [s.kind, s.turn, s.durationFrames])).toEqual([
      ["opening", 0, 50],
      ["turn", 1, 60],
      ["turn", 2, 40],
      ["turn", 3, 25],
      ["score", -1, Math.round(scoreSeconds(3) * 30)],
    ]);
    // b has no turn 2: it holds its last view, finished, while the others play on.
    expect(sideAt(k, b.segments, 1, 50 + 60 + 5)).toMatchObject({ index: 1, finished: true, holding: true });
    expect(sideAt(k, c.segments, 2, 50 + 60 + 40 + 3)).toMatchObject({ index: 3, offset: 3, finished: false });
  });

  it("two sides are the two-up's clock, exactly", () => {
    expect(alignClock([a, b])).toEqual(alignTimelines(a, b));
    expect(scoreSeconds(2)).toBe(5);
    expect([4, 8, 16].map(scoreSeconds)).toEqual([6, 8, 12]);
    expect(() => alignClock([a, b, tl(c.segments, 24)])).toThrow(/different frame rates \(30 and 24 fps\)/);
  });

  it("the shared score card's motion for two is the two-up's, and settles for sixteen by frame 44", () => {
    for (const f of [0, 7, 13, 25, 33, 50]) expect(sharedScoreMotion(f, 2)).toEqual({ ...compareScoreMotion(f), guess: [...compareScoreMotion(f).guess] });
    const m = sharedScoreMotion(44, 16);
    expect(m.guess.every((g) => g === 1) && m.truth === 1 && m.count === 1).toBe(true);
    expect(sharedScoreMotion(10, 16).guess.filter((g) => g > 0).length).toBeLessThan(16);
  });
});

describe("ranking and the numbers a tile shows", () => {
  it("ranks by advantage, then reward, then sibling order", () => {
    expect(rankSiblings([0.1, 0.9, -0.5, 0.9, 0].map((advantage, i) => ({ advantage, reward: i === 3 ? 1 : 0.5 })))).toEqual([3, 1, 0, 4, 2]);
  });

  it("writes advantages signed, zero without a sign", () => {
    expect([1.234, -0.876, 0, -0.0001, 0.004].map(formatAdvantage)).toEqual(["+1.23", "-0.88", "0.00", "0.00", "0.00"]);
  });

  it("says how the advantages were scaled", () => {
    expect(advantageRule({ scaleRewards: "group" })).toContain("(group std + 1e-4)");
    expect(advantageRule({ scaleRewards: "batch" })).toContain("(step std + 1e-4)");
    expect(advantageRule({ scaleRewards: "none" })).toBe("advantage = env reward - group mean");
  });
});

describe("--group <step>/<split>/<index>", () => {
  const r = (step: number, split: string, index: number, reward: number, line: number, groupId: string | null = null): RolloutNumbers => ({
    run: "run",
    step,
    split,
    index,
    groupId,
    reward,
    file: "rollouts-rank0.jsonl",
    line,
  });
  const report = computeGroups([r(0, "eval", 3, 0.5, 1), r(0, "eval", 3, 0.7, 2), r(0, "eval", 1, 0.2, 3), r(1, "eval", 3, 0.1, 4), r(5, "train", 9, 0.3, 5)]);

  it("parses and finds the group, with the trainer's advantages", () => {
    expect(parseGroupRef("0/eval/3")).toEqual({ step: 0, split: "eval", index: 3 });
    const g = findGroup(report, parseGroupRef("0/eval/3"));
    expect(g).toMatchObject({ step: 0, size: 2, rewards: [0.5, 0.7] });
    expect(g.advantages[0]).toBeCloseTo(-0.1 / (Math.SQRT2 * 0.1 + 1e-4), 9);
  });

  it("a malformed name is an input error saying the form", () => {
    for (const bad of ["0/eval", "x/eval/3", "0/eval/-1", "0//3"]) expect(() => parseGroupRef(bad)).toThrow(/expected <step>\/<split>\/<index>/);
  });

  it("a group that is not there lists the step's groups and the task at other steps", () => {
    let e: unknown;
    try {
      findGroup(report, { step: 0, split: "eval", index: 7 });
    } catch (x) {
      e = x;
    }
    expect(e).toBeInstanceOf(GeoreplayError);
    expect((e as GeoreplayError).kind).toBe("input");
    expect((e as Error).message).toContain("--group 0/eval/7: no such group among 4 group(s) of 5 rollout(s)");
    expect((e as Error).message).toContain("groups of step 0: 0/eval/1 (1 rollout), 0/eval/3 (2 rollouts)");
    expect(() => findGroup(report, { step: 3, split: "eval", index: 3 })).toThrow(
      /no rollouts of step 3; nearest steps: 1, 5, 0\n.*task eval\/3 at other steps: 1\/eval\/3 \(1 rollout\), 0\/eval\/3 \(2 rollouts\)/,
    );
  });

  it("two groups under one name (two group_ids) is an error naming both", () => {
    const two = computeGroups([r(0, "eval", 3, 0.5, 1, "g1"), r(0, "eval", 3, 0.7, 2, "g2")]);
    expect(() => findGroup(two, { step: 0, split: "eval", index: 3 })).toThrow(
      /2 groups match \(0\/eval\/3 \(1 rollout, group_id g1\); 0\/eval\/3 \(1 rollout, group_id g2\)\)/,
    );
  });
});
