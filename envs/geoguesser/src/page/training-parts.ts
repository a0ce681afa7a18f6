/**
 * The parts of a training page's section that follow the run: the run's
 * facts (steps, groups, median std, the steps to look at) and the four
 * dynamics charts over every step. Laid out once as markup data
 * (markup.ts): the page writes them (view/training.ts) and a live page
 * redraws them from its merged table (client app/training). Pure, browser-safe.
 */
import { h, type Child, type Markup } from "../../../../src/page/markup.ts";
import { stepChartMarkup, type ChartSeries } from "../../../../src/page/charts.ts";
import type { PageStep, TrainingData } from "./training.ts";

/** The element holding the facts, and the one holding the charts and their legend. */
export const SUMMARY_ID = "gr-train-summary";
export const CHARTS_ID = "gr-train-charts";
/**
 * The data file kind of a folder-form training page's groups (data/groups-<k>.js, GROUPS_PER_FILE each):
 * index.html keeps the steps and the run's numbers, all the charts and facts need; a real run's 8,000
 * groups (~8 MB) are read after the first screen.
 */
export const GROUPS_KIND = "groups";
export const GROUPS_PER_FILE = 1000;

const fixed = (x: number | null, d: number) => (x === null ? "–" : x.toFixed(d));
const times = (x: number | null) => (x === null ? "–" : `${x.toFixed(1)}x`);
const pct = (x: number) => `${Math.round(x * 1000) / 10}%`;

/** The runs of the table, in its order. */
export const runsOf = (d: Pick<TrainingData, "steps">): string[] => [...new Set(d.steps.map((s) => s.run))];

/** The address of a step: `#step/<n>`, naming the run only where the page has several. */
export function stepHref(step: number, run: string, runs: readonly string[]): string {
  return `#step/${step}${runs.length > 1 && run !== runs[0] ? `/run=${encodeURIComponent(run)}` : ""}`;
}

/** The items (each one or more children) with `sep` between them. */
const joined = (items: (Child | Child[])[], sep: string): Child[] => items.flatMap((x, i) => (i ? [sep, x] : [x]).flat());

/** The facts paragraph, then the largest multipliers and the rollouts without a reward (when there are any). */
export function trainingFacts(d: TrainingData): Markup[] {
  const runs = runsOf(d);
  const m = d.summary;
  const label = (s: { run: string; step: number }) => (runs.length > 1 ? `${s.run}/${s.step}` : String(s.step));
  const stepLink = (s: { run: string; step: number }) => h("a", { href: stepHref(s.step, s.run, runs) }, label(s));
  const facts: Child[][] = [
    runs.length > 1 ? [`${runs.length} runs`] : ["run ", h("b", {}, runs[0] ?? "–")],
    [`${m.steps} steps`],
    [`${m.groups} groups`],
    [`${d.rollouts} rollouts`],
    [`scale_rewards ${d.scale_rewards}`],
    ["median group std ", h("b", { "data-value": m.median_group_std ?? "" }, fixed(m.median_group_std, 4)), ` (advantages scaled ${times(m.multiplier)})`],
    [
      "steps with frac_reward_zero_std = 1: ",
      ...(m.all_zero_std_steps.length
        ? joined(
            m.all_zero_std_steps.map((s) => ["step ", stepLink(s)]),
            ", ",
          )
        : ["none"]),
    ],
  ];
  const out = [h("p", { class: "train-facts" }, joined(facts, " · "))];
  if (m.largest_multipliers.length)
    out.push(
      h(
        "p",
        { class: "explain" },
        "Largest multipliers: ",
        joined(
          m.largest_multipliers.map((x) => ["step ", stepLink(x), ` ${times(x.multiplier)}`]),
          ", ",
        ),
        ".",
      ),
    );
  if (d.unscored.length)
    out.push(
      h(
        "p",
        { class: "explain" },
        `${d.unscored.length} rollout(s) without outcome.reward are in the list but in no group: `,
        joined(
          d.unscored.slice(0, 5).map((id) => h("a", { class: "ep-link", href: `#${encodeURIComponent(id)}` }, id)),
          ", ",
        ),
        d.unscored.length > 5 ? ", …" : "",
        ".",
      ),
    );
  return out;
}

/**
 * The per-step charts, in page order: the names `page --help` lists (CHART_NAMES) and the keys the
 * client's readouts use (data-chart). Play charts read what the step's rollouts did (PageStep.play).
 */
export const CHART_NAMES: Record<string, string> = {
  mean_reward: "mean env reward",
  frac_reward_zero_std: "frac_reward_zero_std",
  median_group_std: "median group std",
  mean_group_std: "mean group std (TRL's reward_std)",
  multiplier: "advantage multiplier",
  turns: "turns used",
  cost: "action cost",
  km: "distance",
  never_guessed: "never guessed",
  tools: "tool-call mix",
};

/** The tool-call mix's series: every tool any step called, sorted (its colours follow this order). */
export const toolsOf = (d: Pick<TrainingData, "steps">): string[] => [...new Set(d.steps.flatMap((s) => Object.keys(s.play?.tools ?? {})))].sort();

