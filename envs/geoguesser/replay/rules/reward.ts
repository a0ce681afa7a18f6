/**
 * The reward `geoeval report` scores episodes with (../shared/docs/geoeval-report.md §3),
 * recomputed from distance and action cost. The environment's stored `outcome.reward` is a
 * different curve (the game's); boards, board pages and two-up videos all use this one and
 * label the stored one as the environment's. Browser-safe and pure.
 */
import { pyExp } from "./exp.ts";

export const DECAY_KM = 1492.7;
export const LONG_DECAY_KM = 5000.0;
export const MIXTURE_SHORT_WEIGHT = 0.5;
export const MAX_COST_FRACTION = 0.2;

/** The fields the reward reads; anything else in the outcome is ignored. */
export interface RewardInputs {
  distance_km?: number | null;
  action_cost?: number | null;
}

/**
 * R = min(1, 0.5·exp(−d/1492.7) + 0.5·exp(−d/5000)) · (1 − min(max(cost, 0), 0.2)).
 * No distance (the guess did not parse) scores 0; a null, zero or missing cost counts as 0.
 * Operation order follows geoeval's Python so the doubles agree.
 */
export function geoevalReward(o: RewardInputs | null | undefined): number {
  const d = o?.distance_km;
  if (d === null || d === undefined) return 0.0;
  const cost = Number(o?.action_cost || 0.0);
  // exp correctly rounded (V8's Math.exp is off by an ulp for ~1 argument in 10; Python's, the C library's, rarely).
  const shaped = Math.min(1.0, MIXTURE_SHORT_WEIGHT * pyExp(-d / DECAY_KM) + (1 - MIXTURE_SHORT_WEIGHT) * pyExp(-d / LONG_DECAY_KM));
  return shaped * (1.0 - Math.min(Math.max(cost, 0.0), MAX_COST_FRACTION));
}
