/**
 * The dynamics charts' hover values and clicks. The server draws each chart
 * (src/page/charts.ts) and writes its plot geometry on the <svg>; here the
 * pointer's x maps to the nearest step, a readout shows each run's value at
 * that step (a guide line, a dot, the number), and a click anywhere on the
 * chart opens that step, as a click on a point's own link does. A live
 * page redraws the charts from its merged table (the server's layout,
 * training-parts.ts) and binds them again.
 */
import { svg, toDom } from "../../../../../../../src/page/client/dom.ts";
import type { PageStep } from "../../../training.ts";
import { CHARTS_ID, toolShare, toolsOf, trainingCharts } from "../../../training-parts.ts";
import { allSteps, nearestStep, type TrainIndex } from "../../state/training.ts";

const share = (y: number) => `${(Math.round(y * 1000) / 10).toFixed(1)}%`;

/** Each chart's value of a step and how its readout writes it (the chart keys of training-parts.ts). */
const SERIES: Record<string, { value: (s: PageStep) => number | null; text: (y: number) => string; label: string }> = {
  mean_reward: { value: (s) => s.mean_reward, text: (y) => y.toFixed(4), label: "mean env reward" },
  frac_reward_zero_std: { value: (s) => s.frac_reward_zero_std, text: share, label: "frac_reward_zero_std" },
  median_group_std: { value: (s) => s.median_group_std, text: (y) => y.toFixed(4), label: "median group std" },
  mean_group_std: { value: (s) => s.mean_group_std, text: (y) => y.toFixed(4), label: "mean group std (reward_std)" },
  multiplier: { value: (s) => s.multiplier, text: (y) => `${y.toFixed(1)}x`, label: "multiplier" },
  turns: { value: (s) => s.play?.turns ?? null, text: (y) => y.toFixed(2), label: "turns used" },
  cost: { value: (s) => s.play?.cost ?? null, text: (y) => y.toFixed(3), label: "action cost" },
  km: { value: (s) => s.play?.km ?? null, text: (y) => `${Math.round(y).toLocaleString("en-US")} km`, label: "distance" },
  never_guessed: { value: (s) => s.play?.never_guessed ?? null, text: share, label: "never guessed" },
};

/** The readout of one step on one chart: each run's value there ("–" where it has none); the tool mix: each tool's share (the first run's). */
export function readout(ix: TrainIndex, key: string, step: number): string {
  if (key === "tools") {
    const row = ix.steps.get(`${ix.runs[0]}\u0000${step}`)?.step;
    const parts = row ? toolsOf(ix.data).map((t) => `${t} ${toolShare(row, t) === null ? "–" : share(toolShare(row, t)!)}`) : [];
    return `step ${step} · tool calls ${parts.length ? parts.join(" · ") : "–"}`;
  }
  const s = SERIES[key];
  if (!s) return `step ${step}`;
  const values = ix.runs.map((run) => {
    const row = ix.steps.get(`${run}\u0000${step}`)?.step;
    const y = row ? s.value(row) : null;
    return `${ix.runs.length > 1 ? `${run} ` : ""}${y === null ? "–" : s.text(y)}`;
  });
  return `step ${step} · ${s.label} ${values.join(" · ")}`;
}

/** Draws the charts anew from the table (a live page's new steps) and binds them. */
export function redrawCharts(doc: Document, ix: TrainIndex, open: (step: number) => void): void {
  const box = doc.getElementById(CHARTS_ID);
  if (!box) return;
  box.replaceChildren(...trainingCharts(ix.data).map((m) => toDom(m)));
  bindCharts(doc, ix, open);
}

export function bindCharts(doc: Document, ix: TrainIndex, open: (step: number) => void): void {
  const steps = allSteps(ix);
  doc.querySelectorAll<SVGSVGElement>("svg.chart.dyn").forEach((chart) => {
    const [left, top, width, height] = (chart.dataset.plot ?? "0 0 1 1").split(" ").map(Number);
    const plot = { left, width, x0: Number(chart.dataset.x0), x1: Number(chart.dataset.x1) };
    const key = chart.dataset.chart ?? "";
    const guide = svg("path", { class: "guide", d: "" });
    const bg = svg("rect", { class: "readout-bg", x: 0, y: 0, width: 0, height: 16, rx: 3 });
    const text = svg("text", { class: "readout", x: 0, y: 0 });
    const hover = svg("g", { class: "hover" });
    hover.append(guide, bg, text);
    hover.setAttribute("visibility", "hidden");
    chart.appendChild(hover);

    const stepAt = (ev: PointerEvent | MouseEvent): number | null => {
      const m = chart.getScreenCTM();
      if (!m) return null;
      const p = new DOMPoint(ev.clientX, ev.clientY).matrixTransform(m.inverse());
      return nearestStep(steps, p.x, plot);
    };
    const xOf = (step: number) => (plot.x1 === plot.x0 ? left + width / 2 : left + ((step - plot.x0) / (plot.x1 - plot.x0)) * width);

    chart.addEventListener("pointermove", (ev) => {
      const step = stepAt(ev);
      if (step === null) return;
      const x = xOf(step);
      guide.setAttribute("d", `M${x.toFixed(1)} ${top}V${top + height}`);
      text.textContent = readout(ix, key, step);
      // The readout sits beside the guide, on the side with room for it.
      const w = (text as SVGTextElement).getComputedTextLength() + 10;
      const tx = x + 8 + w > left + width ? x - 8 - w : x + 8;
      bg.setAttribute("x", tx.toFixed(1));
      bg.setAttribute("y", String(top + 2));
      bg.setAttribute("width", w.toFixed(1));
      text.setAttribute("x", (tx + 5).toFixed(1));
      text.setAttribute("y", String(top + 14));
      hover.setAttribute("visibility", "visible");
      chart.dataset.hoverStep = String(step);
    });
    chart.addEventListener("pointerleave", () => {
      hover.setAttribute("visibility", "hidden");
      delete chart.dataset.hoverStep;
    });
    chart.addEventListener("click", (ev) => {
      // A point's own link opens its step through the address; anywhere else, the nearest step.
      if ((ev.target as Element).closest("a")) return;
      const step = stepAt(ev);
      if (step !== null) open(step);
    });
  });
}
