/**
 * The episode list of both pages, as pure functions: one row type, one
 * search, one set of filters, one sort, one CSV. The run page makes its rows
 * from the full episodes; the board page has them as they are (its details
 * load per task), so its search reaches replies once their chunks are read.
 */
import type { PageEpisode } from "../../model.ts";
import type { BoardEpisodeRow } from "../../board/data.ts";
import { totalTokens, type Predicate } from "./expr.ts";
import { isErrored, listRowOf, type ListRow } from "../../list-row.ts";

export type { ListRow };

/** Label for a missing value in the select filters. */
export const UNKNOWN = "(unknown)";

/** The run page's rows: its episodes' (the board page gets its rows made at build, by the same rule). */
export const rowOfEpisode = (e: PageEpisode): ListRow => listRowOf(e);

export const rowOfBoard = (r: BoardEpisodeRow): ListRow => r;

/** The row's own fields as search sees them: id, arm, task (split/index, task id), attempt, country, verdict. */
export function rowText(r: ListRow): string {
  return [
    r.id,
    r.arm,
    `${r.split}/${r.task}`,
    `task ${r.task}`,
    r.taskId ?? "",
    r.sample === null ? "" : `attempt ${r.sample}`,
    r.country ?? "",
    r.verdict ?? "",
  ]
    .join("\n")
    .toLowerCase();
}

/** An episode's text as search sees it (one function with the folder form's search texts). */
export { detailText } from "../../search-text.ts";

export interface ListFilters {
  /** Search text ("" = any); matched lower-cased. */
  q: string;
  /** "" = any; UNKNOWN matches a missing value. */
  arm: string;
  country: string;
  verdict: string;
  /** A flag the row must carry ("" = any). */
  status: string;
  /** A task index ("" = any). */
  task: string;
  /** Minimum recomputed reward, or null. */
  minScore: number | null;
}

export const NO_FILTERS: ListFilters = { q: "", arm: "", country: "", verdict: "", status: "", task: "", minScore: null };

/** "sample" is the attempt column (task.sample). */
export type SortKey = "id" | "arm" | "task" | "sample" | "country" | "verdict" | "score" | "env" | "km" | "turns";
export const SORT_KEYS: SortKey[] = ["id", "arm", "task", "sample", "country", "verdict", "score", "env", "km", "turns"];
export interface Sort {
  key: SortKey;
  dir: 1 | -1;
}

/** The distinct values of a select filter, sorted, with missing ones shown as UNKNOWN. */
export function selectValues(values: readonly (string | null)[]): string[] {
  return Array.from(new Set(values.map((v) => v ?? UNKNOWN))).sort();
}

const pick = (want: string, v: string | null) => want === "" || want === (v ?? UNKNOWN);

