/**
 * The crops score card (the video's last seconds): the whole image with every ground-truth box
 * (dashed) and every final box (solid, its label's colour); a match is drawn as a pair joined
 * by a line and tagged with its GIoU and credit, a miss and a false alarm in their own colours
 * and words, a wrong label marked. Beside it the score and its parts, as the gym computes them,
 * and the counts.
 */
import { C } from "../../../video/scene/theme.ts";
import { Draw, font, lineBox } from "../../../video/scene/draw.ts";
import { ramp } from "../../../video/scene/motion.ts";
import type { Box } from "../../../video/scene/types.ts";
import { printable } from "../../../video/text/lines.ts";
import type { CropsCard, CropsVideoProps } from "./props.ts";
import { labelColour, VERDICT } from "./colours.ts";

type Rect = [number, number, number, number];

const dir = (p: CropsVideoProps, file: string) => (p.dir ? `${p.dir}/${file}` : file);
const n4 = (v: number | null) => (v === null ? "—" : v.toFixed(4));
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export interface CardMotion {
  fade: number;
  boxes: number;
  verdicts: number;
}

/** Settled 24 frames in: the card then holds still (its frames repeat in the encoder). */
export function cardMotion(offset: number): CardMotion {
  return { fade: ramp(offset, [0, 8]), boxes: ramp(offset, [6, 14]), verdicts: ramp(offset, [14, 24]) };
}

/** Where the whole image goes inside `b` (its aspect kept, centred). */
export function fitImage(iw: number, ih: number, b: Box): Box {
  const k = Math.min(b.w / iw, b.h / ih);
  return { x: b.x + (b.w - iw * k) / 2, y: b.y + (b.h - ih * k) / 2, w: iw * k, h: ih * k };
}

export function cropsScoreCard(d: Draw, p: CropsVideoProps, offset: number, width: number, height: number, u: number): void {
  const m = cardMotion(offset);
  const pad = 16 * u;
  const top = 56 * u;
  d.group({ alpha: m.fade }, () => {
    const e = p.timeline.episode;
    const tf = font("sans", 18 * u, 800);
    d.text("Score card", pad, 28 * u, tf, C.accent);
    const sub = `${printable(e.modelName ?? "unknown model")} · crops ${printable(e.split)} #${e.index} · ${printable(e.episodeId)} · ${printable(p.timeline.image.id)}`;
    d.text(sub, pad + d.width("Score card", tf) + 12 * u, 28 * u, font("sans", 14 * u), C.dim, { maxWidth: width - 200 * u });
    const side = Math.round(height - top - pad);
    const pane = { x: pad, y: top, w: side, h: side };
    d.rect(pane, C.panel, 8 * u);
    const img = fitImage(p.timeline.image.width, p.timeline.image.height, pane);
    d.prims.push({ t: "image", src: dir(p, p.card.image), ...img });
    cardBoxes(d, p.card, p.timeline.image.width, img, m, u);
    const px = pad + side + pad;
    scorePanel(d, p.card, { x: px, y: top, w: width - px - pad, h: side }, m, u);
  });
}

