/**
 * A crops GRPO group's frame as a scene (pure): the siblings in GeoGuesser's group grid
 * (video/group/grid.ts: six is 2x3) on one clock (group-clock.ts), each tile its view with its
 * boxes, its score and advantage and its turn; then a score card ranking them, every sibling's
 * final boxes on the one image with the ground truth.
 */
import { groupLayout } from "../../../video/parts/group-grid.ts";
import { C, siblingColour } from "../../../video/scene/theme.ts";
import { Draw, font, identity, lineBox, rectOf } from "../../../video/scene/draw.ts";
import { ramp } from "../../../video/scene/motion.ts";
import type { TextLayouter } from "../../../video/text/layouter.ts";
import type { Box, Scene } from "../../../video/scene/types.ts";
import { banner } from "../../../video/parts/overlays.ts";
import { printable } from "../../../video/text/lines.ts";
import type { CropsGroupProps, CropsSibling } from "./group-props.ts";
import { cropsGroupClock, sharedTurnAt, siblingFrame } from "./group-clock.ts";
import { boxesAt, turnAt } from "./state.ts";
import { boxOverlay, filePath } from "./scene.ts";
import { cardBoxes, cardMotion, fitImage } from "./score-card.ts";
import { VERDICT } from "./colours.ts";

const signed = (n: number, digits = 2) => `${n > 0 ? "+" : n < 0 ? "−" : "±"}${Math.abs(n).toFixed(digits)}`;

export function cropsGroupScene(p: CropsGroupProps, frame: number, tx: TextLayouter): Scene {
  const { width, height } = p.output;
  const d = new Draw(tx);
  const c = cropsGroupClock(p);
  const first = p.siblings[0].props.timeline;
  const L = groupLayout(width, height, p.siblings.length, first.viewport);
  const u = L.unit;
  if (frame >= c.gridFrames) groupCard(d, p, frame - c.gridFrames, width, height, u);
  else {
    const k = sharedTurnAt(c, frame);
    const head = rectOf(L.header);
    d.memo(["crops-group-header", identity(p), k, head, u], () => header(d, p, head, k, u));
    p.siblings.forEach((s, i) => tile(d, p, s, i, frame, L.tiles[i]));
    const g = p.group;
    const credit = rectOf(L.credit);
    const f = font("sans", 11 * u);
    d.text(
      `advantage ${g.scaleRewards === "none" ? "r − mean (as recorded)" : `(r − mean) / (${g.scaleRewards} std + 1e-4)`} · mean ${g.mean.toFixed(4)} · std ${g.std === null ? "—" : g.std.toFixed(4)}${g.zeroStd ? " · zero spread: no learning signal" : ""} · tiles by rank`,
      credit.x,
      credit.y + credit.h / 2,
      f,
      C.dim,
      { maxWidth: credit.w },
    );
  }
  const drifted = p.siblings.filter((s) => !s.props.timeline.episode.verified).map((s) => `#${s.sibling}`);
  if (drifted.length)
    banner(d, `UNVERIFIED REPLAY · SIBLING ${drifted.join(", ")}`, C.unverified, width / 2, 0, u, {
      size: 15,
      padX: 18,
      padY: 5,
      spacing: 2,
      anchor: "center",
    });
  return { width, height, background: C.bg, prims: d.prims };
}

function header(d: Draw, p: CropsGroupProps, b: Box, k: number, u: number): void {
  const mid = b.y + b.h / 2;
  const g = p.group;
  const nf = font("sans", 16 * u, 800);
  d.text("georeplay", b.x, mid, nf, C.accent);
  let x = b.x + d.width("georeplay", nf) + 10 * u;
  const tf = font("sans", 14 * u, 600);
  const title = `GRPO group ${g.step}/${printable(g.split)}/${g.index} · ${p.siblings.length} siblings · ${printable(p.siblings[0].props.timeline.image.id)}`;
  const right = font("sans", 14 * u);
  const turn = k === 0 ? "Start" : `Turn ${k}`;
  const rw = d.width(turn, right);
  const shown = d.text(title, x, mid, tf, C.text, { maxWidth: b.w - (x - b.x) - rw - 20 * u });
  x += d.width(shown, tf);
  d.text(turn, b.x + b.w, mid, right, C.dim, { align: "right" });
}