export function matchesFilters(r: ListRow, f: ListFilters, text: (r: ListRow) => string, expr: Predicate | null): boolean {
  return (
    pick(f.arm, r.arm) &&
    pick(f.country, r.country) &&
    pick(f.verdict, r.verdict) &&
    (f.status === "" || r.flags.indexOf(f.status) >= 0) &&
    (f.task === "" || String(r.task) === f.task) &&
    (f.minScore === null || Number.isNaN(f.minScore) || r.score >= f.minScore) &&
    (expr === null || expr(r)) &&
    (f.q === "" || text(r).indexOf(f.q.toLowerCase()) >= 0)
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

export function filterAndSort<R extends ListRow>(
  rows: readonly R[],
  f: ListFilters,
  sort: Sort | null,
  text: (r: ListRow) => string,
  expr: Predicate | null,
): R[] {
  const shown = rows.filter((r) => matchesFilters(r, f, text, expr));
  if (sort) shown.sort(compareBy<ListRow>(sort.key, sort.dir));
  return shown;
}

/** Clicking a column again flips it; a new column starts descending for rewards, ascending otherwise. */
export function nextSortDir(current: SortKey | null, dir: 1 | -1, clicked: SortKey): 1 | -1 {
  if (current === clicked) return dir === 1 ? -1 : 1;
  return clicked === "score" || clicked === "env" ? -1 : 1;
}

/** `score:-1` <-> { key, dir } (the address form). */
export function parseSort(s: string | undefined): Sort | null {
  const m = /^([a-z]+):(-?1)$/.exec(s ?? "");
  return m && (SORT_KEYS as string[]).includes(m[1]) ? { key: m[1] as SortKey, dir: m[2] === "1" ? 1 : -1 } : null;
}
export const formatSort = (s: Sort | null): string => (s ? `${s.key}:${s.dir}` : "");

const csvCell = (v: string | number | null): string => {
  const s = v === null ? "" : String(v);
  // Quoted when needed (RFC 4180); a leading = + - @ is prefixed so spreadsheets never run trace text as a formula.
  const safe = /^[=+\-@\t\r]/.test(s) && typeof v !== "number" ? "'" + s : s;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

export const CSV_COLUMNS = [
  "episode_id",
  "arm",
  "split",
  "task",
  "attempt",
  "country",
  "verdict",
  "reward",
  "env_reward",
  "km",
  "turns",
  "flags",
  "tokens_in",
  "tokens_out",
  "tokens",
  "cost",
  "latency_s",
  "temperature",
  "max_tokens",
  "source",
];

/** A training page's group columns, after the others (as the list shows them; named as the filter's fields). */
export const TRAIN_CSV_COLUMNS = ["step", "group_mean", "group_std", "advantage", "zero_spread", "identical"];

/** The rows as CSV; `train`: with the group columns. */
export function toCsv(rows: readonly ListRow[], train = false): string {
  const lines = [(train ? [...CSV_COLUMNS, ...TRAIN_CSV_COLUMNS] : CSV_COLUMNS).join(",")];
  const bool = (b: boolean | null | undefined) => (b == null ? null : String(b));
  for (const r of rows) {
    const t = r.train ?? null;
    const group = train ? [t?.step ?? null, t?.groupMean ?? null, t?.groupStd ?? null, t?.advantage ?? null, bool(t?.zeroStd), bool(t?.identical)] : [];
    lines.push(
      [
        r.id,
        r.arm,
        r.split,
        r.task,
        r.sample,
        r.country,
        r.verdict,
        isErrored(r) ? null : r.score,
        r.env,
        r.km,
        r.turns,
        r.flags.join(" "),
        r.tokensIn,
        r.tokensOut,
        totalTokens(r),
        r.cost,
        r.latency,
        r.temperature,
        r.maxTokens,
        r.source,
        ...group,
      ]
        .map(csvCell)
        .join(","),
    );
  }
  return lines.join("\r\n") + "\r\n";
}

/** Operators as words a file name can hold. */
const OP_WORDS: [RegExp, string][] = [
  [/>=|≥/g, " ge "],
  [/<=|≤/g, " le "],
  [/!=|≠/g, " ne "],
  [/==?/g, " eq "],
  [/>/g, " gt "],
  [/</g, " lt "],
  [/~/g, " has "],
];

/** Safe file-name characters only: letters, digits, dot, dash and underscore; runs of anything else become one dash. */
function slug(s: string, max: number): string {
  let t = s;
  for (const [re, w] of OP_WORDS) t = t.replace(re, w);
  t = t
    .normalize("NFKD")
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/-{2,}/g, "-")
    .replace(/^[-.]+|[-.]+$/g, "");
  return t.slice(0, max).replace(/[-.]+$/, "");
}

/**
 * The CSV's file name: the page's title (the run, or what `--title` named it; the
 * default's input file names and "georeplay" left out) and the filter that
 * made the rows, e.g. `held-out-haiku-tokens-gt-1000.csv`; `-all` when
 * nothing filters. `query` is the list's state as the address keeps it.
 */
export function csvFileName(title: string, query: Record<string, string>): string {
  const parts = title
    .split(" · ")
    .map((p) => p.trim())
    .filter((p) => p && p !== "georeplay");
  // A default title starts with the input files' names (episodes.jsonl, ...): the rest names the run better.
  const named = parts.filter((p) => !/^[^,]*\.jsonl?(, [^,]*\.jsonl?)*$/.test(p));
  const run = slug((named.length ? named : parts).join(" "), 60) || "episodes";
  const filter = ["q", "arm", "country", "verdict", "status", "task", "min", "expr"]
    .filter((k) => (query[k] ?? "").trim() !== "")
    .map((k) => (k === "q" || k === "expr" ? query[k] : k === "min" ? `reward ge ${query[k]}` : k === "task" ? `task ${query[k]}` : query[k]))
    .join(" ");
  return `${run}-${slug(filter, 80) || "all"}.csv`;
}

/** Appends in place: `push(...items)` passes every item as an argument, and a folder page's 128,000 rows overflow the call stack. */
export function append<T>(to: T[], items: readonly T[]): void {
  for (const x of items) to.push(x);
}
