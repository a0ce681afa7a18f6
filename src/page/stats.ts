/** Run summary maths: plain functions over per-episode numbers, one row per model. */

/** The numbers of one episode that the run summary aggregates. */
export interface EpisodeStats {
  model: string;
  reward: number | null;
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
  episodes: number;
  meanReward: number | null;
  medianDistanceKm: number | null;
  /** Share of episodes whose guess landed within each of WITHIN_KM (an unparsed guess counts as outside). */
  within: number[];
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

export function summarise(model: string, eps: readonly EpisodeStats[]): ModelSummary {
  const dist = present(eps.map((e) => e.distanceKm));
  const sum = (f: (e: EpisodeStats) => number) => eps.reduce((a, e) => a + f(e), 0);
  const match = sum((e) => e.match);
  const mismatch = sum((e) => e.mismatch);
  return {
    model,
    episodes: eps.length,
    meanReward: mean(present(eps.map((e) => e.reward))),
    medianDistanceKm: median(dist),
    within: WITHIN_KM.map((km) => (eps.length ? dist.filter((d) => d < km).length / eps.length : 0)),
    meanTurns: mean(eps.map((e) => e.turns)),
    meanTokensIn: mean(present(eps.map((e) => e.tokensIn))),
    meanTokensOut: mean(present(eps.map((e) => e.tokensOut))),
    meanLatencyS: mean(present(eps.map((e) => e.latencyS))),
    errors: sum((e) => e.errors),
    checked: match + mismatch,
    match,
    resolved: sum((e) => e.resolved),
    mismatch,
    viewErrors: sum((e) => e.viewErrors),
    recorded: sum((e) => e.recorded ?? 0),
  };
}

/** One summary per model (sorted by name), plus an "all models" row when there is more than one. */
export function summariseRun(eps: readonly EpisodeStats[]): ModelSummary[] {
  const byModel = new Map<string, EpisodeStats[]>();
  for (const e of eps) {
    let list = byModel.get(e.model);
    if (!list) byModel.set(e.model, (list = []));
    list.push(e);
  }
  const rows = [...byModel.keys()].sort().map((m) => summarise(m, byModel.get(m)!));
  if (rows.length > 1) rows.push(summarise("all models", eps));
  return rows;
}
