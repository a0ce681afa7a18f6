/**
 * The group score card: one map with the truth and every sibling's guess
 * (numbered, in its tile's colour, framed by the shared rule), and the
 * siblings ranked by advantage with reward, advantage, distance and turns,
 * under the group's mean, std and how advantages were scaled.
 */
import { spanFrame } from "../../../../video/map/frame.ts";
import type { GroupInfo, GroupProps } from "./props.ts";
import { formatAdvantage, formatGroupReward, rankSiblings } from "./rank.ts";
import { advantageColour } from "./tile.ts";
import { isStacked } from "../../../../video/scene/layout.ts";
import { sharedScoreMotion } from "../../../../video/scene/motion.ts";
import { C, siblingColour } from "../../../../video/scene/theme.ts";
import { Draw, font, lineBox } from "../../../../video/scene/draw.ts";
import { formatKm } from "../rollout/score-card.ts";
import { worldMap, type Marker } from "../../../../video/parts/world-map.ts";

/** How the advantages were computed, in one line (TRL's GRPOTrainer). */
export function advantageRule(g: Pick<GroupInfo, "scaleRewards">): string {
  return g.scaleRewards === "group"
    ? "advantage = (env reward - group mean) / (group std + 1e-4)"
    : g.scaleRewards === "batch"
      ? "advantage = (env reward - group mean) / (step std + 1e-4)"
      : "advantage = env reward - group mean";
}

export function groupScoreCard(d: Draw, p: GroupProps, turns: readonly number[], offset: number, width: number, height: number, unit: number): void {
  const g = p.group;
  const sibs = p.siblings;
  const pad = 24 * unit;
  const stacked = isStacked(width, height);
  const mapW = Math.round(stacked ? width - 2 * pad : height - 2 * pad);
  const mapH = Math.round(stacked ? Math.min(height * 0.42, mapW) : mapW);
  const truth = sibs.find((s) => s.timeline.outcome?.truth)?.timeline.outcome?.truth ?? null;
  const guesses = sibs.map((s) => s.timeline.outcome?.guess ?? null);
  const pts = [truth, ...guesses].filter((x): x is [number, number] => x !== null);
  const motion = sharedScoreMotion(offset, sibs.length);
  const markers: Marker[] = [];
  // The truth first: a guess on it is drawn apart, the truth keeps its spot.
  if (truth) markers.push({ at: truth, color: C.truth, label: "Truth", scale: motion.truth });
  guesses.forEach((x, i) => {
    if (x) markers.push({ at: x, color: siblingColour(i), label: `#${i + 1}`, scale: motion.guess[i] });
  });
  const mapBox = { x: pad, y: pad, w: mapW, h: mapH };
  const side = stacked
    ? { x: pad, y: pad + mapH + pad, w: width - 2 * pad, h: height - 3 * pad - mapH }
    : { x: pad + mapW + pad, y: pad, w: width - mapW - 3 * pad, h: height - 2 * pad };
  const country = sibs.map((s) => s.timeline.episode.country).find((c) => c) ?? null;
  const count = motion.count;
  d.group({ alpha: motion.fade }, () => {
    d.group({ clip: { ...mapBox, r: 8 * unit } }, () => worldMap(d, mapBox, spanFrame(pts, mapW, mapH), markers, unit));
    d.group({ clip: side }, () => {
      let y = side.y;
      const hf = font("sans", 14 * unit);
      d.text(`GRPO group · step ${g.step} · ${g.split} #${g.index}`.toUpperCase(), side.x, y + lineBox(hf.size) / 2, hf, C.dim, {
        spacing: 1.2 * unit,
        maxWidth: side.w,
      });
      y += lineBox(hf.size) + 4 * unit;
      if (country) {
        const cf = font("sans", 30 * unit, 800);
        d.text(country, side.x, y + (cf.size * 1.1) / 2, cf, C.truthText, { maxWidth: side.w });
        y += cf.size * 1.1 + 4 * unit;
      }
      // The group's numbers, and the flag a researcher looks for first.
      const gf = font("mono", 13 * unit);
      const stats = `${sibs.length} siblings · mean ${formatGroupReward(g.mean)} · std ${g.std === null ? "—" : g.std.toFixed(4)} · scale_rewards ${g.scaleRewards}`;
      d.text(stats, side.x, y + lineBox(gf.size) / 2, gf, C.text, { maxWidth: side.w });
      y += lineBox(gf.size) + 6 * unit;
      if (g.zeroStd) {
        const zf = font("sans", 12 * unit, 800);
        const b = d.pill("ZERO SPREAD · NO LEARNING SIGNAL", side.x, y, zf, {
          fill: C.fail,
          color: C.white,
          padX: 8 * unit,
          padY: 3 * unit,
          r: 4 * unit,
          spacing: unit,
        });
        y += b.h + 6 * unit;
      }
      y += 6 * unit;
      // The ranking: best advantage first.
      const foot = footnote(d, p, side.w, unit);
      const tableH = side.y + side.h - foot.height - 8 * unit - y;
      const rowH = Math.min(36 * unit, tableH / (sibs.length + 1));
      const s = Math.min(1, rowH / (36 * unit));
      const cols = columns(side.x, side.w);
      const thf = font("sans", 11 * unit * Math.max(s, 0.8));
      const headers: [string, number, "left" | "right"][] = [
        ["Rank", cols.rank, "left"],
        ["Sibling", cols.sibling, "left"],
        ["Env reward", cols.reward, "right"],
        ["Advantage", cols.advantage, "right"],
        ["Distance", cols.distance, "right"],
        ["Turns", cols.turns, "right"],
      ];
      for (const [label, x, align] of headers) d.text(label.toUpperCase(), x, y + rowH / 2, thf, C.dim, { align, spacing: 0.6 * unit });
      d.rect({ x: side.x, y: y + rowH - unit, w: side.w, h: unit }, C.panelEdge);
      y += rowH;
      const big = font("sans", 19 * unit * s, 800);
      const mono = font("mono", 15 * unit * s);
      rankSiblings(sibs).forEach((i, rank) => {
        const sib = sibs[i];
        const o = sib.timeline.outcome;
        const mid = y + rowH / 2;
        d.text(String(rank + 1), cols.rank, mid, big, rank === 0 ? C.accent : C.text);
        const r = Math.max(3 * unit, 6 * unit * s);
        d.rect({ x: cols.sibling, y: mid - r, w: 2 * r, h: 2 * r }, siblingColour(i), r);
        d.text(`#${i + 1}`, cols.sibling + 2 * r + 6 * unit, mid, big, siblingColour(i));
        d.text(formatGroupReward(sib.reward * count), cols.reward, mid, mono, C.text, { align: "right" });
        d.text(formatAdvantage(sib.advantage * count), cols.advantage, mid, big, advantageColour(sib.advantage), { align: "right" });
        d.text(o?.distanceKm != null ? formatKm(o.distanceKm * count) : o?.guess ? "—" : "no guess", cols.distance, mid, mono, C.text, { align: "right" });
        d.text(String(o?.turnsUsed ?? turns[i]) + (o?.forcedGuess ? " (forced)" : ""), cols.turns, mid, mono, C.text, { align: "right" });
        d.rect({ x: side.x, y: y + rowH - unit, w: side.w, h: unit }, C.panelEdge);
        y += rowH;
      });
      foot.draw(side.x, side.y + side.h - foot.height);
    });
  });
}

