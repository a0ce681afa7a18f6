/**
 * How every page orders and counts a task's attempts, one rule for the
 * server-rendered sweep tables and the browser's board views (pure,
 * browser-safe): attempts are named by their record's attempt number
 * (task.sample) and ordered by it, then by read order; an attempt counts in
 * geoeval's report when it has a stored env reward (an unscored row is left
 * out; a second record of the same attempt number is counted, as geoeval does).
 */

/** Counted by geoeval's report: the row has a stored env reward. */
export const counted = (a: { env: number | null }): boolean => a.env !== null;

/** By attempt number, then input order (a stable sort); rows without a number last. */
export function byAttempt<T extends { sample: number | null }>(xs: readonly T[]): T[] {
  return xs
    .map((a, i) => ({ a, i }))
    .sort((x, y) => (x.a.sample ?? Infinity) - (y.a.sample ?? Infinity) || x.i - y.i)
    .map((x) => x.a);
}
