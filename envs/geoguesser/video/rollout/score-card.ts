/**
 * The score card at the end: guess (red) against truth (green) on the map,
 * framed like the environment's reveal map, with a dashed great-circle line,
 * and the numbers a researcher quotes.
 */
import type { Outcome, Timeline } from "../../replay/timeline/timeline-schema.ts";
import { geoevalReward } from "../../replay/rules/reward.ts";
import { revealFrame, pinsFrame, WORLD_FRAME } from "../../../../video/map/frame.ts";
import { isStacked } from "../../../../video/scene/layout.ts";
import { scoreMotion } from "../../../../video/scene/motion.ts";
import { C } from "../../../../video/scene/theme.ts";
import { Draw, font, lineBox } from "../../../../video/scene/draw.ts";
import { worldMap, type Marker } from "../../../../video/parts/world-map.ts";

export function formatKm(km: number): string {
  if (km < 1) return `${(km * 1000).toFixed(0)} m`;
  if (km < 10) return `${km.toFixed(2)} km`;
  if (km < 100) return `${km.toFixed(1)} km`;
  return `${Math.round(km).toLocaleString("en-US")} km`;
}

/**
 * The reward a score card shows: geoeval's, recomputed from the outcome's distance and action
 * cost (the page's "reward", envs/geoguesser/replay/rules/reward.ts), never the environment's stored one (the
 * timeline's `outcome.reward`, the page's "env reward"). No distance scores 0; no outcome: null.
 */
export function cardReward(o: Pick<Outcome, "distanceKm" | "cost"> | null): number | null {
  return o ? geoevalReward({ distance_km: o.distanceKm, action_cost: o.cost }) : null;
}

/** Where a score card's two rewards come from, said on the card. */
export const REWARD_SOURCES = "reward: geoeval's (distance, cost) · env reward: as recorded";

/** How a score card writes a reward (as the page does: 4 decimals). */
export const formatReward = (r: number): string => r.toFixed(4);

/** A label / value row with a rule under it; returns its height. */
export function scoreRow(
  d: Draw,
  x: number,
  y: number,
  w: number,
  label: string,
  value: string,
  unit: number,
  o: { big?: boolean; color?: string } = {},
): number {
  const vf = o.big ? font("sans", 30 * unit, 800) : font("mono", 18 * unit);
  const pad = o.big ? 6 : 4; // CSS px, as the design had them
  const h = 2 * pad + lineBox(vf.size);
  const mid = y + h / 2;
  const lf = font("sans", 13 * unit);
  const valueW = Math.min(d.width(value, vf), w * 0.75);
  d.text(label.toUpperCase(), x, mid, lf, C.dim, { spacing: 0.8 * unit, maxWidth: w - valueW - 12 * unit });
  d.text(value, x + w, mid, vf, o.color ?? C.text, { align: "right", maxWidth: w * 0.75 });
  d.rect({ x, y: y + h - unit, w, h: unit }, C.panelEdge);
  return h;
}

