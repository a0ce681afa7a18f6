/**
 * The crops video's frame-pure rules, from the sample's records through the real frames plan:
 * boxes drawn in, adjusted boxes sliding under a flash, removed boxes struck out then gone; a
 * group's clock starting every sibling's turn n together; a label's colour following its class.
 */
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { FIXTURES } from "../helpers.ts";
import { CropsRecordSchema, type CropsRecord } from "../../envs/crops/replay/schema.ts";
import { planFrames } from "../../envs/crops/replay/frames-plan.ts";
import type { CropsTimeline } from "../../envs/crops/replay/frames-timeline.ts";
import { boxesAt, DRAW_S, STRIKE_S, STRUCK_HOLD_S, turnAt } from "../../envs/crops/video/state.ts";
import { cropsGroupClock, siblingFrame } from "../../envs/crops/video/group-clock.ts";
import type { CropsGroupProps } from "../../envs/crops/video/group-props.ts";
import { labelColour } from "../../envs/crops/video/colours.ts";

const SAMPLE = join(FIXTURES, "crops", "sample");
const records = (file: string): CropsRecord[] =>
  readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((l) => CropsRecordSchema.parse(JSON.parse(l)));
const SIZES: Record<string, [number, number]> = Object.fromEntries(
  readFileSync(join(SAMPLE, "tasks.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { image_id: string; width: number; height: number })
    .map((t) => [t.image_id, [t.width, t.height]]),
);

/** The parts of a timeline the scenes read, from the real plan. */
function timelineOf(rec: CropsRecord, fps = 30): CropsTimeline {
  const [iw, ih] = SIZES[rec.task.image_id];
  const plan = planFrames(rec, fps, iw, ih);
  return { fps, turns: plan.turns, frames: plan.frames, totalFrames: plan.frames.length } as CropsTimeline;
}

const evalRecs = records(join(SAMPLE, "eval", "episodes.jsonl"));
const byId = (id: string) => evalRecs.find((r) => r.episode_id === id)!;

describe("box overlays on a frame", () => {
  // adjust, box, remove, box, box, adjust, box, done
  const t = timelineOf(byId("51b755c57fb6"));
  const turnOf = (action: string) => t.turns.find((e) => e.action === action && e.boxes.length > 0)!;

  it("a new box is traced in over DRAW_S from its keyframe, and is not there before it", () => {
    const e = turnOf("box");
    const id = e.boxes.find((b) => b.kind === "appear")!.id;
    expect(boxesAt(t, e.keyframeFrame - 1).some((b) => b.id === id)).toBe(false);
    const at = (f: number) => boxesAt(t, f).find((b) => b.id === id)!;
    expect(at(e.keyframeFrame).drawn).toBe(0);
    expect(at(e.keyframeFrame + 5).drawn).toBeGreaterThan(0);
    expect(at(e.keyframeFrame + 5).drawn).toBeLessThan(1);
    expect(at(e.keyframeFrame + Math.round(DRAW_S * 30)).drawn).toBe(1);
  });

  it("an adjusted box starts where it was, under a full flash, and ends where the record says", () => {
    const e = t.turns.find((x) => x.boxes.some((b) => b.kind === "move"))!;
    const ev = e.boxes.find((b) => b.kind === "move")!;
    const first = boxesAt(t, ev.frame).find((b) => b.id === ev.id)!;
    expect(first.box).toEqual(ev.from);
    expect(first.flash).toBe(1);
    const later = boxesAt(t, ev.frame + 30).find((b) => b.id === ev.id)!;
    expect(later.box).toEqual(ev.box);
    expect(later.flash).toBe(0);
  });

  it("a removed box is struck out, held, faded, then gone", () => {
    const e = turnOf("remove");
    const ev = e.boxes.find((b) => b.kind === "remove")!;
    const at = (f: number) => boxesAt(t, f).find((b) => b.id === ev.id);
    expect(at(ev.frame - 1)!.struck).toBeNull();
    expect(at(ev.frame + Math.round(STRIKE_S * 30))).toMatchObject({ struck: 1, alpha: 1 });
    const hold = Math.round((STRIKE_S + STRUCK_HOLD_S) * 30);
    expect(at(ev.frame + hold + Math.ceil(ev.fadeFrames / 2))!.alpha).toBeLessThan(1);
    expect(at(ev.frame + hold + ev.fadeFrames)).toBeUndefined();
  });

  it("turnAt places every frame in its turn, with progress running 0..1 through it", () => {
    for (const e of t.turns) {
      expect(turnAt(t, e.startFrame)).toMatchObject({ turn: e, offset: 0, progress: 0 });
      expect(turnAt(t, e.keyframeFrame).turn).toBe(e);
    }
  });
});

describe("a crops group's clock", () => {
  const train = records(join(SAMPLE, "train", "rollouts.jsonl")).filter((r) => r.group_id === "train/step-000/train-000");
  const props = { siblings: train.map((r) => ({ props: { timeline: timelineOf(r) } })), cardFrames: 150 } as unknown as CropsGroupProps;
  const c = cropsGroupClock(props);

  it("starts every sibling's turn n on the same frame; the grid lasts its longest turns; the card follows", () => {
    const tls = props.siblings.map((s) => s.props.timeline);
    expect(c.turnStarts).toHaveLength(Math.max(...tls.map((t) => t.turns.length)));
    c.turnStarts.forEach((start, k) => {
      for (const t of tls) if (k < t.turns.length) expect(siblingFrame(c, t, start)).toEqual({ frame: t.turns[k].startFrame, done: false });
    });
    expect(c.gridFrames).toBeGreaterThanOrEqual(Math.max(...tls.map((t) => t.totalFrames)));
    expect(c.totalFrames).toBe(c.gridFrames + 150);
  });

  it("a sibling with fewer turns holds its last frame, done, while the others play on", () => {
    const short = props.siblings.map((s) => s.props.timeline).sort((a, b) => a.turns.length - b.turns.length)[0];
    expect(siblingFrame(c, short, c.gridFrames - 1)).toEqual({ frame: short.totalFrames - 1, done: true });
  });
});

describe("a box's colour is its label's", () => {
  it("labels of one class share a colour; the colour does not depend on the box", () => {
    expect(labelColour("red car")).toBe(labelColour("taxi"));
    expect(labelColour("Teacups")).toBe(labelColour("cup"));
    expect(labelColour("lamp post")).toBe(labelColour("Lamp-Posts"));
  });
});