/** Every ground-truth and final box on the image, with the verdict tags. */
export function cardBoxes(d: Draw, c: CropsCard, iw: number, img: Box, m: CardMotion, u: number, o: { tags?: boolean; colour?: string } = {}): void {
  const k = img.w / iw;
  const at = (b: readonly number[]): Rect => [img.x + b[0] * k, img.y + b[1] * k, img.x + b[2] * k, img.y + b[3] * k];
  const gt = new Map(c.gt.map((g) => [g.id, g]));
  const pred = new Map(c.boxes.map((b) => [Number(b.id), b]));
  const missed = new Set(c.misses);
  const falseAlarm = new Set(c.falseAlarms);
  const quad = (r: Rect) => [r[0], r[1], r[2], r[1], r[2], r[3], r[0], r[3]];
  const tag = (text: string, r: Rect, fill: string, below = false) => {
    if (o.tags === false) return;
    const f = font("sans", 12.5 * u, 700);
    const h = lineBox(f.size) + 4 * u;
    const shown = d.tx.fit(text, f, Math.max(60 * u, img.w * 0.6));
    const w = d.width(shown, f) + 10 * u;
    const x = Math.min(Math.max(img.x, r[0]), img.x + img.w - w);
    const y = below ? (r[3] + h <= img.y + img.h ? r[3] : r[3] - h) : r[1] - h >= img.y ? r[1] - h : r[1];
    d.pill(shown, x, y, f, { fill, color: C.bg, padX: 5 * u, padY: 2 * u, r: 3 * u });
  };
  d.group({ alpha: m.boxes }, () => {
    for (const g of c.gt) {
      const r = at(g.box);
      const miss = missed.has(g.id);
      d.prims.push({ t: "poly", pts: quad(r), closed: true, stroke: "rgba(0,0,0,0.6)", lw: 4.5 * u });
      d.prims.push({ t: "poly", pts: quad(r), closed: true, stroke: miss ? VERDICT.missed : VERDICT.truth, lw: (miss ? 3 : 2) * u, dash: [7 * u, 5 * u] });
    }
    for (const b of c.boxes) {
      const r = at(b.box);
      const fa = falseAlarm.has(Number(b.id));
      d.prims.push({ t: "poly", pts: quad(r), closed: true, stroke: "rgba(0,0,0,0.6)", lw: 5 * u });
      d.prims.push({ t: "poly", pts: quad(r), closed: true, stroke: o.colour ?? (fa ? VERDICT.falseAlarm : labelColour(b.label)), lw: (fa ? 3.5 : 2.5) * u });
    }
  });
  d.group({ alpha: m.verdicts }, () => {
    // Misses and false alarms first, the matches' tags last (on top); many objects get short tags.
    const crowded = c.gt.length > 8;
    for (const id of c.misses) {
      const g = gt.get(id);
      if (g) tag(crowded ? `missed ${g.id}` : `missed · ${g.id} ${printable(g.label)}`, at(g.box), VERDICT.missed, true);
    }
    for (const id of c.falseAlarms) {
      const b = pred.get(id);
      if (b) tag(`false alarm · #${id} ${printable(b.label)}`, at(b.box), VERDICT.falseAlarm);
    }
    for (const mt of c.matches) {
      const b = pred.get(mt.pred);
      const g = gt.get(mt.gt);
      if (!b || !g) continue;
      const rb = at(b.box);
      const rg = at(g.box);
      const centre = (r: Rect) => [(r[0] + r[2]) / 2, (r[1] + r[3]) / 2];
      d.prims.push({ t: "poly", pts: [...centre(rb), ...centre(rg)], closed: false, stroke: C.white, lw: 1.5 * u, dash: [3 * u, 3 * u] });
      for (const [x, y] of [centre(rb), centre(rg)]) d.prims.push({ t: "circle", x, y, r: 3 * u, fill: C.white });
      const words = `#${mt.pred} ${printable(b.label)} ↔ ${g.id} · GIoU ${mt.giou.toFixed(2)} · credit ${mt.credit.toFixed(2)}`;
      tag(mt.labelOk ? words : `${words} · wrong label (${printable(g.label)})`, rb, mt.labelOk ? labelColour(b.label) : VERDICT.wrongLabel);
    }
  });
}

