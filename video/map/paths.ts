/**
 * A framing's land and borders in map pixels, from the atlas cells it
 * touches: what the painter turns into Path2Ds and the page into SVG path
 * data, so a map's coastline is the same in a video and in a page.
 */
import { atlasFor, cellsFor, decodeLine, type MapCell } from "./atlas.ts";
import { mapProjection } from "./projection.ts";
import type { MapFrame } from "./frame.ts";

export interface MapRings {
  /** Closed rings, filled even-odd (a lake is a ring inside its land): [x0, y0, x1, y1, ...]. */
  land: Float64Array[];
  /** Open lines. */
  borders: Float64Array[];
}

export function mapRings(frame: MapFrame, width: number, height: number, cell: (key: string) => MapCell | null): MapRings {
  const projection = mapProjection(frame, width, height);
  const out: MapRings = { land: [], borders: [] };
  const project = (flat: number[], shift: number) => {
    const pts = decodeLine(flat);
    for (let i = 0; i + 1 < pts.length; i += 2) {
      const [x, y] = projection.raw(pts[i] + shift, pts[i + 1]);
      pts[i] = x;
      pts[i + 1] = y;
    }
    return pts;
  };
  for (const ref of cellsFor(atlasFor(frame), projection.view)) {
    const c = cell(ref.key);
    if (!c) continue;
    for (const ring of c.land) out.land.push(project(ring, ref.shift));
    for (const line of c.borders) out.borders.push(project(line, ref.shift));
  }
  return out;
}

/**
 * SVG path data for rings or lines, only as much as a width × height map
 * shows: points beyond a margin are pulled onto it (inside the map the
 * shape is unchanged; the cells' long straight edges lie outside), whole
 * pixels, repeated points dropped, lines entirely outside left out.
 */
export function svgPath(lines: Float64Array[], width: number, height: number, closed: boolean): string {
  const m = 4;
  const parts: string[] = [];
  for (const pts of lines) {
    let s = "";
    let px = NaN;
    let py = NaN;
    let seen = false;
    let n = 0;
    for (let i = 0; i + 1 < pts.length; i += 2) {
      const rx = pts[i];
      const ry = pts[i + 1];
      if (rx >= 0 && rx <= width && ry >= 0 && ry <= height) seen = true;
      const x = Math.round(Math.min(width + m, Math.max(-m, rx)));
      const y = Math.round(Math.min(height + m, Math.max(-m, ry)));
      if (x === px && y === py) continue;
      s += `${n === 0 ? "M" : "L"}${x} ${y}`;
      px = x;
      py = y;
      n++;
    }
    // A ring around the whole map (the view inside a country) is seen though none of its points is.
    if (n >= 2 && (seen || (closed && n >= 3))) parts.push(closed ? `${s}Z` : s);
  }
  return parts.join("");
}
