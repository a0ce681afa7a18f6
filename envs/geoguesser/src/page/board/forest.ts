/**
 * The paired comparison as a forest plot: one row per compared arm, its
 * delta against the baseline as a dot and its 95% CI as a bar, a line at 0.
 * Plain SVG markup written on the server (no script, no style attributes),
 * with every number in data attributes and a <title> per row.
 */
import { escapeHtml } from "../../../../../src/page/escape.ts";
import type { Report } from "../../../replay/board/report-schema.ts";

type Comparison = NonNullable<Report["paired"]>["comparisons"][number];

const ROW = 22;
const LABEL = 150;
const PLOT = 380;
const PAD = 12;
const f1 = (x: number) => (Math.round(x * 10) / 10).toFixed(1);
const s4 = (x: number) => (x >= 0 ? "+" : "") + x.toFixed(4);

/** Symmetric x range around 0 covering every CI, rounded up to a tidy step. */
export function forestRange(cs: readonly Comparison[]): number {
  const m = Math.max(0.01, ...cs.map((c) => Math.max(Math.abs(c.ci_low), Math.abs(c.ci_high))));
  const step = m <= 0.05 ? 0.01 : m <= 0.2 ? 0.05 : 0.1;
  return Math.ceil(m / step) * step;
}

export function forestPlot(baseline: string, cs: readonly Comparison[]): string {
  const r = forestRange(cs);
  const W = LABEL + PLOT + PAD * 2;
  const H = PAD * 2 + 16 + ROW * Math.max(1, cs.length);
  const sx = (x: number) => LABEL + PAD + ((x + r) / (2 * r)) * PLOT;
  const top = PAD + 16;
  const parts: string[] = [];
  parts.push(`<svg class="forest" viewBox="0 0 ${W} ${H}" role="img" aria-label="${escapeHtml(`delta against ${baseline} with 95% confidence intervals`)}">`);
  parts.push(`<line class="zero" x1="${f1(sx(0))}" y1="${top - 4}" x2="${f1(sx(0))}" y2="${H - PAD}"/>`);
  for (const x of [-r, -r / 2, 0, r / 2, r]) {
    parts.push(`<text class="tick" x="${f1(sx(x))}" y="${PAD + 6}" text-anchor="middle">${x === 0 ? "0" : s4(x).replace(/0+$/, "")}</text>`);
  }
  cs.forEach((c, i) => {
    const y = top + ROW * i + ROW / 2;
    const cls = c.significant ? (c.delta > 0 ? "up" : "down") : "ns";
    const title = `${c.arm}: delta ${s4(c.delta)} ± ${c.se.toFixed(4)}, 95% CI [${s4(c.ci_low)}, ${s4(c.ci_high)}], ${c.significant ? "SIGNIFICANT" : "not significant"}, better on ${c.better_on}/${c.n} tasks`;
    parts.push(
      `<g class="row ${cls}" data-arm="${escapeHtml(c.arm)}" data-delta="${c.delta}" data-ci-low="${c.ci_low}" data-ci-high="${c.ci_high}"><title>${escapeHtml(title)}</title>` +
        `<text class="arm" x="${LABEL}" y="${f1(y + 4)}" text-anchor="end">${escapeHtml(c.arm)}</text>` +
        `<line class="ci" x1="${f1(sx(Math.max(-r, c.ci_low)))}" y1="${f1(y)}" x2="${f1(sx(Math.min(r, c.ci_high)))}" y2="${f1(y)}"/>` +
        `<circle class="delta" cx="${f1(sx(c.delta))}" cy="${f1(y)}" r="4"/></g>`,
    );
  });
  parts.push("</svg>");
  return parts.join("");
}
