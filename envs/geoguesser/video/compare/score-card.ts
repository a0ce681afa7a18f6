/**
 * The two-up score card: one map with the truth and both guesses (labelled
 * by arm, framed by the shared rule), and both sides' distance, geoeval
 * reward, stored env reward and turns.
 */
import { spanFrame } from "../../../../video/map/frame.ts";
import { sameTask } from "./sides.ts";
import type { CompareProps, CompareSide } from "./props.ts";
import { isStacked } from "../../../../video/scene/layout.ts";
import { compareScoreMotion } from "../../../../video/scene/motion.ts";
import { C, SIDE_COLOURS, SIDE_TEXT } from "../../../../video/scene/theme.ts";
import { Draw, font, lineBox } from "../../../../video/scene/draw.ts";
import { cardReward, formatKm, formatReward } from "../rollout/score-card.ts";
import { worldMap, type Marker } from "../../../../video/parts/world-map.ts";

/** The numbers one side's column shows (null: unknown). */
export function sideResult(s: CompareSide, turns: number): { distanceKm: number | null; envReward: number | null; reward: number | null; turns: number } {
  const o = s.timeline.outcome;
  const distanceKm = o?.distanceKm ?? null;
  return {
    distanceKm,
    // The environment's stored reward, as recorded (no "points": neither the record nor geoeval has them).
    envReward: o?.reward ?? null,
    // geoeval's recomputed reward (not the environment's stored one): no distance scores 0.
    reward: cardReward(o),
    turns: o?.turnsUsed ?? turns,
  };
}

