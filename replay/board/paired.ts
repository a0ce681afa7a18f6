/**
 * geoeval's paired comparison of two arms (../shared/docs/geoeval-report.md §4, "Paired section"),
 * for any per-task score: the per-task mean differences on the tasks both arms have, their mean,
 * its standard error (sample SD, or population SD for geoeval's legacy layout), the 95% CI and
 * how many tasks the arm is strictly better on. GeoGuesser boards and crops boards both use it.
 */
import { fmean, pstdev, stdev } from "./pymath.ts";

export interface Paired {
  n: number;
  delta: number;
  se: number;
  ci_low: number;
  ci_high: number;
  significant: boolean;
  better_on: number;
}

/** Null when fewer than 2 tasks are shared (geoeval skips such an arm silently). Task keys in `mine`'s order. */
export function pairedDelta<K>(mine: ReadonlyMap<K, number>, base: ReadonlyMap<K, number>, legacy = false): { shared: number; paired: Paired | null } {
  const diffs: number[] = [];
  for (const [t, m] of mine) {
    const b = base.get(t);
    if (b !== undefined) diffs.push(m - b);
  }
  if (diffs.length < 2) return { shared: diffs.length, paired: null };
  const delta = fmean(diffs);
  const se = (legacy ? pstdev(diffs) : stdev(diffs)) / Math.sqrt(diffs.length);
  return {
    shared: diffs.length,
    paired: {
      n: diffs.length,
      delta,
      se,
      ci_low: delta - 1.96 * se,
      ci_high: delta + 1.96 * se,
      significant: Math.abs(delta) > 1.96 * se,
      better_on: diffs.filter((d) => d > 0).length,
    },
  };
}
