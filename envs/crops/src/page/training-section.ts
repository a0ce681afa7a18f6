/**
 * A crops training page's section: the run's facts (steps, groups, median std, zero-spread
 * steps), the dynamics charts over every step drawn by the core's chart
 * code (src/page/charts.ts), and the shell the crops client fills with a step's groups, six
 * siblings side by side in rank order (client/groups.ts). Every string from a trace is escaped here.
 */
import { h, toHtml, type Markup } from "../../../../src/page/markup.ts";
import { stepChartMarkup, type ChartSeries } from "../../../../src/page/charts.ts";
import type { CropsPageStep, CropsTrainingData } from "./training.ts";

/** The charts in page order: key -> the name `page --help` and docs use. */
export const CROPS_CHART_NAMES: Record<string, string> = {
  mean_reward: "mean score",
  median_group_std: "median group std",
  mean_group_std: "mean group std",
  frac_reward_zero_std: "zero-spread groups",
  turns: "turns used",
  tools: "tool-call mix",
};

const pct = (x: number) => `${Math.round(x * 1000) / 10}%`;
const stepHref = (step: number) => `#step/${step}`;

/** Every action any step's rollouts took, sorted (the tool mix's series, coloured in this order). */
export const toolsOf = (d: Pick<CropsTrainingData, "steps">): string[] => [...new Set(d.steps.flatMap((s) => Object.keys(s.play?.tools ?? {})))].sort();

function toolShare(s: CropsPageStep, tool: string): number | null {
  const t = s.play?.tools;
  if (!t) return null;
  const all = Object.values(t).reduce((a, b) => a + b, 0);
  return all ? (t[tool] ?? 0) / all : null;
}

export function cropsTrainingCharts(d: CropsTrainingData): Markup[] {
  const runs = [...new Set(d.steps.map((s) => s.run))];
  const series = (f: (s: CropsPageStep) => number | null, what: (y: number, s: CropsPageStep) => string): ChartSeries[] =>
    runs.map((run) => ({
      name: run,
      points: d.steps
        .filter((s) => s.run === run && f(s) !== null)
        .map((s) => ({ x: s.step, y: f(s)!, title: `${runs.length > 1 ? `${run} · ` : ""}step ${s.step}: ${what(f(s)!, s)}`, href: stepHref(s.step) })),
    }));
  const steps = d.steps.map((s) => s.step);
  const xRange: [number, number] = [Math.min(...steps), Math.max(...steps)];
  const tools = toolsOf(d);
  const first = d.steps.filter((s) => s.run === runs[0]);
  const charts = [
    stepChartMarkup(
      series(
        (s) => s.mean_reward,
        (y, s) => `mean score ${y.toFixed(4)} over ${s.episodes} rollouts`,
      ),
      { xRange, key: "mean_reward", title: "mean score (outcome.reward, what the trainer optimised)", yRange: [0, 1] },
    ),
    stepChartMarkup(
      series(
        (s) => s.median_group_std,
        (y, s) => `median group std ${y.toFixed(4)} over ${s.groups} groups`,
      ),
      { xRange, key: "median_group_std", title: "median group std (sample std of each group's scores)", yDecimals: 3 },
    ),
    stepChartMarkup(
      series(
        (s) => s.mean_group_std,
        (y) => `mean group std ${y.toFixed(4)} (TRL's reward_std)`,
      ),
      { xRange, key: "mean_group_std", title: "mean group std, per rollout (TRL's logged reward_std)", yDecimals: 3 },
    ),
    stepChartMarkup(
      series(
        (s) => s.frac_reward_zero_std,
        (y, s) => `${pct(y)} of ${s.episodes} rollouts in zero-spread groups`,
      ),
      {
        xRange,
        key: "frac_reward_zero_std",
        title: "zero-spread groups (frac_reward_zero_std: share of rollouts in groups with no spread, no learning signal)",
        yRange: [0, 1],
      },
    ),
    stepChartMarkup(
      series(
        (s) => s.play?.turns ?? null,
        (y) => `${y.toFixed(2)} turns used on average`,
      ),
      { xRange, key: "turns", title: "turns used, mean (the model's turns, the opening view left out)", yDecimals: 1 },
    ),
    stepChartMarkup(
      tools.map((tool) => ({
        name: tool,
        points: first
          .filter((s) => toolShare(s, tool) !== null)
          .map((s) => ({ x: s.step, y: toolShare(s, tool)!, title: `step ${s.step}: ${tool} ${pct(toolShare(s, tool)!)} of actions`, href: stepHref(s.step) })),
      })),
      { xRange, key: "tools", title: `tool-call mix (share of the step's actions${runs.length > 1 ? `, run ${runs[0]}` : ""})`, yRange: [0, 1] },
    ),
  ];
  const legend = (names: string[], cls: string, lead: string) =>
    h("p", { class: `legend ${cls}` }, lead, ...names.flatMap((t, i) => [i ? " " : "", h("span", { class: `run s${i % 6}` }, t)]));
  const out = [h("div", { class: "dyn-charts" }, charts)];
  if (tools.length) out.push(legend(tools, "tools", "actions: "));
  if (runs.length > 1) out.push(legend(runs, "runs", ""));
  return out;
}