/** A step's share of its tool calls that were `tool`; null without calls. */
export function toolShare(s: PageStep, tool: string): number | null {
  const t = s.play?.tools;
  if (!t) return null;
  const all = Object.values(t).reduce((a, b) => a + b, 0);
  return all ? (t[tool] ?? 0) / all : null;
}

/** The dynamics charts over every step, one series per run (the tool mix: one per tool, the first run's), then the legends. */
export function trainingCharts(d: TrainingData): Markup[] {
  const runs = runsOf(d);
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
  const play = d.steps.some((s) => s.play);
  const tools = toolsOf(d);
  const first = d.steps.filter((s) => s.run === runs[0]);
  const charts = [
    stepChartMarkup(
      series(
        (s) => s.mean_reward,
        (y, s) => `mean env reward ${y.toFixed(4)} over ${s.episodes} rollouts`,
      ),
      { xRange, key: "mean_reward", title: "mean env reward (outcome.reward, what the trainer optimised)", yDecimals: 2 },
    ),
    stepChartMarkup(
      series(
        (s) => s.frac_reward_zero_std,
        (y, s) => `frac_reward_zero_std ${pct(y)} of ${s.episodes} rollouts in zero-spread groups`,
      ),
      { xRange, key: "frac_reward_zero_std", title: "frac_reward_zero_std (share of rollouts in groups with no spread: no learning signal)", yRange: [0, 1] },
    ),
    stepChartMarkup(
      series(
        (s) => s.median_group_std,
        (y, s) => `median group std ${y.toFixed(4)} over ${s.groups} groups`,
      ),
      { xRange, key: "median_group_std", title: "median group std (sample std of each group's rewards)", yDecimals: 3 },
    ),
    stepChartMarkup(
      series(
        (s) => s.mean_group_std,
        (y, s) => `mean group std ${y.toFixed(4)} (median ${fixed(s.median_group_std, 4)})`,
      ),
      { xRange, key: "mean_group_std", title: "mean group std, per rollout (TRL's logged reward_std)", yDecimals: 3 },
    ),
    stepChartMarkup(
      series(
        (s) => s.multiplier,
        (y, s) => `advantage multiplier ${y.toFixed(1)}x (median std ${fixed(s.median_group_std, 4)})`,
      ),
      { xRange, key: "multiplier", title: "advantage multiplier 1 / (median group std + 1e-4), log scale", log: true, unit: "x" },
    ),
  ];
  if (play)
    charts.push(
      stepChartMarkup(
        series(
          (s) => s.play?.turns ?? null,
          (y) => `${y.toFixed(2)} turns used on average`,
        ),
        { xRange, key: "turns", title: "turns used, mean (the completion-length stand-in: tool calls per rollout)", yDecimals: 1 },
      ),
      stepChartMarkup(
        series(
          (s) => s.play?.cost ?? null,
          (y) => `action cost ${y.toFixed(3)} on average`,
        ),
        { xRange, key: "cost", title: "action cost, mean (outcome.action_cost)", yDecimals: 2 },
      ),
      stepChartMarkup(
        series(
          (s) => s.play?.km ?? null,
          (y) => `distance ${Math.round(y).toLocaleString("en-US")} km on average (rollouts that guessed)`,
        ),
        { xRange, key: "km", title: "guess distance, mean km (rollouts that guessed)", yDecimals: 0, unit: " km" },
      ),
      stepChartMarkup(
        series(
          (s) => s.play?.never_guessed ?? null,
          (y, s) => `${pct(y)} of ${s.episodes} rollouts never guessed`,
        ),
        { xRange, key: "never_guessed", title: "never guessed (share of rollouts that ran out of turns without a guess)", yRange: [0, 1] },
      ),
      stepChartMarkup(
        tools.map((tool) => ({
          name: tool,
          points: first
            .filter((s) => toolShare(s, tool) !== null)
            .map((s) => ({
              x: s.step,
              y: toolShare(s, tool)!,
              title: `step ${s.step}: ${tool} ${pct(toolShare(s, tool)!)} of tool calls`,
              href: stepHref(s.step, s.run, runs),
            })),
        })),
        { xRange, key: "tools", title: `tool-call mix (share of the step's tool calls${runs.length > 1 ? `, run ${runs[0]}` : ""})`, yRange: [0, 1] },
      ),
    );
  const out = [h("div", { class: "dyn-charts" }, charts)];
  if (play && tools.length)
    out.push(
      h(
        "p",
        { class: "legend tools" },
        "tool calls: ",
        joined(
          tools.map((t, i) => h("span", { class: `run s${i % 6}` }, t)),
          " ",
        ),
      ),
    );
  if (runs.length > 1)
    out.push(
      h(
        "p",
        { class: "legend runs" },
        joined(
          runs.map((r, i) => h("span", { class: `run s${i % 6}` }, r)),
          " ",
        ),
      ),
    );
  return out;
}
