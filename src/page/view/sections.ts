/**
 * Server-rendered sections for sweeps and training traces. Every string from
 * a trace is escaped here; every number cell carries its exact value in
 * `data-value` (the text is rounded) so tests and scripts read the same
 * numbers the page shows. Episode links are plain `#<episode_id>` anchors the
 * client's deep-link handling opens.
 */
import { escapeHtml } from "../escape.ts";
import { lineChart, type ChartSeries } from "../charts.ts";
import { counted, type SweepSummary } from "../sweep.ts";
import { armCells } from "../report-cells.ts";
import type { TrainStep } from "../training.ts";

const fx = (x: number | null, d: number) => (x == null ? "–" : x.toFixed(d));
const pct = (x: number) => `${Math.round(x * 1000) / 10}%`;
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

/** Anchor id of a step's row (not an episode id: the client leaves such hashes to the browser). */
export const stepAnchor = (run: string, step: number, runs: string[]) => `step-${runs.indexOf(run)}-${step}`;

export function trainingSection(steps: TrainStep[]): string {
  const runs = [...new Set(steps.map((s) => s.run))];
  const series = (f: (s: TrainStep) => number | null, what: (s: TrainStep, y: number) => string): ChartSeries[] =>
    runs.map((run) => ({
      name: run,
      points: steps
        .filter((s) => s.run === run && f(s) !== null)
        .map((s) => ({ x: s.step, y: f(s)!, title: `${run} · step ${s.step}: ${what(s, f(s)!)}`, href: `#${stepAnchor(run, s.step, runs)}` })),
    }));
  const charts = [
    lineChart(
      series(
        (s) => s.meanReward,
        (_, y) => `mean env reward ${y.toFixed(3)}`,
      ),
      { key: "mean_reward", title: "mean env reward (the environment's stored reward, what GRPO trains on)", yRange: [0, 1] },
    ),
    lineChart(
      series(
        (s) => s.meanGroupStd,
        (_, y) => `mean in-group std ${y.toFixed(3)}`,
      ),
      { key: "mean_group_std", title: "env reward std inside groups", yDecimals: 3 },
    ),
    lineChart(
      series(
        (s) => s.fracRewardZeroStd,
        (s, y) => `${pct(y)} of ${s.groups.length} groups all equal`,
      ),
      { key: "frac_reward_zero_std", title: "frac_reward_zero_std", yRange: [0, 1] },
    ),
    lineChart(
      series(
        (s) => s.meanTurns,
        (_, y) => `${y.toFixed(1)} turns per rollout`,
      ),
      { key: "mean_turns", title: "turns per rollout", yDecimals: 0 },
    ),
    lineChart(
      series(
        (s) => s.fracNeverGuessed,
        (s, y) => `${pct(y)} of ${s.rollouts} never guessed`,
      ),
      { key: "frac_never_guessed", title: "share that never guessed", yRange: [0, 1] },
    ),
  ].join("");
  const legend = runs.length > 1 ? `<p class="legend runs">${runs.map((r, i) => `<span class="run s${i % 6}">${escapeHtml(r)}</span>`).join(" ")}</p>` : "";
  const rows = steps
    .map((s) => {
      const groups = s.groups
        .map((g) => {
          const links = g.rollouts
            .map((r) => link(r.id, r.reward == null ? "–" : r.reward.toFixed(3), `${r.id} · ${r.turns} turns${r.guessed === false ? " · never guessed" : ""}`))
            .join(" ");
          return `<span class="group${g.zeroStd ? " zero" : ""}" data-split="${escapeHtml(g.split)}" data-index="${g.index}" data-std="${g.std ?? ""}"><span class="gname">${escapeHtml(g.split)}/${g.index}</span> ${links}</span>`;
        })
        .join(" ");
      return (
        `<tr id="${stepAnchor(s.run, s.step, runs)}" data-run="${escapeHtml(s.run)}" data-step="${s.step}">` +
        (runs.length > 1 ? `<td>${escapeHtml(s.run)}</td>` : "") +
        cell("step", s.step, String(s.step)) +
        cell("rollouts", s.rollouts, String(s.rollouts)) +
        cell("groups", s.groups.length, String(s.groups.length)) +
        cell("mean_reward", s.meanReward, fx(s.meanReward, 3)) +
        cell("mean_group_std", s.meanGroupStd, fx(s.meanGroupStd, 3)) +
        cell("frac_reward_zero_std", s.fracRewardZeroStd, pct(s.fracRewardZeroStd)) +
        cell("mean_turns", s.meanTurns, fx(s.meanTurns, 1)) +
        cell("frac_never_guessed", s.fracNeverGuessed, pct(s.fracNeverGuessed)) +
        `<td class="groups">${groups}</td></tr>`
      );
    })
    .join("");
  return `<section class="training" id="gr-training" aria-labelledby="gr-training-h">
<h2 id="gr-training-h">Training steps</h2>
<p class="explain">A GRPO group is the rollouts sharing run, step, split and index. <code>frac_reward_zero_std</code> is the share of a step's groups whose rewards are all equal (a group of one counts): such groups teach nothing. Each reward below opens its rollout; each point opens its step.</p>
<div class="charts">${charts}</div>${legend}
<div class="scroll"><table class="stats steps" id="gr-steps"><thead><tr>${runs.length > 1 ? "<th>run</th>" : ""}<th>step</th><th>rollouts</th><th>groups</th><th title="the environment's stored reward">mean env reward</th><th>in-group std</th><th>zero-std groups</th><th>turns</th><th>never guessed</th><th>groups (split/index: env rewards)</th></tr></thead><tbody>${rows}</tbody></table></div>
</section>`;
}
