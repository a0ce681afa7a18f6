/**
 * The crops camera path (pure): endpoints are the recorded views, the centre follows GeoGuesser's
 * smootherstep, the size moves in log scale (the width half-way through a move is the geometric
 * mean), aspect is kept, every rectangle stays inside the image; and the plan of a recorded
 * episode: keyframes per turn, box events (appear, move, remove with a fade).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { easeInOut } from "../../replay/plan/camera-path.ts";
import { moveRects, moveSeconds, rectAt, MOVE_MAX_S, MOVE_MIN_S } from "../../envs/crops/replay/camera.ts";
import { boxEvents, keyframeFile, planFrames } from "../../envs/crops/replay/frames-plan.ts";
import { fitView, type Rect } from "../../envs/crops/replay/geometry.ts";
import { CropsRecordSchema, type CropsRecord } from "../../envs/crops/replay/schema.ts";
import { FIXTURES } from "../helpers.ts";

const W = 600;
const H = 400;
const width = (r: readonly number[]) => r[2] - r[0];
const height = (r: readonly number[]) => r[3] - r[1];
const centre = (r: readonly number[]) => [(r[0] + r[2]) / 2, (r[1] + r[3]) / 2];

/** A view as the gym makes them: fit of a centre and width at the 512x341 view's aspect. */
const viewArb = fc
  .record({ cx: fc.double({ min: 0, max: W, noNaN: true }), cy: fc.double({ min: 0, max: H, noNaN: true }), w: fc.double({ min: 8, max: W, noNaN: true }) })
  .map(({ cx, cy, w }) => fitView(cx, cy, w, w, W, H, 512, 341));

describe("rectAt: one camera move", () => {
  const whole: Rect = [0, 0, W, H];
  const zoomed: Rect = [300, 100, 450, 200]; // 4x zoom

  it("starts and ends exactly on the recorded views", () => {
    expect(rectAt(whole, zoomed, 0, W, H)).toEqual(whole);
    expect(rectAt(whole, zoomed, 1, W, H)).toEqual(zoomed);
  });

  it("zooms in log scale: the width half-way is the geometric mean (a 4x zoom is 2x at the middle), not the arithmetic one", () => {
    const mid = rectAt(whole, zoomed, 0.5, W, H);
    expect(width(mid)).toBeCloseTo(Math.sqrt(W * 150), 9); // 300
    expect(width(mid)).not.toBeCloseTo((W + 150) / 2, 3); // 375 would be a linear zoom
    expect(height(mid)).toBeCloseTo(Math.sqrt(H * 100), 9);
    // Equal steps of progress are equal zoom ratios.
    const ratio = (a: number, b: number) => width(rectAt(whole, zoomed, a, W, H)) / width(rectAt(whole, zoomed, b, W, H));
    expect(ratio(0.25, 0)).toBeCloseTo(ratio(0.5, 0.25), 12);
    expect(ratio(1, 0.75)).toBeCloseTo(ratio(0.5, 0.25), 12);
  });

  it("moves the centre linearly in the eased progress", () => {
    const [ax, ay] = centre(whole);
    const [bx, by] = centre(zoomed);
    for (const e of [0.1, 0.3, 0.5, 0.9]) {
      const [cx, cy] = centre(rectAt(whole, zoomed, e, W, H));
      expect(cx).toBeCloseTo(ax + (bx - ax) * e, 9);
      expect(cy).toBeCloseTo(ay + (by - ay) * e, 9);
    }
  });

  it("keeps the aspect of two views of one aspect, stays inside the image, and zooms monotonically (property)", () => {
    fc.assert(
      fc.property(viewArb, viewArb, fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), (a, b, e1, e2) => {
        const r = rectAt(a, b, e1, W, H);
        expect(r[0]).toBeGreaterThanOrEqual(0);
        expect(r[1]).toBeGreaterThanOrEqual(0);
        expect(r[2]).toBeLessThanOrEqual(W);
        expect(r[3]).toBeLessThanOrEqual(H);
        expect(width(r) / height(r)).toBeCloseTo(width(a) / height(a), 6);
        const [lo, hi] = e1 <= e2 ? [e1, e2] : [e2, e1];
        const wl = width(rectAt(a, b, lo, W, H));
        const wh = width(rectAt(a, b, hi, W, H));
        if (width(b) >= width(a)) expect(wh).toBeGreaterThanOrEqual(wl * (1 - 1e-12));
        else expect(wh).toBeLessThanOrEqual(wl * (1 + 1e-12));
      }),
      { numRuns: 300 },
    );
  });
});

