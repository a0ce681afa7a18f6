/**
 * The board page's per-task table as pure functions over the board data:
 * which rows, in which order (tested in Node). Means and deltas are the
 * report's own numbers, never recomputed here.
 */
import type { BoardData, BoardEpisodeRow } from "../../../board/data.ts";
import { byAttempt } from "../../../attempts.ts";
import { compareBy, UNKNOWN } from "../../state/rows.ts";

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

export function taskRows(data: BoardData, byTask: Map<number, Map<string, BoardEpisodeRow[]>>, arm: string, f: TaskFilters): TaskRow[] {
  const rows: TaskRow[] = [];
  for (const t of data.tasks) {
    const mine = t.arms.find((a) => a.arm === arm) ?? null;
    const base = t.arms.find((a) => a.arm === data.baseline) ?? null;
    if (!mine && !base) continue;
    const country = data.countries[String(t.index)] ?? null;
    if (f.country !== "" && f.country !== (country ?? UNKNOWN)) continue;
    const armEpisodes = byTask.get(t.index)?.get(arm) ?? [];
    if (f.verdict !== "" && !armEpisodes.some((e) => (e.verdict ?? UNKNOWN) === f.verdict)) continue;
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
