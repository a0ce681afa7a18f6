/**
 * The HUD: a compass tape with the heading and the field of view, and the
 * camera and budget numbers. Every value comes from the generator's per-frame
 * HUD state, so they move with the camera instead of jumping.
 */
import type { HudState } from "../../replay/timeline/timeline-schema.ts";
import { C } from "../../../../video/scene/theme.ts";
import { Draw, font, lineBox } from "../../../../video/scene/draw.ts";
import type { Box } from "../../../../video/scene/types.ts";

const CARDINALS: Record<number, string> = { 0: "N", 45: "NE", 90: "E", 135: "SE", 180: "S", 225: "SW", 270: "W", 315: "NW" };

/** Heading in [0, 360). */
const norm = (deg: number) => ((deg % 360) + 360) % 360;

/** Shown for a value the recording does not hold: never a made-up number. */
export const UNKNOWN = "—";

/** The stat texts, in order; a field listed in `hud.unknown` reads "—". */
export function hudValues(hud: HudState): [string, string][] {
  const unknown = new Set(hud.unknown ?? []);
  const v = (field: NonNullable<HudState["unknown"]>[number], text: () => string) => (unknown.has(field) ? UNKNOWN : text());
  return [
    ["Heading", v("heading", () => `${norm(hud.heading).toFixed(0).padStart(3, "0")}°`)],
    ["FOV", v("fov", () => `${hud.fov.toFixed(0)}°`)],
    ["Pitch", v("pitch", () => `${hud.pitch >= 0 ? "+" : ""}${hud.pitch.toFixed(0)}°`)],
    ["Actions left", v("stepsRemaining", () => (hud.stepsRemaining === null ? UNKNOWN : String(hud.stepsRemaining)))],
    ["Cost", v("cost", () => hud.cost.toFixed(2))],
    ["Walked", v("metres", () => `${hud.metres.toFixed(1)} m`)],
  ];
}

const COMPACT = new Set(["Heading", "FOV", "Actions left", "Cost"]);

/** The four values a compact (two-up) HUD shows, in order. */
export function compactHudValues(hud: HudState): [string, string][] {
  return hudValues(hud).filter(([label]) => COMPACT.has(label));
}

/** The compass tape, 46 design px tall at `unit`; returns its height. */
export function compassTape(d: Draw, hud: HudState, x: number, y: number, width: number, unit: number, corner: number): number {
  const span = 180; // degrees visible across the tape
  const h = 46 * unit;
  const pxPerDeg = width / span;
  const hd = norm(hud.heading);
  // Without a recorded heading the tape has nothing to point at: dim it rather than point north.
  const known = !(hud.unknown ?? []).includes("heading");
  d.group({ alpha: known ? 1 : 0.3, clip: { x, y, w: width, h, r: corner } }, () => {
    d.rect({ x, y, w: width, h }, C.panel);
    const fovW = Math.min(width, hud.fov * pxPerDeg);
    d.group({ alpha: 0.35 }, () => d.rect({ x: x + (width - fovW) / 2, y: y + h - 6 * unit, w: fovW, h: 6 * unit }, C.accent));
    const first = Math.ceil((hd - span / 2) / 5) * 5;
    for (let deg = first; deg <= hd + span / 2; deg += 5) {
      const tx = x + width / 2 + (deg - hd) * pxPerDeg;
      const n = norm(deg);
      const major = n % 45 === 0;
      const mid = n % 15 === 0;
      const len = major ? 14 : mid ? 9 : 5;
      d.prims.push({ t: "poly", pts: [tx, y + h - len * unit, tx, y + h], closed: false, stroke: major ? C.text : C.dim, lw: (major ? 2 : 1) * unit });
      if (major || mid) {
        const size = (major ? 15 : 11) * unit;
        // SVG put the baseline 18 px above the bottom; the painter centres on y.
        d.text(CARDINALS[n] ?? String(n), tx, y + h - 18 * unit - size * 0.36, font(major ? "sans" : "mono", size, major ? 700 : 400), major ? C.text : C.dim, {
          align: "center",
        });
      }
    }
    const cx = x + width / 2;
    d.prims.push({ t: "poly", pts: [cx - 7 * unit, y, cx + 7 * unit, y, cx, y + 9 * unit], closed: true, fill: C.accent });
    d.prims.push({ t: "poly", pts: [cx, y, cx, y + h], closed: false, stroke: C.accent, lw: 2 * unit });
  });
  return h;
}

/** One stat box: label over value. */
function stat(d: Draw, b: Box, label: string, value: string, unit: number, sizes: { label: number; value: number; padX: number; padY: number }): void {
  d.rect(b, C.panel, 6 * unit);
  const lf = font("sans", sizes.label * unit);
  const vf = font("mono", sizes.value * unit);
  const inner = b.w - 2 * sizes.padX * unit;
  const top = b.y + sizes.padY * unit;
  d.text(label.toUpperCase(), b.x + sizes.padX * unit, top + lineBox(lf.size) / 2, lf, C.dim, { maxWidth: inner, spacing: 0.1 * unit });
  d.text(value, b.x + sizes.padX * unit, top + lineBox(lf.size) + lineBox(vf.size) / 2, vf, C.text);
}

const statHeight = (unit: number, s: { label: number; value: number; padY: number }) => 2 * s.padY * unit + lineBox(s.label * unit) + lineBox(s.value * unit);

/** Rollout's HUD: the tape, then six stats in a row. */
export function hudPanel(d: Draw, hud: HudState, b: Box, unit: number): void {
  const tapeH = compassTape(d, hud, b.x, b.y, b.w, unit, 6 * unit);
  const values = hudValues(hud);
  const gap = 6 * unit;
  const sizes = { label: 10.5, value: 19, padX: 10, padY: 6 };
  const w = (b.w - gap * (values.length - 1)) / values.length;
  const y = b.y + tapeH + gap;
  values.forEach(([label, value], i) => stat(d, { x: b.x + i * (w + gap), y, w, h: statHeight(unit, sizes) }, label, value, unit, sizes));
}

/** A two-up side's compact HUD: the tape at 0.8 scale, four stats in 2 or 4 columns, and (2 columns) the side's turn counter. */
export function compactHud(d: Draw, hud: HudState, b: Box, columns: 2 | 4, turnLabel: string, unit: number): void {
  const tapeH = compassTape(d, hud, b.x, b.y, b.w, unit * 0.8, 6 * unit);
  const gap = 6 * unit;
  const sizes = { label: 10, value: 17, padX: 8, padY: 5 };
  const h = statHeight(unit, sizes);
  const w = (b.w - gap * (columns - 1)) / columns;
  const values = compactHudValues(hud);
  const top = b.y + tapeH + gap;
  values.forEach(([label, value], i) => {
    const row = Math.floor(i / columns);
    const col = i % columns;
    stat(d, { x: b.x + col * (w + gap), y: top + row * (h + gap), w, h }, label, value, unit, sizes);
  });
  if (columns === 2) {
    const rows = Math.ceil(values.length / columns);
    const f = font("sans", 14 * unit);
    d.text(turnLabel, b.x, top + rows * (h + gap) - gap + 4 * unit + lineBox(f.size) / 2, f, C.dim, { maxWidth: b.w });
  }
}
