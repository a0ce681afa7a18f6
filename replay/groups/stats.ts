/**
 * The numbers TRL's GRPOTrainer computes from a step's rewards, in float64
 * (TRL works in float32 tensors: its values differ from these by float32
 * rounding, ~1e-7 relative). Pure functions, no I/O.
 */

/** The epsilon TRL adds to the std before dividing (`advantages / (std_rewards + 1e-4)`). */
export const STD_EPSILON = 1e-4;

export const SCALE_REWARDS = ["group", "batch", "none"] as const;
/** TRL's `scale_rewards`: divide by the group's std (default), by the batch's (the step's) std, or not at all. */
export type ScaleRewards = (typeof SCALE_REWARDS)[number];

export function mean(xs: readonly number[]): number {
  let s = 0;
  for (const x of xs) s += x;
  return s / xs.length;
}

/**
 * Sample standard deviation (Bessel's correction, n - 1), as `torch.std`.
 * torch gives NaN for a single value; here that is null (JSON has no NaN).
 */
export function sampleStd(xs: readonly number[]): number | null {
  if (xs.length < 2) return null;
  const m = mean(xs);
  let ss = 0;
  for (const x of xs) ss += (x - m) * (x - m);
  return Math.sqrt(ss / (xs.length - 1));
}

/** `torch.isclose(std, 0)` with torch's defaults (rtol 1e-5, atol 1e-8): |std| <= 1e-8. NaN (null) is never close. */
export function isCloseToZero(std: number | null): boolean {
  // |a - b| <= atol + rtol * |b| with b = 0.
  return std !== null && Math.abs(std) <= 1e-8;
}

/** The median (the mean of the two middle values for an even count); null for none. */
export function median(xs: readonly number[]): number | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** How much a step's advantages are scaled up: 1 / (median group std + 1e-4); null without a std. */
export function multiplierOf(medianStd: number | null): number | null {
  return medianStd === null ? null : 1 / (medianStd + STD_EPSILON);
}

/**
 * One group's advantages. `scaleStd` is the std the mode divides by: the group's
 * under "group", the batch's under "batch", ignored under "none".
 * A std of null (one value: NaN in torch, where TRL's advantage would be NaN)
 * gives advantages of 0: the rollout is its own mean, and there is nothing to compare it with.
 */
export function advantagesOf(rewards: readonly number[], groupMean: number, mode: ScaleRewards, scaleStd: number | null): number[] {
  return rewards.map((r) => {
    const centred = r - groupMean;
    if (mode === "none") return centred;
    if (scaleStd === null) return 0;
    return centred / (scaleStd + STD_EPSILON);
  });
}

/**
 * Each sibling's rank by advantage (1 = the highest), ties in sibling order: the one numbering of
 * siblings `groups --detail`/--json, the page and `render --group` share.
 */
export function rankOrder(advantages: readonly number[]): number[] {
  const ranks = new Array<number>(advantages.length);
  advantages
    .map((a, i) => ({ a, i }))
    .sort((x, y) => y.a - x.a || x.i - y.i)
    .forEach((x, r) => (ranks[x.i] = r + 1));
  return ranks;
}
