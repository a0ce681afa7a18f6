/**
 * The plan of a crops episode's video, from its record alone (pure): which video frame shows
 * which camera rectangle and file, the in-between frames to render, each turn's keyframe, and
 * the per-turn events (boxes appearing, moving, fading out). Turn t moves the camera from turn
 * t-1's view_after to its own, then holds on its recorded view.
 */
import type { Rect } from "./geometry.ts";
import { PALETTE, type DrawnBox } from "./render.ts";
import type { CropsRecord, CropsTurn } from "./schema.ts";
import type { CropsBoxEvent, CropsTimeline, CropsTurnEvent } from "./frames-timeline.ts";
import { FADE_S, FINAL_HOLD_S, moveRects, OPENING_HOLD_S, secondsToFrames, TURN_HOLD_S } from "./camera.ts";

type Frame = CropsTimeline["frames"][number];

export interface InBetween {
  file: string;
  camera: Rect;
  boxes: DrawnBox[];
}

export interface FramesPlan {
  frames: Frame[];
  turns: CropsTurnEvent[];
  /** Per turn (in record order): its keyframe file and the first frame showing it. */
  keyframes: { turn: number; file: string; view: Rect; frame: number }[];
  inBetween: InBetween[];
}

const pad = (n: number, w: number) => String(n).padStart(w, "0");
export const keyframeFile = (turn: number): string => `frames/turn-${pad(turn, 2)}.jpg`;
const inBetweenFile = (turn: number, i: number) => `frames/turn-${pad(turn, 2)}-move-${pad(i, 3)}.jpg`;

export const colourOf = (id: number): [number, number, number] => [...PALETTE[(((id - 1) % 8) + 8) % 8]] as [number, number, number];

export const actionName = (t: CropsTurn): string | null => {
  const a = t.action as { action?: unknown } | null | undefined;
  return a && typeof a === "object" && typeof a.action === "string" ? a.action : null;
};

/** Box changes from one turn's boxes to the next: new ids appear, changed ones move, missing ones are removed. */
export function boxEvents(
  before: readonly CropsTurn["boxes"][number][],
  after: readonly CropsTurn["boxes"][number][],
  frame: number,
  fadeFrames: number,
): CropsBoxEvent[] {
  const prev = new Map(before.map((b) => [b.id, b]));
  const next = new Map(after.map((b) => [b.id, b]));
  const out: CropsBoxEvent[] = [];
  const rect = (b: readonly number[]) => [b[0], b[1], b[2], b[3]] as Rect;
  for (const b of after) {
    const p = prev.get(b.id);
    if (!p) out.push({ id: b.id, kind: "appear", frame, fadeFrames: 0, label: b.label, box: rect(b.box), from: null, colour: colourOf(b.id) });
    else if (p.label !== b.label || p.box.some((v, i) => v !== b.box[i]))
      out.push({ id: b.id, kind: "move", frame, fadeFrames: 0, label: b.label, box: rect(b.box), from: rect(p.box), colour: colourOf(b.id) });
  }
  for (const p of before)
    if (!next.has(p.id)) out.push({ id: p.id, kind: "remove", frame, fadeFrames, label: p.label, box: rect(p.box), from: rect(p.box), colour: colourOf(p.id) });
  return out.sort((a, b) => a.id - b.id);
}

export function planFrames(rec: CropsRecord, fps: number, iw: number, ih: number): FramesPlan {
  const frames: Frame[] = [];
  const turns: CropsTurnEvent[] = [];
  const keyframes: FramesPlan["keyframes"] = [];
  const inBetween: InBetween[] = [];
  const fade = secondsToFrames(FADE_S, fps);
  rec.turns.forEach((t, i) => {
    const view = [...t.view_after] as Rect;
    const key = keyframeFile(t.turn);
    const startFrame = frames.length;
    const from = i === 0 ? view : ([...rec.turns[i - 1].view_after] as Rect);
    const path = i === 0 ? [] : moveRects(from, view, fps, iw, ih);
    const boxes = t.boxes.map((b) => ({ id: b.id, box: b.box }));
    // Every move frame but the last is rendered; the last is the recorded view (the keyframe).
    path.slice(0, -1).forEach((camera, k) => {
      const file = inBetweenFile(t.turn, k + 1);
      inBetween.push({ file, camera, boxes });
      frames.push({ camera, file, turn: t.turn, keyframe: null });
    });
    const keyframeFrame = frames.length;
    const last = i === rec.turns.length - 1;
    const holdS = i === 0 ? OPENING_HOLD_S : last ? FINAL_HOLD_S : TURN_HOLD_S;
    const hold = secondsToFrames(holdS, fps) + (path.length ? 1 : 0); // the move's last frame is the hold's first
    for (let k = 0; k < hold; k++) frames.push({ camera: [...view] as Rect, file: key, turn: t.turn, keyframe: t.turn });
    keyframes.push({ turn: t.turn, file: key, view, frame: keyframeFrame });
    turns.push({
      turn: t.turn,
      action: actionName(t),
      status: t.status,
      startFrame,
      motionFrames: path.length,
      holdFrames: hold - (path.length ? 1 : 0),
      keyframeFrame,
      view,
      boxes: boxEvents(i === 0 ? [] : rec.turns[i - 1].boxes, t.boxes, keyframeFrame, fade),
    });
  });
  return { frames, turns, keyframes, inBetween };
}

/** The record's outcome as the timeline shows it (fields the contract defines; anything else left out). */
export function outcomeOf(rec: CropsRecord): CropsTimeline["outcome"] {
  const o = rec.outcome as CropsRecord["outcome"] & { ended_by?: unknown; turns_used?: unknown };
  const matches = o.matches.flatMap((m) => {
    const x = m as { pred?: unknown; gt?: unknown; credit?: unknown; label_ok?: unknown };
    return typeof x.pred === "number" && typeof x.gt === "string" && typeof x.credit === "number"
      ? [{ pred: x.pred, gt: x.gt, credit: x.credit, labelOk: x.label_ok === true }]
      : [];
  });
  return {
    score: o.score,
    endedBy: typeof o.ended_by === "string" ? o.ended_by : null,
    turnsUsed: typeof o.turns_used === "number" && Number.isInteger(o.turns_used) ? o.turns_used : null,
    matches,
    misses: o.misses.filter((m): m is string => typeof m === "string"),
    falseAlarms: o.false_alarms.filter((m): m is number => typeof m === "number" && Number.isInteger(m)),
  };
}