export function compareScoreCard(d: Draw, props: CompareProps, turns: readonly number[], offset: number, width: number, height: number, unit: number): void {
  const sides = [props.a, props.b] as const;
  const pad = 24 * unit;
  const stacked = isStacked(width, height);
  const mapW = Math.round(stacked ? width - 2 * pad : height - 2 * pad);
  const mapH = Math.round(stacked ? Math.min(height * 0.5, mapW) : mapW);
  const truth = props.a.timeline.outcome?.truth ?? props.b.timeline.outcome?.truth ?? null;
  const same = sameTask(props);
  const guesses = sides.map((s) => s.timeline.outcome?.guess ?? null);
  const pts = [truth, ...guesses].filter((p): p is [number, number] => p !== null);
  const frame = spanFrame(pts, mapW, mapH);
  const motion = compareScoreMotion(offset);
  const markers: Marker[] = [];
  // Different tasks have different truths: then only A's is drawn, and the card says so.
  // The truth first: a guess on it is drawn apart, the truth keeps its spot.
  if (truth) markers.push({ at: truth, color: C.truth, label: same ? "Truth" : "Truth (A)", scale: motion.truth });
  guesses.forEach((g, i) => {
    if (g) markers.push({ at: g, color: SIDE_COLOURS[i], label: sides[i].label, scale: motion.guess[i] });
  });
  const mapBox = { x: pad, y: pad, w: mapW, h: mapH };
  const side = stacked
    ? { x: pad, y: pad + mapH + pad, w: width - 2 * pad, h: height - 3 * pad - mapH }
    : { x: pad + mapW + pad, y: pad, w: width - mapW - 3 * pad, h: height - 2 * pad };
  const ep = props.a.timeline.episode;
  const eb = props.b.timeline.episode;
  const country = ep.country ?? eb.country;
  const results = sides.map((s, i) => sideResult(s, turns[i]));
  const count = motion.count;
  d.group({ alpha: motion.fade }, () => {
    d.group({ clip: { ...mapBox, r: 8 * unit } }, () => {
      worldMap(d, mapBox, frame, markers, unit);
    });
    d.group({ clip: side }, () => {
      let y = side.y;
      const hf = font("sans", 14 * unit);
      const head = same ? `Same task · ${ep.split} #${ep.index}` : `Different tasks · ${ep.split} #${ep.index} and ${eb.split} #${eb.index}`;
      d.text(head.toUpperCase(), side.x, y + lineBox(hf.size) / 2, hf, C.dim, { spacing: 1.2 * unit, maxWidth: side.w });
      y += lineBox(hf.size) + 6 * unit;
      if (country && same) {
        const cf = font("sans", 34 * unit, 800);
        d.text(country, side.x, y + (cf.size * 1.1) / 2, cf, C.truthText, { maxWidth: side.w });
        y += cf.size * 1.1 + 6 * unit;
      }
      y += 8 * unit;
      // The table: a label column, then A and B right-aligned.
      const colW = side.w * 0.3;
      const xs = [side.x + side.w - colW - 12 * unit, side.x + side.w];
      const thf = font("sans", 15 * unit, 800);
      const subf = font("sans", 10.5 * unit);
      let headH = lineBox(thf.size);
      sides.forEach((s, i) => {
        d.text(s.label, xs[i], y + lineBox(thf.size) / 2, thf, SIDE_TEXT[i], { align: "right", maxWidth: colW });
        const e = s.timeline.episode;
        const sub = e.source === "slideshow" ? ["recorded images", C.slideshowText] : !e.verified ? ["UNVERIFIED", C.fail] : null;
        if (sub) {
          d.text(sub[0], xs[i], y + lineBox(thf.size) + lineBox(subf.size) / 2, subf, sub[1], { align: "right" });
          headH = lineBox(thf.size) + lineBox(subf.size);
        }
      });
      y += headH + 6 * unit;
      const row = (label: string, values: string[], big: boolean) => {
        const vf = big ? font("sans", 26 * unit, 800) : font("mono", 17 * unit);
        const h = lineBox(vf.size) + 10 * unit;
        d.text(label.toUpperCase(), side.x, y + h / 2, font("sans", 12.5 * unit), C.dim, { spacing: 0.7 * unit, maxWidth: xs[0] - colW - side.x });
        values.forEach((v, i) => d.text(v, xs[i], y + h / 2, vf, C.text, { align: "right", maxWidth: colW }));
        d.rect({ x: side.x, y: y + h - unit, w: side.w, h: unit }, C.panelEdge);
        y += h;
      };
      row(
        "Distance",
        results.map((r) => (r.distanceKm !== null ? formatKm(r.distanceKm * count) : "—")),
        true,
      );
      row(
        "Reward (geoeval)",
        results.map((r) => (r.reward !== null ? formatReward(r.reward * count) : "—")),
        true,
      );
      row(
        "Env reward",
        results.map((r) => (r.envReward !== null ? formatReward(r.envReward * count) : "—")),
        false,
      );
      row(
        "Turns",
        results.map((r, i) => String(r.turns) + (sides[i].timeline.outcome?.forcedGuess ? " (forced)" : "")),
        false,
      );
      const nf = font("sans", 11.5 * unit);
      y += 4 * unit;
      for (const l of d.tx.wrap(
        "Reward (geoeval): recomputed from distance and action cost, as geoeval report scores. Env reward: the environment's stored outcome.reward, as recorded.",
        nf,
        side.w,
        3,
      )) {
        d.text(l, side.x, y + lineBox(nf.size) / 2, nf, C.faint);
        y += lineBox(nf.size);
      }
      // Who is who, at the bottom.
      const ff = font("mono", 11.5 * unit);
      const lh = 11.5 * unit * 1.5;
      const foot: [string, string][] = sides.map((s, i) => [
        SIDE_COLOURS[i],
        `${s.label.split(" · ")[0]}: ${s.arm} · attempt ${s.pass ?? "—"} · episode ${s.timeline.episode.episodeId}${guesses[i] ? ` · guess ${guesses[i]![0].toFixed(4)}, ${guesses[i]![1].toFixed(4)}` : " · no guess"}`,
      ]);
      if (truth) foot.push([C.truthDot, `truth ${truth[0].toFixed(4)}, ${truth[1].toFixed(4)}`]);
      let fy = side.y + side.h - foot.length * lh;
      for (const [dot, text] of foot) {
        d.text("●", side.x, fy + lh / 2, ff, dot);
        const x = side.x + d.width("● ", ff);
        d.text(text, x, fy + lh / 2, ff, C.faint, { maxWidth: side.x + side.w - x });
        fy += lh;
      }
    });
  });
}
