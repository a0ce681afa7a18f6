/**
 * Page-wide inline-SVG charts over training steps, written as markup on the
 * server side: no script, no style attributes (the CSP pins the one
 * stylesheet), colours by class, numbers with fixed decimals (the same data
 * gives the same bytes). The plot area's geometry rides on the <svg> as data
 * attributes so the client can map a pointer to the nearest step (hover
 * values, a click opening the step) without redoing the layout. Each point
 * is a link to its step (`#step/<n>`) while there are few enough to draw.
 * The chart is laid out as markup data (markup.ts): a live page redraws it
 * in the browser from the same layout as new steps arrive.
 */
import { h, toHtml, type Markup } from "./markup.ts";

export interface ChartPoint {
  x: number;
  y: number;
  /** Tooltip text. */
  title: string;
  /** In-page link for the point (`#step/<n>`). */
  href?: string;
}

export interface ChartSeries {
  name: string;
  points: ChartPoint[];
}

export interface ChartOptions {
  title: string;
  /** A key for tests, styling and the client (data-chart). */
  key: string;
  /** Fixed y range (e.g. [0, 1] for shares); otherwise 0..max of the data. */
  yRange?: [number, number];
  /** Decimals for the y-axis labels. */
  yDecimals?: number;
  /** A log10 y axis (multipliers span 1x..10,000x); ticks at powers of ten. */
  log?: boolean;
  /** A unit written after the y labels ("x"). */
  unit?: string;
  /** The steps the x axis spans (every chart of a page the same, so one x is one step on all of them); default the points'. */
  xRange?: [number, number];
}

export const CHART_W = 1000;
export const CHART_H = 170;
const PAD = { left: 58, right: 14, top: 24, bottom: 22 };
/** Above this many points a series is drawn as a line only (the client still maps every step). */
export const MAX_DOTS = 400;

const f1 = (x: number) => (Math.round(x * 10) / 10).toFixed(1);

/** Up to ~5 round tick values covering [a, b] (1, 2 or 5 times a power of ten apart). */
export function niceTicks(a: number, b: number, want = 4): number[] {
  if (!(b > a)) return [a];
  const raw = (b - a) / want;
  const p = Math.pow(10, Math.floor(Math.log10(raw)));
  const step = [1, 2, 5, 10].map((m) => m * p).find((s) => s >= raw) ?? 10 * p;
  const out: number[] = [];
  for (let v = Math.ceil(a / step) * step; v <= b + step * 1e-9; v += step) out.push(Number(v.toPrecision(12)));
  return out;
}

/** A full-width line chart of one value per step (one series per run), as HTML. */
export const stepChart = (series: ChartSeries[], o: ChartOptions): string => toHtml(stepChartMarkup(series, o));

/** The chart as markup data (the page writes it; a live page redraws it). */
export function stepChartMarkup(series: ChartSeries[], o: ChartOptions): Markup {
  const pts = series.flatMap((s) => s.points);
  const xs = pts.map((p) => p.x);
  const x0 = o.xRange?.[0] ?? (xs.length ? Math.min(...xs) : 0);
  const x1 = o.xRange?.[1] ?? (xs.length ? Math.max(...xs) : 1);
  const tr = o.log ? (y: number) => Math.log10(Math.max(y, 1e-12)) : (y: number) => y;
  const ys = pts.map((p) => tr(p.y));
  let [y0, y1] = o.yRange ? [tr(o.yRange[0]), tr(o.yRange[1])] : [0, ys.length ? Math.max(...ys) : 1];
  if (o.log) {
    y0 = Math.min(0, Math.floor(ys.length ? Math.min(...ys) : 0));
    y1 = Math.max(y0 + 1, Math.ceil(ys.length ? Math.max(...ys) : 1));
  }
  if (!(y1 > y0)) y1 = y0 + 1;
  if (!o.log && !o.yRange) {
    // Up to the next round value: the top of the data sits under a labelled line.
    const t = niceTicks(y0, y1);
    const step = t.length > 1 ? t[1] - t[0] : 0;
    if (step > 0 && t[t.length - 1] < y1) y1 = Number((t[t.length - 1] + step).toPrecision(12));
  }
  const iw = CHART_W - PAD.left - PAD.right;
  const ih = CHART_H - PAD.top - PAD.bottom;
  const sx = (x: number) => PAD.left + (x1 === x0 ? iw / 2 : ((x - x0) / (x1 - x0)) * iw);
  const sy = (y: number) => PAD.top + ih - ((Math.min(Math.max(tr(y), y0), y1) - y0) / (y1 - y0)) * ih;
  const d = o.yDecimals ?? 2;
  const unit = o.unit ?? "";
  const parts: Markup[] = [];
  parts.push(h("text", { class: "ct", x: PAD.left, y: 15 }, o.title));
  // Horizontal grid at round values, labelled: the level of any point reads off the axis.
  const yTicks = o.log ? Array.from({ length: y1 - y0 + 1 }, (_, i) => Math.pow(10, y0 + i)) : niceTicks(y0, y1);
  for (const v of yTicks) {
    const y = f1(sy(v));
    parts.push(h("path", { class: "grid", d: `M${PAD.left} ${y}H${PAD.left + iw}` }));
    const label = o.log ? `${v.toLocaleString("en-US")}${unit}` : `${v.toFixed(d)}${unit}`;
    parts.push(h("text", { class: "tick", x: PAD.left - 5, y: f1(sy(v) + 3.5), "text-anchor": "end" }, label));
  }
  parts.push(h("path", { class: "axis", d: `M${PAD.left} ${PAD.top}V${PAD.top + ih}H${PAD.left + iw}` }));
  for (const v of x1 > x0 ? niceTicks(x0, x1, 8).filter((v) => Number.isInteger(v)) : [x0]) {
    parts.push(h("text", { class: "tick", x: f1(sx(v)), y: CHART_H - 6, "text-anchor": "middle" }, String(v)));
  }
  parts.push(h("text", { class: "tick", x: PAD.left + iw, y: 15, "text-anchor": "end" }, "step"));
  series.forEach((s, i) => {
    const cls = `s${i % 6}`;
    const sorted = [...s.points].sort((a, b) => a.x - b.x);
    if (sorted.length > 1) parts.push(h("polyline", { class: `line ${cls}`, points: sorted.map((p) => `${f1(sx(p.x))},${f1(sy(p.y))}`).join(" ") }));
    if (sorted.length > MAX_DOTS) return;
    for (const p of sorted) {
      const dot = h("circle", { class: `dot ${cls}`, cx: f1(sx(p.x)), cy: f1(sy(p.y)), r: "3.5", "data-x": p.x, "data-y": p.y }, h("title", {}, p.title));
      parts.push(p.href ? h("a", { href: p.href }, dot) : dot);
    }
  });
  return h(
    "svg",
    {
      class: "chart dyn",
      "data-chart": o.key,
      "data-x0": x0,
      "data-x1": x1,
      "data-plot": `${PAD.left} ${PAD.top} ${iw} ${ih}`,
      viewBox: `0 0 ${CHART_W} ${CHART_H}`,
      role: "img",
      "aria-label": o.title,
    },
    parts,
  );
}
