/**
 * Several timelines on one clock, turn-aligned (pure, browser-safe: the
 * Compare (two-up) and Group (grid) compositions and the CLI use it).
 *
 * The clock is a list of slots: the opening, then one slot per turn (the
 * n-th turn segment of each side, counted in order, so turn n of every side
 * starts together), then the score card. A slot lasts as long as the longest
 * side's segment; the shorter ones hold their segment's last frame. A side
 * with no n-th turn has finished: it holds its last view (and says it
 * guessed) until the other sides' turns are over.
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
  segments: (number | null)[];
}

export interface SharedClock {
  fps: number;
  slots: ClockSlot[];
  totalFrames: number;
  /** Per side: how many turn segments it has (the opening and the score card not counted). */
  turns: number[];
  /** First frame of the score card slot. */
  scoreStart: number;
}

/** A two-up's clock: the shared clock of two sides. */
export type CompareClock = SharedClock;

/** The score card of a two-up video lasts at least this long: it has two results to read. */
export const COMPARE_SCORE_S = 5;

/** How long a shared score card lasts at least: 5 s for two results, half a second more per further one (a group of 16: 12 s). */
export function scoreSeconds(sides: number): number {
  return Math.max(COMPARE_SCORE_S, 4 + sides / 2);
}

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

/** Two timelines (a two-up's A and B) on one clock. */
export function alignTimelines(a: Pick<Timeline, "fps" | "segments">, b: Pick<Timeline, "fps" | "segments">): CompareClock {
  return alignClock([a, b]);
}

/** Any number of timelines (one or more, e.g. a GRPO group's siblings) on one clock. */
export function alignClock(timelines: readonly Pick<Timeline, "fps" | "segments">[]): SharedClock {
  if (timelines.length === 0) throw new Error("no timelines to align");
  const fps = timelines[0].fps;
  const rates = [...new Set(timelines.map((t) => t.fps))];
  if (rates.length > 1)
    throw new Error(
      `the ${timelines.length === 2 ? "two " : ""}timelines have different frame rates (${rates.join(" and ")} fps); render ${timelines.length === 2 ? "both" : "all"} at one --fps`,
    );
  const sides = timelines.map((t) => t.segments);
  const parts = sides.map(partsOf);
  const slots: ClockSlot[] = [];
  let start = 0;
  const push = (kind: SlotKind, turn: number, segs: (number | null)[], minFrames = 1) => {
    const d = Math.max(minFrames, ...segs.map((s, i) => dur(sides[i], s)));
    slots.push({ kind, turn, startFrame: start, durationFrames: d, segments: segs });
    start += d;
  };
  if (parts.some((p) => p.opening !== null))
    push(
      "opening",
      0,
      parts.map((p) => p.opening),
    );
  const n = Math.max(...parts.map((p) => p.turns.length));
  for (let k = 0; k < n; k++)
    push(
      "turn",
      k + 1,
      parts.map((p) => p.turns[k] ?? null),
    );
  const scoreStart = start;
  push(
    "score",
    -1,
    parts.map((p) => p.score),
    Math.round(scoreSeconds(timelines.length) * fps),
  );
  return { fps, slots, totalFrames: start, turns: parts.map((p) => p.turns.length), scoreStart };
}

/** The slot covering a clock frame (frames past the end stay in the last slot). */
export function slotAt(clock: SharedClock, frame: number): { index: number; slot: ClockSlot; offset: number } {
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
  /** This side's turns are over while another side's go on: it holds its last view. */
  finished: boolean;
  /** This side's segment ended before the slot did: it holds the segment's last frame. */
  holding: boolean;
  /** The clock is on the score card. */
  score: boolean;
}

/** What one side (0 = A, 1 = B; a group's n-th sibling) shows at a clock frame. */
export function sideAt(clock: SharedClock, segments: Segment[], side: number, frame: number): SideFrame {
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
