/**
 * Small inline-SVG line charts, written as markup on the server side: no
 * script, no style attributes (the CSP pins the one stylesheet), colours by
 * class. Every point carries a <title> tooltip and may link to a row of the
 * page. Numbers are written with fixed decimals so the same data gives the
 * same bytes.
 */
import { escapeHtml } from "./escape.ts";

export interface ChartPoint {
  x: number;
  y: number;
  /** Tooltip text. */
  title: string;
  /** In-page link (`#...`) for the point. */
  href?: string;
}

export interface ChartSeries {
  name: string;
  points: ChartPoint[];
}

export interface ChartOptions {
  title: string;
  /** Fixed y range (e.g. [0, 1] for shares); otherwise 0..max of the data. */
  yRange?: [number, number];
  /** Decimals for the y-axis labels. */
  yDecimals?: number;
  /** A key for tests and styling (data-chart). */
  key: string;
}

const W = 260;
const H = 120;
const PAD = { left: 34, right: 8, top: 18, bottom: 20 };
const f1 = (x: number) => (Math.round(x * 10) / 10).toFixed(1);

export function lineChart(series: ChartSeries[], o: ChartOptions): string {
  const pts = series.flatMap((s) => s.points);
  const xs = pts.map((p) => p.x);
  const ys = pts.map((p) => p.y);
  const x0 = xs.length ? Math.min(...xs) : 0;
  const x1 = xs.length ? Math.max(...xs) : 1;
  const [y0, y1raw] = o.yRange ?? [0, ys.length ? Math.max(...ys) : 1];
  const y1 = y1raw > y0 ? y1raw : y0 + 1;
  const iw = W - PAD.left - PAD.right;
  const ih = H - PAD.top - PAD.bottom;
  const sx = (x: number) => PAD.left + (x1 === x0 ? iw / 2 : ((x - x0) / (x1 - x0)) * iw);
  const sy = (y: number) => PAD.top + ih - ((Math.min(Math.max(y, y0), y1) - y0) / (y1 - y0)) * ih;
  const d = o.yDecimals ?? 2;
  const parts: string[] = [];
  parts.push(`<svg class="chart" data-chart="${escapeHtml(o.key)}" viewBox="0 0 ${W} ${H}" role="img" aria-label="${escapeHtml(o.title)}">`);
  parts.push(`<text class="ct" x="${PAD.left}" y="12">${escapeHtml(o.title)}</text>`);
  // Axes with their extremes labelled: enough to read a trend at this size.
  parts.push(`<path class="axis" d="M${PAD.left} ${PAD.top}V${PAD.top + ih}H${PAD.left + iw}"/>`);
  parts.push(`<text class="tick" x="${PAD.left - 3}" y="${PAD.top + 4}" text-anchor="end">${y1.toFixed(d)}</text>`);
  parts.push(`<text class="tick" x="${PAD.left - 3}" y="${PAD.top + ih}" text-anchor="end">${y0.toFixed(d)}</text>`);
  parts.push(`<text class="tick" x="${PAD.left}" y="${H - 5}">step ${x0}</text>`);
  if (x1 !== x0) parts.push(`<text class="tick" x="${PAD.left + iw}" y="${H - 5}" text-anchor="end">${x1}</text>`);
  series.forEach((s, i) => {
    const cls = `s${i % 6}`;
    const sorted = [...s.points].sort((a, b) => a.x - b.x);
    if (sorted.length > 1) parts.push(`<polyline class="line ${cls}" points="${sorted.map((p) => `${f1(sx(p.x))},${f1(sy(p.y))}`).join(" ")}"/>`);
    for (const p of sorted) {
      const dot = `<circle class="dot ${cls}" cx="${f1(sx(p.x))}" cy="${f1(sy(p.y))}" r="3" data-x="${p.x}" data-y="${p.y}"><title>${escapeHtml(p.title)}</title></circle>`;
      parts.push(p.href ? `<a href="${escapeHtml(p.href)}">${dot}</a>` : dot);
    }
  });
  parts.push("</svg>");
  return parts.join("");
}
