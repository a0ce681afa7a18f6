/**
 * The training page's section: the run's GRPO numbers (`georeplay groups`'s,
 * from the embedded table), four full-width dynamics charts over every step,
 * the shell the client fills with a step's groups or a group's siblings
 * (`#step/<n>`, `#group/<step>/<split>/<index>`), and the table itself.
 * Every string from a trace is escaped here.
 */
import { escapeHtml, scriptJson } from "../escape.ts";
import { stepChart, type ChartSeries } from "../charts.ts";
import type { PageStep, TrainingData } from "../training.ts";

/** The page's table of groups and steps (the client reads it: app/training). */
export const TRAINING_DATA_ID = "gr-training";

const fixed = (x: number | null, d: number) => (x === null ? "–" : x.toFixed(d));
const times = (x: number | null) => (x === null ? "–" : `${x.toFixed(1)}x`);
const pct = (x: number) => `${Math.round(x * 1000) / 10}%`;

/** The address of a step: `#step/<n>`, naming the run only where the page has several. */
export function stepHref(step: number, run: string, runs: readonly string[]): string {
  return `#step/${step}${runs.length > 1 && run !== runs[0] ? `/run=${encodeURIComponent(run)}` : ""}`;
}

/** The four charts the issue's dynamics are read from, one series per run. */
function charts(d: TrainingData, runs: string[]): string {
  const series = (f: (s: PageStep) => number | null, what: (y: number, s: PageStep) => string): ChartSeries[] =>
    runs.map((run) => ({
      name: run,
      points: d.steps
        .filter((s) => s.run === run && f(s) !== null)
        .map((s) => ({
          x: s.step,
          y: f(s)!,
          title: `${runs.length > 1 ? `${run} · ` : ""}step ${s.step}: ${what(f(s)!, s)}`,
          href: stepHref(s.step, run, runs),
        })),
    }));
  const steps = d.steps.map((s) => s.step);
  const xRange: [number, number] = [Math.min(...steps), Math.max(...steps)];
  return [
    stepChart(
      series(
        (s) => s.mean_reward,
        (y, s) => `mean env reward ${y.toFixed(4)} over ${s.episodes} rollouts`,
      ),
      { xRange, key: "mean_reward", title: "mean env reward (outcome.reward, what the trainer optimised)", yDecimals: 2 },
    ),
    stepChart(
      series(
        (s) => s.frac_reward_zero_std,
        (y, s) => `frac_reward_zero_std ${pct(y)} of ${s.episodes} rollouts in zero-spread groups`,
      ),
      { xRange, key: "frac_reward_zero_std", title: "frac_reward_zero_std (share of rollouts in groups with no spread: no learning signal)", yRange: [0, 1] },
    ),
    stepChart(
      series(
        (s) => s.median_group_std,
        (y, s) => `median group std ${y.toFixed(4)} over ${s.groups} groups`,
      ),
      { xRange, key: "median_group_std", title: "median group std (sample std of each group's rewards)", yDecimals: 3 },
    ),
    stepChart(
      series(
        (s) => s.multiplier,
        (y, s) => `advantage multiplier ${y.toFixed(1)}x (median std ${fixed(s.median_group_std, 4)})`,
      ),
      { xRange, key: "multiplier", title: "advantage multiplier 1 / (median group std + 1e-4), log scale", log: true, unit: "x" },
    ),
  ].join("");
}

export function trainingSection(d: TrainingData): string {
  const runs = [...new Set(d.steps.map((s) => s.run))];
  const m = d.summary;
  const label = (s: { run: string; step: number }) => (runs.length > 1 ? `${s.run}/${s.step}` : String(s.step));
  const stepLink = (s: { run: string; step: number }) => `<a href="${escapeHtml(stepHref(s.step, s.run, runs))}">${escapeHtml(label(s))}</a>`;
  const facts = [
    runs.length > 1 ? `${runs.length} runs` : `run <b>${escapeHtml(runs[0] ?? "–")}</b>`,
    `${m.steps} steps`,
    `${m.groups} groups`,
    `${d.rollouts} rollouts`,
    `scale_rewards ${escapeHtml(d.scale_rewards)}`,
    `median group std <b data-value="${m.median_group_std ?? ""}">${fixed(m.median_group_std, 4)}</b> (advantages scaled ${times(m.multiplier)})`,
    `steps with frac_reward_zero_std = 1: ${m.all_zero_std_steps.length ? m.all_zero_std_steps.map(stepLink).join(", ") : "none"}`,
  ];
  const largest = m.largest_multipliers.length
    ? `<p class="explain">Largest multipliers: ${m.largest_multipliers.map((x) => `step ${stepLink(x)} ${times(x.multiplier)}`).join(", ")}.</p>`
    : "";
  const unscored = d.unscored.length
    ? `<p class="explain">${d.unscored.length} rollout(s) without outcome.reward are in the list but in no group: ${d.unscored
        .slice(0, 5)
        .map((id) => `<a class="ep-link" href="#${escapeHtml(encodeURIComponent(id))}">${escapeHtml(id)}</a>`)
        .join(", ")}${d.unscored.length > 5 ? ", …" : ""}.</p>`
    : "";
  const legend = runs.length > 1 ? `<p class="legend runs">${runs.map((r, i) => `<span class="run s${i % 6}">${escapeHtml(r)}</span>`).join(" ")}</p>` : "";
  return `<section class="training" id="gr-training-section" aria-labelledby="gr-training-h">
<h2 id="gr-training-h">Training: GRPO groups</h2>
<p class="explain">A group is the rollouts of one step on one task (run, step, task split and index; a recorded <code>group_id</code> wins), each judged against its siblings. The numbers are <code>georeplay groups --json</code>'s, as TRL's GRPOTrainer computes them: sample std (Bessel), advantage (r − mean) / (std + 1e-4), zero spread = isclose(std, 0); a group of one has no std and advantage 0. Hover a chart for its values; a point opens its step, a step its groups, a group its siblings side by side.</p>
<p class="train-facts">${facts.join(" · ")}</p>${largest}${unscored}
<div class="dyn-charts">${charts(d, runs)}</div>${legend}
<div class="train-view" id="gr-train-view" hidden></div>
<script type="application/json" id="${TRAINING_DATA_ID}">${scriptJson(d)}</script>
</section>`;
}
