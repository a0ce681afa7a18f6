/**
 * What a crops video shows on one frame, from the timeline alone (pure): the camera, the turn and
 * how far into it, and every box overlay with its animation (drawn in, flashing after an adjust,
 * struck out and fading after a remove).
 */
import type { CropsTimeline, CropsTurnEvent } from "../replay/frames-timeline.ts";
import { ramp } from "../../../video/scene/motion.ts";

type Rect = [number, number, number, number];

/** Seconds a new box takes to be drawn in, an adjusted one to slide and flash, a removed one to be struck out and then stay. */
export const DRAW_S = 0.35;
export const FLASH_S = 0.5;
export const STRIKE_S = 0.3;
export const STRUCK_HOLD_S = 0.6;

export interface BoxOverlay {
  id: number;
  label: string;
  /** Where the outline is on this frame (image pixels). */
  box: Rect;
  /** 0..1: how much of the outline is drawn (1: all of it). */
  drawn: number;
  /** 0..1: the flash of an adjust (white outline over the box), 0 when none. */
  flash: number;
  /** 0..1: how far the strike-through of a removed box has been drawn; null for a live box. */
  struck: number | null;
  alpha: number;
}

const frames = (s: number, fps: number) => Math.max(1, Math.round(s * fps));
const lerpRect = (a: Rect, b: Rect, t: number): Rect => [0, 1, 2, 3].map((i) => a[i] + (b[i] - a[i]) * t) as Rect;

/** The turn a frame belongs to (its move or hold), by the timeline's frames. */
export function turnAt(t: CropsTimeline, frame: number): { turn: CropsTurnEvent; index: number; offset: number; progress: number } {
  const f = t.frames[Math.min(frame, t.frames.length - 1)];
  const index = Math.max(
    0,
    t.turns.findIndex((e) => e.turn === f.turn),
  );
  const turn = t.turns[index];
  const end = index + 1 < t.turns.length ? t.turns[index + 1].startFrame : t.totalFrames;
  const offset = frame - turn.startFrame;
  return { turn, index, offset, progress: Math.min(1, offset / Math.max(1, end - turn.startFrame)) };
}

/** Every box overlay on `frame`, in id order. */
export function boxesAt(t: CropsTimeline, frame: number): BoxOverlay[] {
  const fps = t.fps;
  const live = new Map<number, BoxOverlay>();
  for (const turn of t.turns) {
    for (const e of turn.boxes) {
      if (e.frame > frame) continue;
      const age = frame - e.frame;
      if (e.kind === "appear")
        live.set(e.id, { id: e.id, label: e.label, box: e.box, drawn: ramp(age, [0, frames(DRAW_S, fps)]), flash: 0, struck: null, alpha: 1 });
      else if (e.kind === "move") {
        const slide = ramp(age, [0, frames(DRAW_S, fps)]);
        const flash = 1 - ramp(age, [0, frames(FLASH_S, fps)]);
        live.set(e.id, { id: e.id, label: e.label, box: e.from ? lerpRect(e.from, e.box, slide) : e.box, drawn: 1, flash, struck: null, alpha: 1 });
      } else {
        const hold = frames(STRIKE_S + STRUCK_HOLD_S, fps);
        const alpha = 1 - ramp(age, [hold, hold + Math.max(1, e.fadeFrames)]);
        if (alpha <= 0) live.delete(e.id);
        else live.set(e.id, { id: e.id, label: e.label, box: e.box, drawn: 1, flash: 0, struck: ramp(age, [0, frames(STRIKE_S, fps)]), alpha });
      }
    }
  }
  return [...live.values()].sort((a, b) => a.id - b.id);
}
