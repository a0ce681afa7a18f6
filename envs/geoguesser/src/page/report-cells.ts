/**
 * A report's numbers as table cells, as geoeval prints them: the text rounded
 * as its tables round it, the exact value in `data-value`. The board's tables
 * and the sweep's share them.
 */
import { escapeHtml } from "../../../../src/page/escape.ts";
import type { ReportArm } from "../../replay/board/report-schema.ts";

export const cell = (stat: string, value: number | null, text: string) => `<td data-stat="${stat}" data-value="${value ?? ""}">${escapeHtml(text)}</td>`;
export const fx = (x: number | null, d: number) => (x == null ? "nan" : x.toFixed(d));

/** An arm's pass@k cells (tasks, k, mean-of-k, best-of-k, median km, episodes). */
export function armCells(a: ReportArm): string {
  return (
    cell("tasks", a.tasks, String(a.tasks)) +
    cell("k", a.k, a.k.toFixed(1)) +
    cell("mean_of_k", a.mean_of_k, a.mean_of_k.toFixed(4)) +
    cell("best_of_k", a.best_of_k, a.best_of_k.toFixed(4)) +
    cell("median_km", a.median_km, fx(a.median_km, 0)) +
    cell("episodes", a.episodes, String(a.episodes))
  );
}
