/**
 * Server-rendered sections for sweeps (training runs: ./training.ts). Every string from
 * a trace is escaped here; every number cell carries its exact value in
 * `data-value` (the text is rounded) so tests and scripts read the same
 * numbers the page shows. Episode links are plain `#<episode_id>` anchors the
 * client's deep-link handling opens.
 */
import { escapeHtml } from "../../../../../src/page/escape.ts";
import { counted, type SweepSummary } from "../sweep.ts";
import { armCells } from "../report-cells.ts";

const fx = (x: number | null, d: number) => (x == null ? "–" : x.toFixed(d));
const cell = (stat: string, value: number | null, text: string, cls = "") =>
  `<td${cls ? ` class="${cls}"` : ""} data-stat="${stat}" data-value="${value ?? ""}">${escapeHtml(text)}</td>`;
const link = (id: string, text: string, title: string) =>
  `<a class="ep-link" href="#${escapeHtml(encodeURIComponent(id))}" data-id="${escapeHtml(id)}" title="${escapeHtml(title)}">${escapeHtml(text)}</a>`;

export function sweepSection(s: SweepSummary): string {
  const models = s.models
    .map(
      ({ arm: a, unscored, meanStd, meanRange }) =>
        `<tr data-model="${escapeHtml(a.arm)}"><td>${escapeHtml(a.arm)}</td>` +
        armCells(a) +
        cell("unscored", unscored, String(unscored)) +
        cell("mean_std", meanStd, fx(meanStd, 4)) +
        cell("mean_range", meanRange, fx(meanRange, 4)) +
        "</tr>",
    )
    .join("");
  const rows = s.tasks
    .map((t) => {
      const attempts = t.attempts
        .map((a) => {
          const n = a.sample ?? "?";
          const label = `${n}: ${a.score.toFixed(4)}`;
          const why = counted(a) ? "" : " · not counted: unscored (no env reward), left out by geoeval report";
          const title = `attempt ${n} · episode ${a.id} · reward ${a.score.toFixed(4)} · env reward ${a.env == null ? "none" : a.env.toFixed(4)}${why}`;
          const best = counted(a) && a.score === t.best && t.k > 1 ? " best" : "";
          return `<span class="attempt${best}${counted(a) ? "" : " uncounted"}" data-sample="${a.sample ?? ""}" data-value="${a.score}" data-counted="${counted(a)}">${link(a.id, label, title)}</span>`;
        })
        .join(" ");
      return (
        `<tr data-model="${escapeHtml(t.model)}" data-index="${t.index}"><td>${escapeHtml(t.model)}</td><td>${t.index}</td>` +
        cell("k", t.k, String(t.k)) +
        cell("mean", t.mean, fx(t.mean, 4)) +
        cell("best", t.best, fx(t.best, 4)) +
        cell("std", t.std, fx(t.std, 4)) +
        cell("range", t.range, fx(t.range, 4)) +
        `<td class="attempts">${attempts}</td></tr>`
      );
    })
    .join("");
  return `<section class="sweep" id="gr-sweep" aria-labelledby="gr-sweep-h">
<h2 id="gr-sweep-h">pass@k sweep</h2>
<p class="explain">The numbers of <code>georeplay report</code> on the same files (geoeval's): an arm's attempts at a task are its episodes with that task index; each is scored with geoeval's recomputed reward (from distance and action cost; the environment's stored reward is the “env reward”); rows without an env reward are unscored and not counted, as geoeval does. k is the mean number of counted attempts per task; mean-of-k and best-of-k average each task's mean and best over tasks. Attempts are named by their record's attempt number (<code>task.sample</code>); mean std / range average the spread of a task's counted attempts over tasks with more than one.</p>
<div class="scroll"><table class="stats" id="gr-sweep-models"><thead><tr><th>arm</th><th>tasks</th><th>k</th><th>mean-of-k</th><th>best-of-k</th><th>median km</th><th>episodes</th><th title="rows with no env reward: not counted">unscored</th><th>mean std</th><th>mean range</th></tr></thead><tbody>${models}</tbody></table></div>
<div class="scroll"><table class="stats attempts" id="gr-sweep-tasks"><thead><tr><th>arm</th><th>task</th><th>k</th><th>mean</th><th>best</th><th>std</th><th>range</th><th>attempts (number: reward)</th></tr></thead><tbody>${rows}</tbody></table></div>
</section>`;
}
