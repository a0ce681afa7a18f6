/**
 * The episode list's filtering and sorting, as pure functions over the page
 * model (tested in Node; the DOM wiring lives in main.ts).
 */
import type { PageEpisode } from "../model.ts";

/** Label for a missing value in the select filters. */
export const UNKNOWN = "(unknown)";

export interface ListFilters {
  /** Lower-cased search text ("" = any). */
  q: string;
  /** "" = any; UNKNOWN matches a missing value. */
  model: string;
  country: string;
  verdict: string;
  /** A flag the episode must carry ("" = any). */
  status: string;
  /** Minimum reward, or null; an episode without a reward never passes a minimum. */
  minReward: number | null;
}

export const NO_FILTERS: ListFilters = { q: "", model: "", country: "", verdict: "", status: "", minReward: null };

export type SortKey = "id" | "model" | "country" | "verdict" | "reward" | "distanceKm" | "turnsUsed";

/** The distinct values of a select filter, sorted, with missing ones shown as UNKNOWN. */
export function selectValues(values: readonly (string | null)[]): string[] {
  return Array.from(new Set(values.map((v) => v ?? UNKNOWN))).sort();
}

/** What the reply search looks in: every reply and reasoning, lower-cased. */
export function searchText(e: Pick<PageEpisode, "turns">): string {
  return e.turns
    .map((t) => [t.reply, t.reasoning].filter(Boolean).join("\n"))
    .join("\n")
    .toLowerCase();
}

const pick = (want: string, v: string | null) => want === "" || want === (v ?? UNKNOWN);

export function matchesFilters(e: PageEpisode, f: ListFilters, haystack: (e: PageEpisode) => string): boolean {
  return (
    pick(f.model, e.model) &&
    pick(f.country, e.country) &&
    pick(f.verdict, e.verdict) &&
    (f.status === "" || e.flags.indexOf(f.status) >= 0) &&
    (f.minReward === null || Number.isNaN(f.minReward) || (e.reward != null && e.reward >= f.minReward)) &&
    (f.q === "" || haystack(e).indexOf(f.q) >= 0)
  );
}

/** Compares by one field; missing values sort last whatever the direction; ties keep their order. */
export function compareBy<T>(key: keyof T, dir: 1 | -1): (a: T, b: T) => number {
  return (a, b) => {
    const x = a[key] as unknown as number | string | null;
    const y = b[key] as unknown as number | string | null;
    if (x == null && y == null) return 0;
    if (x == null) return 1;
    if (y == null) return -1;
    return (x < y ? -1 : x > y ? 1 : 0) * dir;
  };
}

/** The filtered list, in input order or stably sorted. */
export function filterAndSort(
  episodes: readonly PageEpisode[],
  f: ListFilters,
  sort: { key: SortKey; dir: 1 | -1 } | null,
  haystack: (e: PageEpisode) => string,
): PageEpisode[] {
  const shown = episodes.filter((e) => matchesFilters(e, f, haystack));
  if (sort) shown.sort(compareBy<PageEpisode>(sort.key, sort.dir));
  return shown;
}

/** Clicking a column again flips it; a new column starts descending for reward, ascending otherwise. */
export function nextSortDir(current: SortKey | null, dir: 1 | -1, clicked: SortKey): 1 | -1 {
  if (current === clicked) return dir === 1 ? -1 : 1;
  return clicked === "reward" ? -1 : 1;
}