function tile(d: Draw, p: CropsGroupProps, s: CropsSibling, rank: number, frame: number, T: ReturnType<typeof groupLayout>["tiles"][number]): void {
  const t = s.props.timeline;
  const c = cropsGroupClock(p);
  const at = siblingFrame(c, t, frame);
  const u = T.unit;
  const colour = siblingColour(s.sibling);
  // Caption: rank, sibling, score and advantage.
  const cap = rectOf(T.caption);
  d.memo(["crops-tile-caption", identity(s), rank, cap, u], () => {
    const bf = font("sans", 13 * u, 800);
    const pill = d.pill(`#${rank + 1}`, cap.x, cap.y + (cap.h - lineBox(bf.size) - 4 * u) / 2, bf, {
      fill: colour,
      color: C.bg,
      padX: 6 * u,
      padY: 2 * u,
      r: 4 * u,
    });
    const f = font("sans", 13.5 * u, 600);
    const text = `sibling ${s.sibling} · score ${s.reward.toFixed(3)} · adv ${signed(s.advantage)}`;
    d.text(text, pill.x + pill.w + 8 * u, cap.y + cap.h / 2, f, s.advantage > 0 ? C.ok : s.advantage < 0 ? C.fail : C.text, {
      maxWidth: cap.w - pill.w - 8 * u,
    });
  });
  const box = rectOf(T.viewportBox);
  const vp = rectOf(T.viewport);
  const f = t.frames[at.frame];
  d.group({ clip: { ...box, r: 6 * u } }, () => {
    d.rect(box, C.panel);
    d.prims.push({ t: "image", src: filePath(s.props.dir, f.file), ...vp });
    d.group({ clip: vp }, () => {
      for (const o of boxesAt(t, at.frame)) boxOverlay(d, o, f.camera, vp, u, { tag: false, lw: 2 });
    });
    d.rect({ x: box.x, y: box.y, w: box.w, h: box.h }, undefined, 6 * u, { color: colour, width: 2 * u });
    if (at.done) {
      const df = font("sans", 12 * u, 700);
      d.pill(`DONE · ${t.turns.length - 1} turns`, box.x + box.w - 6 * u, box.y + 6 * u, df, {
        fill: "rgba(14,17,22,0.85)",
        color: C.text,
        padX: 6 * u,
        padY: 2 * u,
        r: 4 * u,
        anchor: "right",
      });
    }
  });
  // HUD: the turn's action, boxes and running shaping sum.
  const k = turnAt(t, at.frame).index;
  const h = s.props.hud[k];
  const hud = rectOf(T.hud);
  d.memo(["crops-tile-hud", identity(s), k, hud, u, T.beside], () => {
    const lf = font("sans", 10.5 * u);
    const vf = font("mono", 14 * u);
    const rows: [string, string, string][] = [
      ["turn", h.turn === 0 ? "start" : `${h.turn} / ${s.props.maxTurns}`, C.text],
      ["action", h.turn === 0 ? "reset" : h.action === null ? "none parsed" : printable(h.action), h.failed ? C.fail : C.accent],
      ["boxes", String(h.boxes), C.text],
      ["shaping Σ", signed(h.shapingSum, 3), h.shapingSum > 0 ? C.ok : h.shapingSum < 0 ? C.fail : C.text],
    ];
    const rowH = lineBox(lf.size) + lineBox(vf.size) + 6 * u;
    if (T.beside) {
      rows.forEach(([label, value, col], i) => {
        const y = hud.y + i * rowH;
        if (y + rowH > hud.y + hud.h) return;
        d.text(label.toUpperCase(), hud.x, y + lineBox(lf.size) / 2, lf, C.dim, { maxWidth: hud.w });
        d.text(value, hud.x, y + lineBox(lf.size) + lineBox(vf.size) / 2, vf, col, { maxWidth: hud.w });
      });
    } else {
      const w = hud.w / rows.length;
      rows.forEach(([label, value, col], i) => {
        d.text(label.toUpperCase(), hud.x + i * w, hud.y + lineBox(lf.size) / 2, lf, C.dim, { maxWidth: w - 4 * u });
        d.text(value, hud.x + i * w, hud.y + lineBox(lf.size) + lineBox(vf.size) / 2, vf, col, { maxWidth: w - 4 * u });
      });
    }
  });
}

