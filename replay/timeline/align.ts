/**
 * Two timelines on one clock, turn-aligned (pure, browser-safe: the Compare
 * composition and the CLI both use it).
 *
 * The clock is a list of slots: the opening, then one slot per turn (the
 * n-th turn segment of each side, counted in order, so turn n of both starts
 * together), then the score card. A slot lasts as long as the longer side's
 * segment; the shorter side holds its segment's last frame. A side with no
 * n-th turn has finished: it holds its last view (and says it guessed) until
 * the other side's turns are over.
 */
import type { Segment, Timeline } from "./timeline-schema.ts";

export type SlotKind = "opening" | "turn" | "score";

export interface ClockSlot {
  kind: SlotKind;
  /** 0 for the opening, n for the n-th turn (1-based, counted per side), -1 for the score card. */
  turn: number;
  startFrame: number;
  durationFrames: number;
  /** Per side: index into that timeline's segments, or null (finished, or no score segment). */
  segments: [number | null, number | null];
}

export interface CompareClock {
  fps: number;
  slots: ClockSlot[];
  totalFrames: number;
  /** Per side: how many turn segments it has (the opening and the score card not counted). */
  turns: [number, number];
  /** First frame of the score card slot. */
  scoreStart: number;
}

/** The score card of a two-up video lasts at least this long: it has two results to read. */
export const COMPARE_SCORE_S = 5;

interface Parts {
  opening: number | null;
  turns: number[];
  score: number | null;
}

function partsOf(segments: Segment[]): Parts {
  const p: Parts = { opening: null, turns: [], score: null };
  segments.forEach((s, i) => {
    if (s.kind === "opening" && p.opening === null && p.turns.length === 0) p.opening = i;
    else if (s.kind === "score") p.score = i;
    else p.turns.push(i);
  });
  return p;
}

const dur = (segments: Segment[], i: number | null): number => (i === null ? 0 : segments[i].durationFrames);

export function alignTimelines(a: Pick<Timeline, "fps" | "segments">, b: Pick<Timeline, "fps" | "segments">): CompareClock {
  if (a.fps !== b.fps) throw new Error(`the two timelines have different frame rates (${a.fps} and ${b.fps} fps); render both at one --fps`);
  const sides = [a.segments, b.segments] as const;
  const parts = [partsOf(a.segments), partsOf(b.segments)] as const;
  const slots: ClockSlot[] = [];
  let start = 0;
  const push = (kind: SlotKind, turn: number, segs: [number | null, number | null], minFrames = 1) => {
    const d = Math.max(minFrames, dur(sides[0], segs[0]), dur(sides[1], segs[1]));
    slots.push({ kind, turn, startFrame: start, durationFrames: d, segments: segs });
    start += d;
  };
  if (parts[0].opening !== null || parts[1].opening !== null) push("opening", 0, [parts[0].opening, parts[1].opening]);
  const n = Math.max(parts[0].turns.length, parts[1].turns.length);
  for (let k = 0; k < n; k++) push("turn", k + 1, [parts[0].turns[k] ?? null, parts[1].turns[k] ?? null]);
  const scoreStart = start;
  push("score", -1, [parts[0].score, parts[1].score], Math.round(COMPARE_SCORE_S * a.fps));
  return { fps: a.fps, slots, totalFrames: start, turns: [parts[0].turns.length, parts[1].turns.length], scoreStart };
}

/** The slot covering a clock frame (frames past the end stay in the last slot). */
export function slotAt(clock: CompareClock, frame: number): { index: number; slot: ClockSlot; offset: number } {
  let lo = 0;
  let hi = clock.slots.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (clock.slots[mid].startFrame <= frame) lo = mid;
    else hi = mid - 1;
  }
  const slot = clock.slots[lo];
  return { index: lo, slot, offset: Math.max(0, frame - slot.startFrame) };
}

export interface SideFrame {
  /** The segment this side shows and the offset into it (clamped to its last frame while it holds). */
  index: number;
  segment: Segment;
  offset: number;
  /** This side's turns are over while the other side's go on: it holds its last view. */
  finished: boolean;
  /** This side's segment ended before the slot did: it holds the segment's last frame. */
  holding: boolean;
  /** The clock is on the score card. */
  score: boolean;
}

/** What one side (0 = A, 1 = B) shows at a clock frame. */
export function sideAt(clock: CompareClock, segments: Segment[], side: 0 | 1, frame: number): SideFrame {
  const { index, slot, offset } = slotAt(clock, frame);
  const own = slot.segments[side];
  if (own !== null) {
    const s = segments[own];
    return {
      index: own,
      segment: s,
      offset: Math.min(offset, s.durationFrames - 1),
      finished: false,
      holding: offset >= s.durationFrames,
      score: slot.kind === "score",
    };
  }
  // No segment of its own in this slot: the last one it had, at its last frame.
  for (let i = index - 1; i >= 0; i--) {
    const prev = clock.slots[i].segments[side];
    if (prev === null) continue;
    const s = segments[prev];
    return { index: prev, segment: s, offset: s.durationFrames - 1, finished: true, holding: true, score: slot.kind === "score" };
  }
  // Nothing earlier (a timeline of only a score card): its first segment.
  return { index: 0, segment: segments[0], offset: 0, finished: slot.kind !== "opening", holding: true, score: slot.kind === "score" };
}
