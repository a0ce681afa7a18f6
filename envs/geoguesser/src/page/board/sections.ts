/**
 * The board page's server-rendered part: geoeval's three tables (arms ranked
 * by mean-of-k, behaviour per arm, paired against the baseline) with the
 * report's numbers, the forest plot, and the shells the client fills (per-task
 * table, compare view). Text cells are rounded as geoeval prints them; every
 * number cell carries the exact value in `data-value`.
 */
import { escapeHtml } from "../../../../../src/page/escape.ts";
import { armCells, cell, fx } from "../report-cells.ts";
import type { Report } from "../../../replay/board/report-schema.ts";
import { forestPlot } from "./forest.ts";
import { notCountedWords, reportTally, tallyWords } from "../../../../../src/page/count-words.ts";

const pc = (x: number | null) => (x == null ? "nan" : `${x.toFixed(1)}%`);
const sgn = (x: number) => (x >= 0 ? "+" : "") + x.toFixed(4);

export function armsTable(r: Report): string {
  const rows = r.arms.map((a, i) => `<tr data-arm="${escapeHtml(a.arm)}"><td>${i + 1}</td><td>${escapeHtml(a.arm)}</td>${armCells(a)}</tr>`).join("");
  return `<div class="scroll"><table class="stats" id="gr-board-arms"><thead><tr><th>#</th><th>arm</th><th>tasks</th><th>k</th><th>mean-of-k</th><th>best-of-k</th><th>median km</th><th>episodes</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}

export function behaviourTable(r: Report): string {
  const rows = r.arms
    .map(
      (a) =>
        `<tr data-arm="${escapeHtml(a.arm)}"><td>${escapeHtml(a.arm)}</td>` +
        cell("turns", a.turns, fx(a.turns, 1)) +
        cell("looks", a.looks, fx(a.looks, 1)) +
        cell("moves", a.moves, fx(a.moves, 1)) +
        cell("pins", a.pins, fx(a.pins, 1)) +
        cell("cost", a.cost, fx(a.cost, 3)) +
        cell("country_pct", a.country_pct, pc(a.country_pct)) +
        cell("within_200km_pct", a.within_200km_pct, pc(a.within_200km_pct)) +
        cell("within_750km_pct", a.within_750km_pct, pc(a.within_750km_pct)) +
        cell("env_floor_pct", a.env_floor_pct, pc(a.env_floor_pct)) +
        cell("no_guess_pct", a.no_guess_pct, pc(a.no_guess_pct)) +
        cell("forced_pct", a.forced_pct, pc(a.forced_pct)) +
        cell("tok_out", a.tok_out, fx(a.tok_out, 0)) +
        "</tr>",
    )
    .join("");
  return `<div class="scroll"><table class="stats" id="gr-board-behaviour"><thead><tr><th>arm</th><th>turns</th><th>looks</th><th>moves</th><th>pins</th><th>cost</th><th>country%</th><th>&lt;=200km</th><th>&lt;=750km</th><th title="episodes the environment's stored reward floored at 0">env_floor%</th><th>no_guess%</th><th>forced%</th><th>tok_out</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}

export function pairedSection(r: Report): string {
  const p = r.paired!;
  const rows = p.comparisons
    .map(
      (c) =>
        `<tr data-arm="${escapeHtml(c.arm)}"><td>${escapeHtml(c.arm)}</td>` +
        cell("n", c.n, String(c.n)) +
        cell("delta", c.delta, sgn(c.delta)) +
        cell("se", c.se, c.se.toFixed(4)) +
        cell("ci_low", c.ci_low, sgn(c.ci_low)) +
        cell("ci_high", c.ci_high, sgn(c.ci_high)) +
        `<td data-stat="significant" data-value="${c.significant}" class="${c.significant ? "sig" : "ns"}">${c.significant ? "SIGNIFICANT" : "not significant"}</td>` +
        cell("better_on", c.better_on, `${c.better_on}/${c.n}`) +
        "</tr>",
    )
    .join("");
  const skipped = p.skipped.length
    ? `<p class="explain">Not compared (fewer than 2 tasks shared with ${escapeHtml(p.baseline)}): ${p.skipped.map((s) => `${escapeHtml(s.arm)} (${s.shared})`).join(", ")}.</p>`
    : "";
  return `<h3>Paired against ${escapeHtml(p.baseline)}, tasks both arms attempted</h3>
<div class="paired"><div class="scroll"><table class="stats" id="gr-board-paired"><thead><tr><th>arm</th><th>n</th><th>delta</th><th>se</th><th>95% CI low</th><th>95% CI high</th><th>verdict</th><th>better on</th></tr></thead><tbody>${rows}</tbody></table></div>
<figure class="forest-box">${forestPlot(p.baseline, p.comparisons)}<figcaption>delta of the per-task mean reward against ${escapeHtml(p.baseline)}, with its 95% CI (delta ± 1.96·se); filled: SIGNIFICANT</figcaption></figure></div>${skipped}`;
}