describe("moveRects: a move's video frames", () => {
  const a: Rect = [0, 0, 512, 512];
  const b: Rect = [82.43199999999999, 299.008, 254.46400000000003, 471.04];

  it("uses GeoGuesser's easing: frame i of n is rectAt(easeInOut(i / n)); the last frame is the recorded view itself", () => {
    const rs = moveRects(a, b, 30, 512, 512);
    expect(rs.length).toBeGreaterThan(2);
    rs.forEach((r, i) => expect(r).toEqual(rectAt(a, b, easeInOut((i + 1) / rs.length), 512, 512)));
    expect(rs.at(-1)).toEqual(b);
  });

  it("the frame at the middle of a move (an even count) has the geometric-mean width", () => {
    const rs = moveRects(a, b, 30, 512, 512);
    const n = rs.length % 2 === 0 ? rs.length : moveRects(a, b, 31, 512, 512).length;
    const path = rs.length % 2 === 0 ? rs : moveRects(a, b, 31, 512, 512);
    expect(width(path[n / 2 - 1])).toBeCloseTo(Math.sqrt(512 * width(b)), 9);
  });

  it("no move between equal views; longer for bigger zooms, within 0.6..2.2 s", () => {
    expect(moveRects(a, [...a] as Rect, 30, 512, 512)).toEqual([]);
    expect(moveSeconds(a, b)).toBeGreaterThan(moveSeconds(a, [64, 64, 448, 448]));
    expect(moveSeconds(a, [...a] as Rect)).toBe(MOVE_MIN_S);
    expect(moveSeconds(a, [0, 0, 511, 511])).toBeLessThan(MOVE_MIN_S + 0.01);
    expect(moveSeconds(a, [0, 0, 1, 1])).toBe(MOVE_MAX_S);
  });
});

const records = (file: string): CropsRecord[] =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => CropsRecordSchema.parse(JSON.parse(l)));
const EVAL = records(join(FIXTURES, "crops", "sample", "eval", "episodes.jsonl"));
const byId = (id: string) => EVAL.find((r) => r.episode_id === id)!;

describe("boxEvents and planFrames", () => {
  const box = (id: number, b: number[], label = "car") => ({ id, label, box: b as Rect });

  it("a new id appears, a changed box or label moves, a missing id is removed with a fade", () => {
    const ev = boxEvents(
      [box(1, [0, 0, 10, 10]), box(2, [5, 5, 9, 9]), box(3, [1, 1, 2, 2])],
      [box(2, [5, 5, 9, 9]), box(3, [1, 1, 3, 3]), box(4, [0, 0, 4, 4])],
      7,
      4,
    );
    expect(ev.map((e) => [e.id, e.kind, e.frame, e.fadeFrames])).toEqual([
      [1, "remove", 7, 4],
      [3, "move", 7, 0],
      [4, "appear", 7, 0],
    ]);
    expect(ev[1].from).toEqual([1, 1, 2, 2]);
    expect(ev[1].box).toEqual([1, 1, 3, 3]);
    expect(boxEvents([box(1, [0, 0, 1, 1], "car")], [box(1, [0, 0, 1, 1], "taxi")], 0, 4).map((e) => e.kind)).toEqual(["move"]);
  });

  it("a recorded episode: one keyframe per turn at the end of its move, in-between frames only for view changes, boxes per turn", () => {
    const rec = byId("3a489537d86e"); // box, box, remove, box, zoom, invalid, invalid, done
    const p = planFrames(rec, 10, 960, 640);
    expect(p.keyframes.map((k) => k.file)).toEqual(rec.turns.map((t) => keyframeFile(t.turn)));
    for (const k of p.keyframes) expect(p.frames[k.frame]).toMatchObject({ file: k.file, keyframe: k.turn, camera: k.view });
    const zoom = p.turns.find((t) => t.action === "zoom")!;
    expect(zoom.motionFrames).toBeGreaterThan(1);
    expect(p.inBetween).toHaveLength(zoom.motionFrames - 1);
    expect(p.turns.filter((t) => t.motionFrames > 0)).toEqual([zoom]);
    expect(p.turns.map((t) => t.boxes.map((b) => `${b.kind}:${b.id}`))).toEqual([[], ["appear:1"], ["appear:2"], ["remove:1"], ["appear:3"], [], [], [], []]);
    expect(p.turns[3].boxes[0].fadeFrames).toBe(4);
    expect(p.turns.map((t) => t.status.split(":")[0])).toEqual(rec.turns.map((t) => t.status.split(":")[0]));
    // Frames run back to back, the turns tile them.
    p.turns.forEach((t, i) => expect(t.startFrame + t.motionFrames + t.holdFrames).toBe(p.turns[i + 1]?.startFrame ?? p.frames.length));
  });

  it("an adjust is a move event", () => {
    const rec = byId("58430cd3997b");
    const p = planFrames(rec, 10, 768, 512);
    const adjusts = p.turns.filter((t) => t.action === "adjust" && t.status === "ok");
    expect(adjusts.length).toBeGreaterThan(0);
    for (const t of adjusts) expect(t.boxes.map((b) => b.kind)).toEqual(["move"]);
  });
});
