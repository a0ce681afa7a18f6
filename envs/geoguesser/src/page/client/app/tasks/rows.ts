/**
 * The board page's per-task table as pure functions over the board data:
 * which rows, in which order (tested in Node). Means, bests, counts and the
 * baseline's deltas are the report's own numbers; against another arm the
 * delta is the difference of the two report means (the report's formula).
 */
import type { BoardData, BoardEpisodeRow } from "../../../board/data.ts";
import { byAttempt } from "../../../../../../../src/page/attempts.ts";
import { compareBy, UNKNOWN } from "../../state/rows.ts";

export interface TaskRow {
  index: number;
  country: string | null;
  /** The second arm's mean on this task (the baseline's by default), or null if it did not attempt it. */
  baseMean: number | null;
  /** The arm's mean, best and counted attempts (the report's), or null if the arm did not attempt it. */
  mean: number | null;
  best: number | null;
  k: number | null;
  /** The arm's mean minus the second arm's; null unless both attempted the task. */
  delta: number | null;
  armEpisodes: BoardEpisodeRow[];
  baseEpisodes: BoardEpisodeRow[];
}

/** Columns a header click sorts by. */
export const TASK_SORT_KEYS = ["task", "country", "mean", "best", "k", "base_mean", "delta"] as const;
export type TaskSortKey = (typeof TASK_SORT_KEYS)[number];

/** "task", "improved", "regressed" (the order select), or a header's column and direction, `mean:-1` (the address form). */
export type TaskOrder = "task" | "improved" | "regressed" | { key: TaskSortKey; dir: 1 | -1 };

export interface TaskFilters {
  country: string;
  /** A verdict one of the arm's attempts on the task has ("" = any). */
  verdict: string;
  /** Case-insensitive text: a task index, a country, an episode id or verdict of either arm's attempts ("" = any). */
  q: string;
  order: TaskOrder;
}

export function parseTaskOrder(s: string): TaskOrder {
  if (s === "improved" || s === "regressed") return s;
  const m = /^([a-z_]+):(-?1)$/.exec(s);
  if (m && (TASK_SORT_KEYS as readonly string[]).includes(m[1])) return { key: m[1] as TaskSortKey, dir: Number(m[2]) as 1 | -1 };
  return "task";
}

export const formatTaskOrder = (o: TaskOrder): string => (typeof o === "string" ? o : `${o.key}:${o.dir}`);

/** Clicking the sorted column again reverses it; a new column starts with the best first (rewards and deltas high, the rest ascending). */
export function nextTaskOrder(current: TaskOrder, clicked: TaskSortKey): TaskOrder {
  const now =
    typeof current === "string"
      ? current === "task"
        ? { key: "task" as const, dir: 1 as const }
        : { key: "delta" as const, dir: current === "improved" ? -1 : 1 }
      : current;
  if (now.key === clicked) return { key: clicked, dir: now.dir === 1 ? -1 : 1 };
  return { key: clicked, dir: clicked === "task" || clicked === "country" ? 1 : -1 };
}

/** Episodes grouped by task and arm, each list by attempt number (then read order). */
export function episodesByTask(rows: readonly BoardEpisodeRow[]): Map<number, Map<string, BoardEpisodeRow[]>> {
  const m = new Map<number, Map<string, BoardEpisodeRow[]>>();
  for (const r of rows) {
    let t = m.get(r.task);
    if (!t) m.set(r.task, (t = new Map()));
    let a = t.get(r.arm);
    if (!a) t.set(r.arm, (a = []));
    a.push(r);
  }
  for (const t of m.values()) for (const [arm, a] of t) t.set(arm, byAttempt(a));
  return m;
}

function matchesText(r: TaskRow, q: string): boolean {
  if (q === "") return true;
  const hay = [`task ${r.index}`, r.country ?? UNKNOWN, ...[...r.armEpisodes, ...r.baseEpisodes].flatMap((e) => [e.id, e.verdict ?? ""])]
    .join("\n")
    .toLowerCase();
  return q
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((w) => hay.includes(w));
}

/**
 * Each task that `arm` or `vs` attempted (vs null: a one-arm board), filtered
 * and ordered. The delta is the report's when `vs` is the baseline.
 */
export function taskRows(data: BoardData, byTask: Map<number, Map<string, BoardEpisodeRow[]>>, arm: string, vs: string | null, f: TaskFilters): TaskRow[] {
  const rows: TaskRow[] = [];
  for (const t of data.tasks) {
    const mine = t.arms.find((a) => a.arm === arm) ?? null;
    const other = vs === null ? null : (t.arms.find((a) => a.arm === vs) ?? null);
    if (!mine && !other) continue;
    const country = data.countries[String(t.index)] ?? null;
    if (f.country !== "" && f.country !== (country ?? UNKNOWN)) continue;
    const armEpisodes = byTask.get(t.index)?.get(arm) ?? [];
    if (f.verdict !== "" && !armEpisodes.some((e) => (e.verdict ?? UNKNOWN) === f.verdict)) continue;
    const delta = !mine || !other ? null : vs === data.baseline && mine.delta !== null ? mine.delta : mine.mean - other.mean;
    const row: TaskRow = {
      index: t.index,
      country,
      baseMean: other ? other.mean : null,
      mean: mine ? mine.mean : null,
      best: mine ? mine.best : null,
      k: mine ? mine.attempts : null,
      delta,
      armEpisodes,
      baseEpisodes: vs === null ? [] : (byTask.get(t.index)?.get(vs) ?? []),
    };
    if (matchesText(row, f.q)) rows.push(row);
  }
  const o = f.order;
  if (o === "improved" || o === "regressed") rows.sort(compareBy<TaskRow>("delta", o === "improved" ? -1 : 1));
  else if (typeof o !== "string") {
    const field: Record<TaskSortKey, keyof TaskRow> = {
      task: "index",
      country: "country",
      mean: "mean",
      best: "best",
      k: "k",
      base_mean: "baseMean",
      delta: "delta",
    };
    rows.sort(compareBy<TaskRow>(field[o.key], o.dir));
  }
  return rows;
}
