/**
 * The numbers under the list's filters, for the rows it shows: count, and
 * mean and median of reward, distance, tokens and cost. Pure, so that the
 * tests hold the same maths against the source JSONL.
 *
 * Reward is geoeval's recomputed one (the list's "reward" column). Every
 * number averages the counted rows only: an unscored episode (no env
 * reward) is left out of every mean on the page, as geoeval's report leaves
 * it out of its reward, distance and token means. Among those, a number is
 * averaged over the rows that recorded it: missing never counts as zero.
 */
import type { ListRow } from "../../list-row.ts";
import { totalTokens } from "./expr.ts";

export interface Stat {
  /** How many rows the numbers average. */
  n: number;
  mean: number | null;
  median: number | null;
}

export interface ListSummary {
  rows: number;
  /** Rows with an env reward: the ones every number averages. */
  counted: number;
  reward: Stat;
  km: Stat;
  tokens: Stat;
  cost: Stat;
}

/** Mean and median of the values that are numbers (nulls left out). */
export function stat(values: readonly (number | null)[]): Stat {
  const xs = values.filter((v): v is number => typeof v === "number" && Number.isFinite(v)).sort((a, b) => a - b);
  const n = xs.length;
  if (!n) return { n: 0, mean: null, median: null };
  let sum = 0;
  for (const x of xs) sum += x;
  const mid = n >> 1;
  return { n, mean: sum / n, median: n % 2 ? xs[mid] : (xs[mid - 1] + xs[mid]) / 2 };
}

export function summarise(rows: readonly ListRow[]): ListSummary {
  const counted = rows.filter((r) => r.env !== null);
  return {
    rows: rows.length,
    counted: counted.length,
    reward: stat(counted.map((r) => r.score)),
    km: stat(counted.map((r) => r.km)),
    tokens: stat(counted.map(totalTokens)),
    cost: stat(counted.map((r) => r.cost)),
  };
}
