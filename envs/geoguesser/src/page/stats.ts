/**
 * Run summary maths: plain functions over per-episode numbers, one row per model.
 * Episodes count as geoeval's report counts them (counted: a stored env reward;
 * src/page/attempts.ts): the means, median and shares are over those, the
 * unscored and errored ones are counted apart ("not counted"); the views'
 * verification covers every episode that has views.
 */
import { withinPct } from "../../replay/board/report.ts";
import { counted } from "../../../../src/page/attempts.ts";

/** The numbers of one episode that the run summary aggregates. */
export interface EpisodeStats {
  model: string;
  /** The environment's stored reward ("env reward"); null = unscored, not counted. */
  reward: number | null;
  /** geoeval's recomputed reward ("reward"). */
  score: number;
  distanceKm: number | null;
  turns: number;
  tokensIn: number | null;
  tokensOut: number | null;
  latencyS: number | null;
  /** Turns that failed on the model side (provider errors, call errors). */
  errors: number;
  match: number;
  resolved: number;
  mismatch: number;
  viewErrors: number;
  /** Example-rollout images shown as recorded (no hash to verify). */
  recorded?: number;
}

export const WITHIN_KM = [1, 25, 200, 750] as const;

export interface ModelSummary {
  model: string;
  /** Episodes geoeval's report counts (a stored env reward). */
  episodes: number;
  /** Episodes it leaves out: unscored (no env reward) and errored (the environment failed; no turns). */
  unscored: number;
  errored: number;
  /** Mean of geoeval's recomputed reward over the counted episodes. */
  meanReward: number | null;
  /** Mean of the environment's stored reward over the same episodes. */
  meanEnvReward: number | null;
  medianDistanceKm: number | null;
  /** Percent of the counted episodes with a distance that landed within each of WITHIN_KM (geoeval's rule; null: none). */
  within: (number | null)[];
  meanTurns: number | null;
  meanTokensIn: number | null;
  meanTokensOut: number | null;
  meanLatencyS: number | null;
  errors: number;
  checked: number;
  match: number;
  resolved: number;
  mismatch: number;
  viewErrors: number;
  recorded: number;
}

export function mean(xs: readonly number[]): number | null {
  if (xs.length === 0) return null;
  let s = 0;
  for (const x of xs) s += x;
  return s / xs.length;
}

export function median(xs: readonly number[]): number | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

const present = (xs: (number | null)[]): number[] => xs.filter((x): x is number => x !== null && Number.isFinite(x));

export function summarise(model: string, eps: readonly EpisodeStats[], errored = 0): ModelSummary {
  const sum = (f: (e: EpisodeStats) => number) => eps.reduce((a, e) => a + f(e), 0);
  const match = sum((e) => e.match);
  const mismatch = sum((e) => e.mismatch);
  const scored = eps.filter((e) => counted({ env: e.reward }));
  const dist = present(scored.map((e) => e.distanceKm));
  return {
    model,
    episodes: scored.length,
    unscored: eps.length - scored.length,
    errored,
    meanReward: mean(scored.map((e) => e.score)),
    meanEnvReward: mean(present(scored.map((e) => e.reward))),
    medianDistanceKm: median(dist),
    within: WITHIN_KM.map((km) => {
      const p = withinPct(dist, km);
      return Number.isNaN(p) ? null : p;
    }),
    meanTurns: mean(scored.map((e) => e.turns)),
    meanTokensIn: mean(present(scored.map((e) => e.tokensIn))),
    meanTokensOut: mean(present(scored.map((e) => e.tokensOut))),
    meanLatencyS: mean(present(scored.map((e) => e.latencyS))),
    errors: sum((e) => e.errors),
    checked: match + mismatch,
    match,
    resolved: sum((e) => e.resolved),
    mismatch,
    viewErrors: sum((e) => e.viewErrors),
    recorded: sum((e) => e.recorded ?? 0),
  };
}

/**
 * One summary per model (sorted by name), plus an "all models" row when there is more than one.
 * `errored`: the model_name of each episode that errored in the environment (null when unnamed).
 */
export function summariseRun(eps: readonly EpisodeStats[], errored: readonly (string | null)[] = []): ModelSummary[] {
  const byModel = new Map<string, EpisodeStats[]>();
  const list = (m: string) => {
    let l = byModel.get(m);
    if (!l) byModel.set(m, (l = []));
    return l;
  };
  for (const e of eps) list(e.model).push(e);
  const erroredBy = new Map<string, number>();
  for (const m of errored) {
    const name = m ?? "?";
    list(name);
    erroredBy.set(name, (erroredBy.get(name) ?? 0) + 1);
  }
  const rows = [...byModel.keys()].sort().map((m) => summarise(m, byModel.get(m)!, erroredBy.get(m) ?? 0));
  if (rows.length > 1) rows.push(summarise("all models", eps, errored.length));
  return rows;
}