export function scoreCard(d: Draw, t: Timeline, offset: number, width: number, height: number, unit: number): void {
  const o = t.outcome;
  const ep = t.episode;
  const pad = 24 * unit;
  const stacked = isStacked(width, height);
  // Beside: a square map as tall as the frame. Stacked (square or portrait video): map on top.
  const mapW = Math.round(stacked ? Math.min(width - 2 * pad, height * 0.5) : height - 2 * pad);
  const guess = o?.guess ?? null;
  const truth = o?.truth ?? null;
  const frame = guess && truth ? revealFrame(guess, truth) : (pinsFrame([guess, truth].filter((p): p is [number, number] => p !== null)) ?? WORLD_FRAME);
  const m = scoreMotion(offset);
  const markers: Marker[] = [];
  // The truth first: when the guess lands on it, the truth keeps its spot and the guess is drawn apart.
  if (truth) markers.push({ at: truth, color: C.truth, label: "Truth", scale: m.truthPin });
  if (guess) markers.push({ at: guess, color: C.guess, label: "Guess", scale: m.guessPin });
  const mapBox = { x: stacked ? (width - mapW) / 2 : pad, y: pad, w: mapW, h: mapW };
  const side = stacked
    ? { x: pad, y: pad + mapW + pad, w: width - 2 * pad, h: height - 3 * pad - mapW }
    : { x: pad + mapW + pad, y: pad, w: width - mapW - 3 * pad, h: height - 2 * pad };
  d.group({ alpha: m.fade }, () => {
    d.group({ clip: { ...mapBox, r: 8 * unit } }, () =>
      worldMap(d, mapBox, frame, markers, unit, guess && truth ? { from: guess, to: truth, progress: m.line } : null),
    );
    d.group({ clip: side }, () => {
      const gap = 6 * unit;
      let y = side.y;
      const hf = font("sans", 14 * unit);
      d.text("RESULT", side.x, y + lineBox(hf.size) / 2, hf, C.dim, { spacing: 1.2 * unit });
      y += lineBox(hf.size) + gap;
      const vf = font("sans", 40 * unit, 800);
      for (const line of d.tx.wrap(o?.verdict ?? (guess ? "—" : "No guess"), vf, side.w, 2)) {
        d.text(line, side.x, y + (vf.size * 1.1) / 2, vf, C.text);
        y += vf.size * 1.1;
      }
      y += gap;
      if (ep.country) {
        const cf = font("sans", 20 * unit);
        d.text(ep.country, side.x, y + lineBox(cf.size) / 2, cf, C.truthText, { maxWidth: side.w });
        y += lineBox(cf.size) + gap;
      }
      y += 8 * unit + gap;
      const count = m.count;
      const reward = cardReward(o);
      // Only what the record holds or geoeval computes from it: geoeval's reward beside the stored env reward.
      const rows: [string, string, { big?: boolean; color?: string }][] = [
        ["Distance", o?.distanceKm != null ? formatKm(o.distanceKm * count) : "—", { big: true }],
        ["Reward (geoeval)", reward !== null ? formatReward(reward * count) : "—", { big: true, color: C.accent }],
        ["Env reward", o?.reward != null ? formatReward(o.reward * count) : "—", {}],
        ["Cost", o?.cost != null ? o.cost.toFixed(2) : "—", {}],
        ["Turns", o?.turnsUsed != null ? String(o.turnsUsed) + (o.forcedGuess ? " (forced guess)" : "") : "—", {}],
        ["Model", ep.modelName, {}],
      ];
      const cols = stacked ? 2 : 1;
      const colGap = 28 * unit;
      const colW = (side.w - (cols - 1) * colGap) / cols;
      for (let i = 0; i < rows.length; i += cols) {
        let rowH = 0;
        for (let c = 0; c < cols && i + c < rows.length; c++) {
          const [label, value, opt] = rows[i + c];
          rowH = Math.max(rowH, scoreRow(d, side.x + c * (colW + colGap), y, colW, label, value, unit, opt));
        }
        y += rowH;
      }
      // Coordinates and ids at the bottom.
      const ff = font("mono", 12 * unit);
      const lh = 12 * unit * 1.5;
      const foot: [string | null, string][] = [];
      if (guess) foot.push([C.guessDot, `guess ${guess[0].toFixed(4)}, ${guess[1].toFixed(4)}`]);
      if (truth) foot.push([C.truthDot, `truth ${truth[0].toFixed(4)}, ${truth[1].toFixed(4)}`]);
      foot.push([null, `episode ${ep.episodeId} · ${ep.split} #${ep.index}`]);
      foot.push([null, REWARD_SOURCES]);
      let fy = side.y + side.h - foot.length * lh;
      for (const [dot, text] of foot) {
        let x = side.x;
        if (dot) {
          d.text("●", x, fy + lh / 2, ff, dot);
          x += d.width("● ", ff);
        }
        d.text(text, x, fy + lh / 2, ff, C.faint, { maxWidth: side.x + side.w - x });
        fy += lh;
      }
    });
  });
}
