/**
 * A map with markers: Natural Earth land and borders (one `map` primitive,
 * painted from the atlas by the painter), a dashed great-circle line and
 * labelled markers placed here with the same projection.
 */
import { geoInterpolate } from "d3-geo";
import type { MapFrame } from "../../replay/rules/map-frame.ts";
import { C } from "../scene/theme.ts";
import { Draw, font } from "../scene/draw.ts";
import { mapProjection } from "./projection.ts";
import type { Box } from "../scene/types.ts";

type LatLon = readonly [number, number];

export interface Marker {
  at: LatLon;
  color: string;
  label?: string;
  labelBelow?: boolean; // so two close markers' labels do not collide
  scale?: number; // 0..1 pop-in
}

export function worldMap(
  d: Draw,
  b: Box,
  frame: MapFrame,
  markers: Marker[],
  unit: number,
  line: { from: LatLon; to: LatLon; progress: number } | null = null,
): void {
  d.prims.push({ t: "map", x: b.x, y: b.y, w: b.w, h: b.h, frame, sea: C.sea, land: C.land, border: C.border, lw: 0.8 * unit });
  const projection = mapProjection(frame, b.w, b.h);
  d.group({ clip: b }, () => {
    if (line && line.progress > 0) {
      const interp = geoInterpolate([line.from[1], line.from[0]], [line.to[1], line.to[0]]);
      const n = 64;
      const pts: number[] = [];
      for (let i = 0; i <= n; i++) {
        const xy = projection(interp((i / n) * Math.min(1, line.progress)));
        if (xy) pts.push(b.x + xy[0], b.y + xy[1]);
      }
      if (pts.length >= 4) d.prims.push({ t: "poly", pts, closed: false, stroke: "#f4f1ea", lw: 2.5 * unit, dash: [8 * unit, 6 * unit], cap: "round" });
    }
    for (const m of markers) {
      const s = m.scale ?? 1;
      if (s <= 0) continue;
      const xy = projection([m.at[1], m.at[0]]);
      if (!xy) continue;
      // A marker outside the framing sits on the edge, pointing the way to it.
      const margin = 10 * unit;
      const x = b.x + Math.min(b.w - margin, Math.max(margin, xy[0]));
      const y = b.y + Math.min(b.h - margin, Math.max(margin, xy[1]));
      d.prims.push({ t: "circle", x, y, r: 11 * unit * s, fill: m.color, stroke: C.white, lw: 3 * unit * s });
      if (m.label) {
        const f = font("sans", 15 * unit * s, 600);
        // SVG baselines at +30 / -18 px; the painter centres on y.
        const ly = y + (m.labelBelow ? 30 : -18) * unit * s - f.size * 0.36;
        d.text(m.label, x, ly, f, C.white, { align: "center", halo: { color: "rgba(0,0,0,0.7)", width: 4 * unit * s } });
      }
    }
  });
}

/** "Map: Natural Earth", bottom left of a map. */
export function mapCredit(d: Draw, b: Box, unit: number): void {
  const f = font("sans", 11 * unit);
  d.text("Map: Natural Earth", b.x + 10 * unit, b.y + b.h - 8 * unit - (f.size * 1.2) / 2, f, C.dim);
}