/** The group's score card: every sibling's final boxes on the image, and the ranking. */
function groupCard(d: Draw, p: CropsGroupProps, offset: number, width: number, height: number, u: number): void {
  const m = cardMotion(offset);
  const pad = 16 * u;
  const top = 56 * u;
  d.group({ alpha: m.fade }, () => {
    const g = p.group;
    const tf = font("sans", 18 * u, 800);
    d.text("Group score card", pad, 28 * u, tf, C.accent);
    d.text(
      `GRPO group ${g.step}/${printable(g.split)}/${g.index} · ${p.siblings.length} siblings · ${printable(p.siblings[0].props.timeline.image.id)}`,
      pad + d.width("Group score card", tf) + 12 * u,
      28 * u,
      font("sans", 14 * u),
      C.dim,
      { maxWidth: width - 260 * u },
    );
    const side = Math.round(height - top - pad);
    const pane = { x: pad, y: top, w: side, h: side };
    d.rect(pane, C.panel, 8 * u);
    const first = p.siblings[0].props;
    const img = fitImage(first.timeline.image.width, first.timeline.image.height, pane);
    d.prims.push({ t: "image", src: filePath(first.dir, first.card.image), ...img });
    // The ground truth once (dashed), then each sibling's final boxes in its colour, the lowest rank first so the best is on top.
    cardBoxes(d, { ...first.card, boxes: [], matches: [], misses: [], falseAlarms: [] }, first.timeline.image.width, img, m, u, { tags: false });
    [...p.siblings].reverse().forEach((s) => {
      const c = s.props.card;
      cardBoxes(d, { ...c, gt: [], matches: [], misses: [], falseAlarms: [] }, first.timeline.image.width, img, m, u, {
        tags: false,
        colour: siblingColour(s.sibling),
      });
    });
    const px = pad + side + pad;
    ranking(d, p, { x: px, y: top, w: width - px - pad, h: side }, ramp(offset, [14, 24]), u);
  });
}

function ranking(d: Draw, p: CropsGroupProps, b: Box, appear: number, u: number): void {
  d.rect(b, C.panel, 8 * u);
  const pad = 16 * u;
  const x = b.x + pad;
  const w = b.w - 2 * pad;
  let y = b.y + pad;
  const g = p.group;
  const lf = font("sans", 12 * u, 600);
  d.text("RANKED BY ADVANTAGE", x, y + lineBox(lf.size) / 2, lf, C.dim, { spacing: 1 * u });
  y += lineBox(lf.size) + 6 * u;
  const sf = font("sans", 13.5 * u);
  const adv = g.scaleRewards === "none" ? "advantage = score − mean" : `advantage = (score − mean) / (${g.scaleRewards} std + 1e-4)`;
  d.text(`mean ${g.mean.toFixed(4)} · std ${g.std === null ? "—" : g.std.toFixed(4)} · ${adv}`, x, y + lineBox(sf.size) / 2, sf, C.dim, { maxWidth: w });
  y += lineBox(sf.size) + 4 * u;
  if (g.zeroStd) {
    d.text("zero spread: every score equal, no learning signal", x, y + lineBox(sf.size) / 2, sf, VERDICT.missed, { maxWidth: w });
    y += lineBox(sf.size) + 4 * u;
  }
  y += 8 * u;
  const rowH = Math.min(62 * u, (b.y + b.h - pad - y) / p.siblings.length);
  const big = font("sans", 16 * u, 700);
  const small = font("sans", 12.5 * u);
  const mono = font("mono", 15 * u, 700);
  d.group({ alpha: appear }, () => {
    p.siblings.forEach((s, i) => {
      const ry = y + i * rowH;
      const colour = siblingColour(s.sibling);
      d.rect({ x, y: ry, w, h: rowH - 6 * u }, C.bg, 6 * u);
      d.rect({ x, y: ry, w: 5 * u, h: rowH - 6 * u }, colour, [6 * u, 0, 0, 6 * u]);
      const mid = ry + (rowH - 6 * u) / 2;
      d.text(`#${i + 1}`, x + 14 * u, mid, big, colour);
      d.text(`sibling ${s.sibling}`, x + 56 * u, mid - lineBox(small.size) / 2, font("sans", 14 * u, 600), C.text);
      const c = s.props.card;
      d.text(
        `${c.matches.length} matched · ${c.misses.length} missed · ${c.falseAlarms.length} false alarm${c.falseAlarms.length === 1 ? "" : "s"} · ${s.props.timeline.turns.length - 1} turns`,
        x + 56 * u,
        mid + lineBox(small.size) / 2 + 2 * u,
        small,
        C.dim,
        { maxWidth: w - 56 * u - 200 * u },
      );
      d.text(s.reward.toFixed(4), x + w - 100 * u, mid, mono, C.text, { align: "right" });
      d.text(signed(s.advantage, 3), x + w - 10 * u, mid, mono, s.advantage > 0 ? C.ok : s.advantage < 0 ? C.fail : C.text, { align: "right" });
    });
  });
}
