/**
 * The player's clock and links as pure functions: which video frame a time
 * shows, where each turn starts (the scrub bar's marks, the turn keys), and
 * the `#<episode_id>/t=<seconds>` deep link.
 */
import type { Timeline } from "../../../replay/timeline/timeline-schema.ts";

/** The frame a time shows, clamped to the video (a time between two frames shows the nearer one). */
export function frameAt(seconds: number, fps: number, totalFrames: number): number {
  if (!Number.isFinite(seconds) || seconds <= 0) return 0;
  return Math.min(totalFrames - 1, Math.round(seconds * fps));
}

/** A frame's time, to the millisecond (what a link says). */
export function secondsOf(frame: number, fps: number): number {
  return Math.round((frame / fps) * 1000) / 1000;
}

export interface TurnMark {
  turn: number;
  frame: number;
}

/** The first frame of each trace turn's segment, in order (the opening is turn 0's; the score card has none). */
export function turnMarks(t: Pick<Timeline, "segments">): TurnMark[] {
  const marks: TurnMark[] = [];
  for (const s of t.segments)
    if (s.turn >= 0 && (marks.length === 0 || marks[marks.length - 1].turn !== s.turn)) marks.push({ turn: s.turn, frame: s.startFrame });
  return marks;
}

/** The turn shown at a frame (the last mark at or before it), or null before the first / on the score card. */
export function turnAt(t: Pick<Timeline, "segments">, frame: number): number | null {
  let seg = t.segments[0];
  for (const s of t.segments) if (s.startFrame <= frame) seg = s;
  return seg.turn >= 0 ? seg.turn : null;
}

/** The start of the next (dir 1) or previous (dir -1) turn from a frame; the previous turn from inside one is its own start first. */
export function stepTurnFrame(marks: TurnMark[], frame: number, dir: 1 | -1, totalFrames: number): number {
  if (dir > 0) {
    const next = marks.find((m) => m.frame > frame);
    return next ? next.frame : totalFrames - 1;
  }
  let prev = 0;
  for (const m of marks) if (m.frame < frame) prev = m.frame;
  return prev;
}

/** `#<episode_id>/t=<seconds>`: the episode and time a link names, or null. */
export function parseTimeHash(hash: string): { id: string; t: number } | null {
  const m = /^#([^/]+)\/t=(\d+(?:\.\d+)?)$/.exec(hash);
  if (!m) return null;
  try {
    return { id: decodeURIComponent(m[1]), t: Number(m[2]) };
  } catch {
    return null;
  }
}

export function timeHash(id: string, seconds: number): string {
  return `#${encodeURIComponent(id)}/t=${Number(seconds.toFixed(3))}`;
}

/** 0:08.3 */
export function clockText(seconds: number): string {
  const m = Math.floor(seconds / 60);
  const s = seconds - m * 60;
  return `${m}:${s < 10 ? "0" : ""}${s.toFixed(1)}`;
}
