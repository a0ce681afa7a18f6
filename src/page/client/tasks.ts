/**
 * The board page's per-task table and episode list as pure functions over
 * the board data: which rows, in which order (tested in Node). Deltas are
 * the report's own numbers, never recomputed here.
 */
import type { BoardData, BoardEpisodeRow } from "../board/data.ts";
import { compareBy } from "./list.ts";

export interface TaskRow {
  index: number;
  country: string | null;
  /** The baseline's mean on this task, or null if it did not attempt it. */
  baseMean: number | null;
  /** The arm's mean and delta (the report's), or null if the arm did not attempt it. */
  mean: number | null;
  delta: number | null;
  armEpisodes: BoardEpisodeRow[];
  baseEpisodes: BoardEpisodeRow[];
}

export interface TaskFilters {
  country: string;
  /** A verdict one of the arm's attempts on the task has ("" = any). */
  verdict: string;
  order: "task" | "improved" | "regressed";
}

/** Episodes grouped by task and arm, each list in attempt order. */
export function episodesByTask(rows: readonly BoardEpisodeRow[]): Map<number, Map<string, BoardEpisodeRow[]>> {
  const m = new Map<number, Map<string, BoardEpisodeRow[]>>();
  for (const r of rows) {
    let t = m.get(r.task);
    if (!t) m.set(r.task, (t = new Map()));
    let a = t.get(r.arm);
    if (!a) t.set(r.arm, (a = []));
    a.push(r);
  }
  for (const t of m.values()) for (const a of t.values()) a.sort((x, y) => (x.sample ?? Infinity) - (y.sample ?? Infinity));
  return m;
}

export function taskRows(data: BoardData, byTask: Map<number, Map<string, BoardEpisodeRow[]>>, arm: string, f: TaskFilters): TaskRow[] {
  const rows: TaskRow[] = [];
  for (const t of data.tasks) {
    const mine = t.arms.find((a) => a.arm === arm) ?? null;
    const base = t.arms.find((a) => a.arm === data.baseline) ?? null;
    if (!mine && !base) continue;
    const country = data.countries[String(t.index)] ?? null;
    if (f.country !== "" && f.country !== (country ?? "(unknown)")) continue;
    const armEpisodes = byTask.get(t.index)?.get(arm) ?? [];
    if (f.verdict !== "" && !armEpisodes.some((e) => (e.verdict ?? "(unknown)") === f.verdict)) continue;
    rows.push({
      index: t.index,
      country,
      baseMean: base ? base.mean : null,
      mean: mine ? mine.mean : null,
      delta: mine ? mine.delta : null,
      armEpisodes,
      baseEpisodes: byTask.get(t.index)?.get(data.baseline) ?? [],
    });
  }
  if (f.order !== "task") rows.sort(compareBy<TaskRow>("delta", f.order === "improved" ? -1 : 1));
  return rows;
}

export interface RowFilters {
  /** Lower-cased; matches episode id or arm. */
  q: string;
  arm: string;
  country: string;
  verdict: string;
  status: string;
  minScore: number | null;
}

export type RowSortKey = "id" | "arm" | "task" | "country" | "verdict" | "score" | "env" | "km";

export function filterRows(rows: readonly BoardEpisodeRow[], f: RowFilters, sort: { key: RowSortKey; dir: 1 | -1 } | null): BoardEpisodeRow[] {
  const pick = (want: string, v: string | null) => want === "" || want === (v ?? "(unknown)");
  const out = rows.filter(
    (e) =>
      pick(f.arm, e.arm) &&
      pick(f.country, e.country) &&
      pick(f.verdict, e.verdict) &&
      (f.status === "" || e.flags.indexOf(f.status) >= 0) &&
      (f.minScore === null || Number.isNaN(f.minScore) || e.score >= f.minScore) &&
      (f.q === "" || e.id.toLowerCase().indexOf(f.q) >= 0 || e.arm.toLowerCase().indexOf(f.q) >= 0),
  );
  if (sort) out.sort(compareBy<BoardEpisodeRow>(sort.key, sort.dir));
  return out;
}