/** The run's facts: steps, groups, rollouts, how advantages are scaled, the median std, the steps with nothing to learn. */
export function cropsTrainingFacts(d: CropsTrainingData): Markup[] {
  const m = d.summary;
  const runs = [...new Set(d.steps.map((s) => s.run))];
  const num = (x: number | null, digits: number) => h("b", { "data-value": x ?? "" }, x === null ? "–" : x.toFixed(digits));
  const facts: (Markup | string)[][] = [
    runs.length > 1 ? [`${runs.length} runs`] : ["run ", h("b", {}, runs[0] ?? "–")],
    [`${m.steps} steps`],
    [`${m.groups} groups`],
    [`${d.rollouts} rollouts`],
    [`scale_rewards ${d.scale_rewards}`],
    ["median group std ", num(m.median_group_std, 4)],
    [
      "steps with every group at zero spread: ",
      ...(m.all_zero_std_steps.length
        ? m.all_zero_std_steps.flatMap((s, i) => [i ? ", " : "", h("a", { href: stepHref(s.step) }, `step ${s.step}`)])
        : ["none"]),
    ],
  ];
  const out = [h("p", { class: "train-facts" }, ...facts.flatMap((f, i) => (i ? [" · ", ...f] : f)))];
  if (d.unscored.length)
    out.push(
      h(
        "p",
        { class: "explain" },
        `${d.unscored.length} rollout(s) without outcome.reward are in the list but in no group: ${d.unscored.slice(0, 5).join(", ")}${d.unscored.length > 5 ? ", …" : ""}`,
      ),
    );
  return out;
}

export function cropsTrainingSection(d: CropsTrainingData): string {
  return `<section class="training crops-training" id="gr-training-section" aria-labelledby="gr-training-h">
<h2 id="gr-training-h">Training: GRPO groups</h2>
<p class="explain">A group is the six siblings of one step on one image (the recorded <code>group_id</code>), each judged against the others. The numbers are those of <code>georeplay groups --json</code>: the group's mean score, its sample std (Bessel), zero spread = isclose(std, 0); the advantage is the gym's own, r − mean (<code>groups --scale-rewards none</code>: what the rollouts record and <code>render --group</code> shows). A chart's point opens its step; a step shows its groups, siblings side by side ranked by advantage, each with its final boxes on the image; a sibling opens its episode.</p>
<div id="gr-train-summary">${cropsTrainingFacts(d).map(toHtml).join("")}</div>
<div id="gr-train-charts">${cropsTrainingCharts(d).map(toHtml).join("")}</div>
<div class="crops-groups" id="gr-crops-groups"></div>
</section>`;
}