/** The table's column anchors (left edges for rank and sibling, right edges for numbers) as shares of its width. */
function columns(x: number, w: number) {
  return {
    rank: x,
    sibling: x + w * 0.1,
    reward: x + w * 0.43,
    advantage: x + w * 0.64,
    distance: x + w * 0.87,
    turns: x + w,
  };
}

/** What reward and advantage mean here, and which rollout each sibling is; laid out first so the table knows its room. */
function footnote(d: Draw, p: GroupProps, w: number, unit: number): { height: number; draw: (x: number, y: number) => void } {
  const nf = font("sans", 11.5 * unit);
  const lines = d.tx.wrap(
    `Env reward: outcome.reward, what the trainer optimised (not geoeval's recomputed reward). ${advantageRule(p.group)}. Run ${p.group.run}${p.group.groupId !== null ? ` · group_id ${p.group.groupId}` : ""}.`,
    nf,
    w,
    3,
  );
  const ff = font("mono", 10.5 * unit);
  // Each sibling's rollout (file:line), a few per line, only when they fit in two lines.
  // A no-break space keeps each number with its rollout when the line wraps.
  const ids = p.siblings.map((s, i) => `#${i + 1}\u00a0${s.rollout}`);
  const idLines = d.tx.wrap(ids.join("  "), ff, w, 3);
  const showIds = idLines.length <= 2;
  const lh = lineBox(nf.size);
  const flh = lineBox(ff.size);
  const height = lines.length * lh + (showIds ? idLines.length * flh + 4 * unit : 0);
  return {
    height,
    draw: (x, y) => {
      for (const l of lines) {
        d.text(l, x, y + lh / 2, nf, C.faint);
        y += lh;
      }
      if (!showIds) return;
      y += 4 * unit;
      for (const l of idLines) {
        d.text(l, x, y + flh / 2, ff, C.faint);
        y += flh;
      }
    },
  };
}