/** Without --baseline nothing is paired: say how to get the paired table and forest plot. */
function unpairedNote(arms: number): string {
  const below = arms < 2 ? "" : "; below, the per-task table and the compare view take any two arms";
  return `<p class="explain" id="gr-board-unpaired">No arm is paired against a baseline on this page. Build it with <code>--baseline ARM</code> for the paired deltas (n, delta, se, 95% CI, better on) and the forest plot, as <code>georeplay report --baseline ARM</code> prints them${below}.</p>`;
}

/** The per-task table's head: one arm's report numbers, and a second arm's beside them (the baseline's by default). */
function taskSection(r: Report, baseline: string | null): string {
  const single = r.arms.length < 2;
  const explain = single
    ? "The arm's mean and best reward over its attempts on each task and how many the report counts (its per-task numbers); its attempts by attempt number."
    : `One arm's mean and best reward over its attempts on each task and how many the report counts (its per-task numbers), beside a second arm's${baseline === null ? "" : ` (${escapeHtml(baseline)}, the baseline, unless you pick another)`} and the delta between the two means. Click a header to sort (again to reverse): by delta for the most improved or most regressed tasks; a task's link opens both arms' attempts side by side.`;
  const vs = single ? "" : `<select id="t-vs" aria-label="second arm"></select>`;
  const vsHead = single ? "" : `<th data-sort="base_mean" class="base-h">second arm mean</th><th data-sort="delta">delta</th>`;
  return `<section class="board-tasks" id="gr-tasks" aria-labelledby="gr-tasks-h">
<h2 id="gr-tasks-h">Per task</h2>
<p class="explain">${explain}</p>
<div class="filters" role="search">
<select id="t-arm" aria-label="arm"></select>${vs}
<select id="t-country" aria-label="country"><option value="">all countries</option></select>
<select id="t-verdict" aria-label="verdict of an attempt"><option value="">any verdict</option></select>
<input id="t-q" type="text" placeholder="filter tasks: index, country, episode id" aria-label="filter tasks by text" autocomplete="off" spellcheck="false">
<select id="t-sort" aria-label="order"><option value="task">task order</option>${single ? "" : '<option value="improved">most improved first</option><option value="regressed">most regressed first</option>'}<option value="column" disabled>by a column (header)</option></select>
<span class="count" id="t-count"></span>
</div>
<div class="scroll tall"><table class="stats sortable" id="gr-task-table"><thead><tr><th data-sort="task">task</th><th data-sort="country">country</th><th data-sort="mean" class="arm-h">arm mean</th><th data-sort="best">best</th><th data-sort="k">k</th>${vsHead}<th class="arm-att-h">attempts (arm)</th>${single ? "" : '<th class="vs-h">attempts (second arm)</th>'}</tr></thead><tbody id="t-rows"></tbody></table></div>
</section>`;
}

/** The report's section (#gr-board): its tables and, with a baseline, the forest plot. `georeplay serve` sends it anew as a board grows. */
export function boardReportSection(r: Report, notes: string[], baseline: string | null): string {
  const tally = reportTally(r);
  const dropped = r.dropped_unscored
    ? `<p class="explain">Not counted, as geoeval's report leaves them out: ${escapeHtml(notCountedWords(tally))} (by arm: ${r.dropped_by_arm.map((d) => `${escapeHtml(String(d.arm))} ${d.episodes}`).join(", ")}); they stay in the episode list.</p>`
    : "";
  const command = baseline === null ? "georeplay report" : `georeplay report --baseline ${escapeHtml(baseline)}`;
  return `<section class="board" id="gr-board" aria-labelledby="gr-board-h">
<h2 id="gr-board-h">Board: ${escapeHtml(tallyWords(tally))} over ${r.arms.length} arm(s)</h2>
<p class="explain">The numbers of <code>${command}</code> (geoeval ${r.geoeval_version}). The reward is recomputed from distance and action cost as <code>geoeval report</code> does: R = min(1, 0.5·e<sup>−d/1492.7</sup> + 0.5·e<sup>−d/5000</sup>) · (1 − min(cost, 0.2)); the environment's stored reward is shown apart, as “env reward”. Arms are ranked by mean-of-k.</p>
${dropped}${notes.map((n) => `<p class="explain">${escapeHtml(n)}</p>`).join("")}
${armsTable(r)}
<h3>Behaviour per arm (per episode)</h3>
${behaviourTable(r)}
${baseline === null ? unpairedNote(r.arms.length) : pairedSection(r)}
</section>`;
}

/** The board sections: the report's (tables, forest plot), and the per-task and compare shells the client fills. */
export function boardSections(r: Report, notes: string[], baseline: string | null): string {
  return `${boardReportSection(r, notes, baseline)}
${taskSection(r, baseline)}
<section class="compare" id="gr-compare" aria-live="polite" hidden></section>`;
}