function scorePanel(d: Draw, c: CropsCard, b: Box, m: CardMotion, u: number): void {
  d.rect(b, C.panel, 8 * u);
  const pad = 18 * u;
  const x = b.x + pad;
  const w = b.w - 2 * pad;
  let y = b.y + pad;
  const lf = font("sans", 12 * u, 600);
  d.text("SCORE", x, y + lineBox(lf.size) / 2, lf, C.dim, { spacing: 1 * u });
  y += lineBox(lf.size);
  const big = font("sans", 46 * u, 800);
  d.text(c.score.toFixed(4), x, y + lineBox(big.size) / 2, big, C.text);
  const nGt = c.gt.length;
  const nPred = c.boxes.length;
  const nMatched = c.matches.length;
  const counts = `${plural(nGt, "object")} · ${plural(nPred, "box", "boxes")} · ${nMatched} matched · ${c.misses.length} missed · ${plural(c.falseAlarms.length, "false alarm")}`;
  y += lineBox(big.size) + 2 * u;
  const cf = font("sans", 14 * u, 600);
  d.text(counts, x, y + lineBox(cf.size) / 2, cf, C.dim, { maxWidth: w });
  y += lineBox(cf.size) + 14 * u;
  // The parts, each with where it comes from.
  const name = font("sans", 15 * u, 600);
  const val = font("mono", 16 * u, 700);
  const why = font("sans", 13 * u);
  const rows: [string, string, string][] = [
    ["recall term", n4(c.recallTerm), `Σ credit ${c.sumQ.toFixed(4)} / (${plural(nGt, "object")} + ${plural(c.falseAlarms.length, "false alarm")})`],
    ["precision factor", n4(c.precisionFactor), nPred === 0 ? "no boxes: 1" : `${nMatched} matched / ${plural(nPred, "box", "boxes")}`],
    ["score", n4(c.score), "recall term × precision factor"],
    ["mean credit", n4(c.meanCredit), "(GIoU + 1) / 2, over the matches"],
    [
      "label accuracy",
      n4(c.labelAccuracy),
      nMatched === 0 ? "nothing matched" : `${c.matches.filter((x) => x.labelOk).length} of ${nMatched} named right (wrong: credit × 0.5)`,
    ],
  ];
  const nameW = 150 * u;
  const valW = 84 * u;
  for (const [n, v, text] of rows) {
    const mid = y + lineBox(val.size) / 2;
    d.text(n, x, mid, name, C.text);
    d.text(v, x + nameW, mid, val, n === "score" ? C.accent : C.text);
    d.text(text, x + nameW + valW, mid, why, C.dim, { maxWidth: w - nameW - valW });
    y += lineBox(val.size) + 8 * u;
  }
  y += 8 * u;
  d.rect({ x, y, w, h: u }, C.panelEdge);
  y += 12 * u;
  // Box by box: matches, misses, false alarms.
  const line = font("sans", 14 * u);
  const lh = lineBox(line.size) + 6 * u;
  const bottom = b.y + b.h - pad - lineBox(13 * u) - 10 * u;
  const gt = new Map(c.gt.map((g) => [g.id, g]));
  const pred = new Map(c.boxes.map((x) => [Number(x.id), x]));
  const items: [string, string, string][] = [
    ...c.matches.map((mt): [string, string, string] => {
      const bl = printable(pred.get(mt.pred)?.label ?? "?");
      const gl = printable(gt.get(mt.gt)?.label ?? "?");
      return mt.labelOk
        ? [VERDICT.match, "match", `#${mt.pred} "${bl}" ↔ ${mt.gt} ${gl} · GIoU ${mt.giou.toFixed(3)} · credit ${mt.credit.toFixed(3)}`]
        : [VERDICT.wrongLabel, "wrong label", `#${mt.pred} "${bl}" ↔ ${mt.gt} ${gl} · GIoU ${mt.giou.toFixed(3)} · credit ${mt.credit.toFixed(3)} × 0.5`];
    }),
    ...c.misses.map((id): [string, string, string] => [VERDICT.missed, "missed", `${id} ${printable(gt.get(id)?.label ?? "?")}: no box matched it`]),
    ...c.falseAlarms.map((id): [string, string, string] => [
      VERDICT.falseAlarm,
      "false alarm",
      `#${id} "${printable(pred.get(id)?.label ?? "?")}": matched nothing`,
    ]),
  ];
  d.group({ alpha: m.verdicts }, () => {
    const badge = font("sans", 11 * u, 700);
    const badgeW = 92 * u;
    for (const [i, [colour, word, text]] of items.entries()) {
      if (y + lh > bottom) {
        d.text(`… and ${items.length - i} more`, x, y + lh / 2, line, C.faint);
        break;
      }
      const bh = lineBox(badge.size) + 4 * u;
      d.pill(word.toUpperCase(), x, y + (lh - bh) / 2, badge, { fill: colour, color: C.bg, padX: 5 * u, padY: 2 * u, r: 3 * u, spacing: 0.4 * u });
      d.text(text, x + badgeW, y + lh / 2, line, C.text, { maxWidth: w - badgeW });
      y += lh;
    }
  });
  const foot = font("sans", 13 * u);
  const ended = c.endedBy === null ? "" : ` · ended by ${printable(c.endedBy)}${c.turnsUsed === null ? "" : ` after ${plural(c.turnsUsed, "turn")}`}`;
  const legend = `shaping Σ ${c.shapingSum >= 0 ? "+" : "−"}${Math.abs(c.shapingSum).toFixed(3)}${ended} · dashed: ground truth`;
  d.text(legend, x, b.y + b.h - pad - lineBox(foot.size) / 2, foot, C.faint, { maxWidth: w });
}
