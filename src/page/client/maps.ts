/** Outcome and pin maps: one shared world path in the page, a viewBox per map. */
import type { MapSpec } from "../geo.ts";
import { el, svg } from "./dom.ts";

export function drawMap(m: MapSpec, label: string): SVGElement {
  const [x, y, w, h] = m.vb;
  const s = svg("svg", { viewBox: `${x} ${y} ${w} ${h}`, class: "map", role: "img", "aria-label": label, preserveAspectRatio: "xMidYMid slice" });
  s.appendChild(svg("rect", { class: "sea", x, y, width: w, height: h }));
  const g = svg("g", { transform: `scale(${m.k} 1)` });
  for (const dx of [-360, 0, 360]) {
    g.appendChild(svg("use", { href: "#gr-land", class: "land", x: dx }));
    g.appendChild(svg("use", { href: "#gr-borders", class: "borders", x: dx }));
  }
  s.appendChild(g);
  const r = w * 0.022;
  if (m.guess && m.truth) s.appendChild(svg("line", { class: "link", x1: m.guess[0], y1: m.guess[1], x2: m.truth[0], y2: m.truth[1] }));
  for (const p of m.pins) s.appendChild(svg("circle", { class: "pin", cx: p[0], cy: p[1], r: r * 0.8 }));
  if (m.truth) s.appendChild(svg("circle", { class: "truth", cx: m.truth[0], cy: m.truth[1], r }));
  if (m.guess) s.appendChild(svg("circle", { class: "guess", cx: m.guess[0], cy: m.guess[1], r }));
  return s;
}

export function mapLegend(m: MapSpec): HTMLElement {
  const p = el("div", "legend");
  const item = (c: string, t: string) => {
    p.appendChild(el("i", c));
    p.appendChild(document.createTextNode(t));
  };
  if (m.guess) item("g", "guess");
  if (m.truth) item("t", "truth");
  if (m.pins.length) item("p", "pins");
  return p;
}
