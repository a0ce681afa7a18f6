/**
 * Every frame-dependent value the scenes animate, as pure functions of the
 * segment offset / progress. A settled animation stops changing its values,
 * so the scene stops changing and the encoder repeats the frame.
 */

/** Linear ramp from `out[0]` at `x = at[0]` to `out[1]` at `x = at[1]`, clamped outside (our own: the pure code needs no Remotion). */
export function ramp(x: number, at: readonly [number, number], out: readonly [number, number] = [0, 1]): number {
  const t = at[1] === at[0] ? (x >= at[1] ? 1 : 0) : (x - at[0]) / (at[1] - at[0]);
  const c = Math.min(1, Math.max(0, t));
  return out[0] + (out[1] - out[0]) * c;
}

export interface TraceMotion {
  /** Active turn card fade/slide-in. */
  appear: number;
  /** Reply scroll in px. */
  scroll: number;
  feedbackOpacity: number;
}

/** The trace pane's animation for a reply `overflow` px taller than its box, at `progress` (0..1 through the segment) and `offset` (frames since its start). */
export function traceMotion(overflow: number, progress: number, offset: number): TraceMotion {
  const appear = ramp(offset, [0, 6], [0, 1]);
  // Scroll the whole reply past during the middle of the segment, so its end (usually the action) is read last.
  const scroll = overflow * ramp(progress, [0.12, 0.8], [0, 1]);
  const feedbackOpacity = ramp(progress, [0.25, 0.35], [0, 1]);
  return { appear, scroll, feedbackOpacity };
}

export interface MapMotion {
  appear: number;
  /** Pop-in of the newest pin. */
  newestPin: number;
}

export function mapMotion(offset: number): MapMotion {
  return {
    appear: ramp(offset, [0, 8], [0, 1]),
    newestPin: ramp(offset, [6, 14], [0, 1]),
  };
}

export interface ScoreMotion {
  fade: number;
  guessPin: number;
  truthPin: number;
  line: number;
  /** Count-up of distance, points and reward. */
  count: number;
}

export function scoreMotion(offset: number): ScoreMotion {
  return {
    fade: ramp(offset, [0, 8], [0, 1]),
    guessPin: ramp(offset, [6, 14], [0, 1]),
    truthPin: ramp(offset, [34, 42], [0, 1]),
    line: ramp(offset, [12, 38], [0, 1]),
    count: ramp(offset, [16, 44], [0, 1]),
  };
}

/** The two-up trace strip fades in over its segment's first frames. */
export function traceStripAppear(offset: number): number {
  return ramp(offset, [0, 6], [0, 1]);
}

export interface CompareScoreMotion {
  /** Each side's guess marker grows in, A first. */
  guess: [number, number];
  truth: number;
  /** The results count up. */
  count: number;
  fade: number;
}

/** The two-up score card's animation at `offset` frames into it (settled from frame 44 on): the group card's rule for two. */
export function compareScoreMotion(offset: number): CompareScoreMotion {
  const m = sharedScoreMotion(offset, 2);
  return { ...m, guess: [m.guess[0], m.guess[1]] };
}

export interface SharedScoreMotion {
  /** Each result's guess marker grows in, in side (sibling) order. */
  guess: number[];
  truth: number;
  /** The results count up. */
  count: number;
  fade: number;
}

/**
 * A score card of `n` results on one map (two-up, group): the guesses grow in one after another,
 * 6 frames apart, closer for many (all within 24 frames), then the truth; settled from frame 44 on.
 */
export function sharedScoreMotion(offset: number, n: number): SharedScoreMotion {
  const step = Math.min(6, 24 / n);
  return {
    guess: Array.from({ length: n }, (_, i) => ramp(offset, [6 + step * i, 14 + step * i], [0, 1])),
    truth: ramp(offset, [30, 38], [0, 1]),
    count: ramp(offset, [16, 44], [0, 1]),
    fade: ramp(offset, [0, 8], [0, 1]),
  };
}
