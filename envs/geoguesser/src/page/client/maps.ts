/**
 * Outcome and pin maps: the primitives the map module laid out in Node
 * (src/page/geo.ts), written as SVG: sea, land and borders, then circles,
 * lines and text, exactly as the video's painter draws them on a canvas.
 * A board page's maps carry no land or borders: they are cut here from the
 * page's one table of cells (map-cells.ts), by the code that cut them in Node.
 */
import type { MapPaint, MapSpec } from "../../../../../src/page/geo.ts";
import { framePaths } from "./map-cells.ts";
import { el, svg } from "../../../../../src/page/client/dom.ts";
import { fontFamilies } from "../../../../../video/text/fonts.ts";

/** The video's font chain for a role, as an SVG font-family. */
const family = (role: "sans" | "mono") =>
  fontFamilies(role)
    .map((f) => (f.includes(" ") ? `'${f}'` : f))
    .join(", ");

/** A map's land and borders: its own path data (run pages), or cut from the page's cells. */
function paths(p: MapPaint, width: number, height: number): { landPath: string; bordersPath: string } {
  return p.landPath !== undefined && p.bordersPath !== undefined ? { landPath: p.landPath, bordersPath: p.bordersPath } : framePaths(p.frame, width, height);
}

export function drawMap(m: MapSpec, label: string): SVGElement {
  const own = paths(m, m.size, m.size);
  const s = svg("svg", { viewBox: `0 0 ${m.size} ${m.size}`, class: "map", role: "img", "aria-label": label });
  s.appendChild(svg("rect", { x: 0, y: 0, width: m.size, height: m.size, fill: m.sea }));
  s.appendChild(svg("path", { d: own.landPath, fill: m.land, "fill-rule": "evenodd" }));
  s.appendChild(svg("path", { d: own.bordersPath, fill: "none", stroke: m.border, "stroke-width": m.lw }));
  for (const p of m.prims) {
    if (p.t === "inset") {
      // A locator map: its own box, clipped by a nested <svg>, land and borders in its own pixels.
      const inner = svg("svg", { x: p.x, y: p.y, width: p.w, height: p.h, viewBox: `0 0 ${p.w} ${p.h}` });
      const its = paths(p, p.w, p.h);
      inner.appendChild(svg("rect", { x: 0, y: 0, width: p.w, height: p.h, fill: p.sea }));
      inner.appendChild(svg("path", { d: its.landPath, fill: p.land, "fill-rule": "evenodd" }));
      inner.appendChild(svg("path", { d: its.bordersPath, fill: "none", stroke: p.border, "stroke-width": p.lw }));
      s.appendChild(inner);
    } else if (p.t === "rect") {
      const fill = typeof p.fill === "string" ? p.fill : "none";
      const r = typeof p.r === "number" ? p.r : 0;
      s.appendChild(svg("rect", { x: p.x, y: p.y, width: p.w, height: p.h, rx: r, fill, stroke: p.stroke ?? "none", "stroke-width": p.lw ?? 0 }));
    } else if (p.t === "circle")
      s.appendChild(svg("circle", { cx: p.x, cy: p.y, r: p.r, fill: p.fill ?? "none", stroke: p.stroke ?? "none", "stroke-width": p.lw ?? 1 }));
    else if (p.t === "poly") {
      const pts = [];
      for (let i = 0; i + 1 < p.pts.length; i += 2) pts.push(`${p.pts[i]},${p.pts[i + 1]}`);
      s.appendChild(
        svg(p.closed ? "polygon" : "polyline", {
          points: pts.join(" "),
          fill: p.fill ?? "none",
          stroke: p.stroke ?? "none",
          "stroke-width": p.lw ?? 1,
          "stroke-linecap": p.cap ?? "butt",
          ...(p.dash ? { "stroke-dasharray": p.dash.join(" ") } : {}),
        }),
      );
    } else {
      const t = svg("text", {
        x: p.x,
        y: p.y,
        "text-anchor": p.align === "center" ? "middle" : p.align === "right" ? "end" : "start",
        "dominant-baseline": "central",
        "font-family": family(p.font.role),
        "font-size": p.font.size,
        "font-weight": p.font.weight,
        fill: p.fill,
        ...(p.halo ? { stroke: p.halo.color, "stroke-width": p.halo.width, "stroke-linejoin": "round", "paint-order": "stroke" } : {}),
      });
      t.textContent = p.text;
      s.appendChild(t);
    }
  }
  return s;
}

export function mapLegend(m: MapSpec): HTMLElement {
  const p = el("div", "legend");
  const item = (c: string, t: string) => {
    p.appendChild(el("i", c));
    p.appendChild(document.createTextNode(t));
  };
  if (m.has.guess) item("g", "guess");
  if (m.has.truth) item("t", "truth");
  if (m.has.pins) item("p", "pins");
  return p;
}
