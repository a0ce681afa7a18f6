/**
 * A crops group's shared clock: every sibling's turn n starts together (the rule of GeoGuesser's
 * group and two-up clocks); a turn's window is its longest sibling's, and a sibling that is
 * quicker, or done, holds its last frame of that turn. Computed once per props object.
 */
import type { CropsTimeline } from "../replay/frames-timeline.ts";
import type { CropsGroupProps } from "./group-props.ts";

export interface CropsGroupClock {
  fps: number;
  /** The frame each turn (by its place in the records) starts on, for every sibling at once. */
  turnStarts: number[];
  /** Frames of the grid; the score card follows. */
  gridFrames: number;
  totalFrames: number;
}

const turnEnd = (t: CropsTimeline, k: number) => (k + 1 < t.turns.length ? t.turns[k + 1].startFrame : t.totalFrames);

const clocks = new WeakMap<CropsGroupProps, CropsGroupClock>();

export function cropsGroupClock(p: CropsGroupProps): CropsGroupClock {
  let c = clocks.get(p);
  if (c) return c;
  const tls = p.siblings.map((s) => s.props.timeline);
  const turns = Math.max(...tls.map((t) => t.turns.length));
  const turnStarts: number[] = [];
  let at = 0;
  for (let k = 0; k < turns; k++) {
    turnStarts.push(at);
    at += Math.max(...tls.map((t) => (k < t.turns.length ? turnEnd(t, k) - t.turns[k].startFrame : 0)));
  }
  c = { fps: tls[0].fps, turnStarts, gridFrames: at, totalFrames: at + p.cardFrames };
  clocks.set(p, c);
  return c;
}

/** The shared turn (by place) a grid frame is in. */
export function sharedTurnAt(c: CropsGroupClock, frame: number): number {
  let k = 0;
  while (k + 1 < c.turnStarts.length && c.turnStarts[k + 1] <= frame) k++;
  return k;
}

/** A sibling's own frame at a grid frame, and whether it has finished (no turn this late, or this turn's frames used up). */
export function siblingFrame(c: CropsGroupClock, t: CropsTimeline, frame: number): { frame: number; done: boolean } {
  const k = sharedTurnAt(c, frame);
  if (k >= t.turns.length) return { frame: t.totalFrames - 1, done: true };
  const local = t.turns[k].startFrame + (frame - c.turnStarts[k]);
  const end = turnEnd(t, k);
  return local < end ? { frame: local, done: false } : { frame: end - 1, done: k === t.turns.length - 1 };
}
