/**
 * A crops episode's frame as a scene (pure: props, frame, text layouter -> primitives). The
 * image pane shows the frame file the timeline names (the recorded view at a hold, byte for
 * byte; the gym's renderer in between), with the model's boxes drawn over it in their labels'
 * colours; beside it the HUD (the recorded thumbnail, turn, action, boxes, turns left, the
 * running shaping sum) and the trace pane GeoGuesser's videos use. The last seconds are the
 * score card.
 */
import { rolloutLayout } from "../../../video/scene/layout.ts";
import { C } from "../../../video/scene/theme.ts";
import { Draw, font, identity, lineBox, rectOf } from "../../../video/scene/draw.ts";
import type { TextLayouter } from "../../../video/text/layouter.ts";
import type { Box, Scene } from "../../../video/scene/types.ts";
import { tracePane } from "../../../video/parts/trace-pane.ts";
import { banner, unverifiedLabel } from "../../../video/parts/overlays.ts";
import { printable } from "../../../video/text/lines.ts";
import type { CropsHud, CropsVideoProps } from "./props.ts";
import { boxesAt, turnAt, type BoxOverlay } from "./state.ts";
import { labelColour } from "./colours.ts";
import { cropsScoreCard } from "./score-card.ts";

type Rect = [number, number, number, number];

export const filePath = (dir: string, file: string): string => (dir ? `${dir}/${file}` : file);

export function cropsScene(p: CropsVideoProps, frame: number, tx: TextLayouter): Scene {
  const { width, height } = p.output;
  const d = new Draw(tx);
  const t = p.timeline;
  const L = rolloutLayout(width, height, t.viewport);
  const u = L.unit;
  if (frame >= t.totalFrames) {
    cropsScoreCard(d, p, frame - t.totalFrames, width, height, u);
  } else {
    const at = turnAt(t, frame);
    const f = t.frames[frame];
    const head = rectOf(L.header);
    d.memo(["crops-header", identity(p), head, at.turn.turn, u], () => header(d, p, head, at.turn.turn, u));
    const box = rectOf(L.viewportBox);
    const vp = rectOf(L.viewport);
    d.group({ clip: { ...box, r: 8 * u } }, () => {
      d.rect(box, C.panel);
      d.prims.push({ t: "image", src: filePath(p.dir, f.file), ...vp });
      d.group({ clip: vp }, () => {
        for (const o of boxesAt(t, frame)) boxOverlay(d, o, f.camera, vp, u);
      });
    });
    viewCaption(d, p, f.camera, rectOf(L.credit), u);
    const hud = rectOf(L.hud);
    // The thumbnail and numbers of the last recorded view reached: during a move, the view the model acted on.
    const shown = f.keyframe !== null ? at.index : Math.max(0, at.index - 1);
    d.memo(["crops-hud", identity(p), at.index, shown, hud, u], () => hudPanel(d, p, p.hud[at.index], p.thumbs[shown], hud, u));
    const trace = rectOf(L.trace);
    if (at.turn.turn === 0) d.memo(["crops-intro", identity(p), trace, u], () => intro(d, p, trace, u));
    else tracePane(d, p.trace, at.turn.turn, trace, at.progress, at.offset, u);
  }
  if (!t.episode.verified) {
    const label = unverifiedLabel({ driftedTurns: t.episode.drifted });
    banner(d, label, C.unverified, width / 2, 0, u, { size: 15, padX: 18, padY: 5, spacing: 2, anchor: "center" });
  }
  return { width, height, background: C.bg, prims: d.prims };
}

/** Image pixels to the pane's pixels, for a camera rectangle shown in `vp`. */
export function toPane(cam: readonly number[], vp: Box): (b: readonly number[]) => Rect {
  const sx = vp.w / (cam[2] - cam[0]);
  const sy = vp.h / (cam[3] - cam[1]);
  return (b) => [vp.x + (b[0] - cam[0]) * sx, vp.y + (b[1] - cam[1]) * sy, vp.x + (b[2] - cam[0]) * sx, vp.y + (b[3] - cam[1]) * sy];
}

/** The outline traced clockwise from its top-left corner, `drawn` (0..1) of the way round. */
function outline([x0, y0, x1, y1]: Rect, drawn: number): { pts: number[]; closed: boolean } {
  if (drawn >= 1) return { pts: [x0, y0, x1, y0, x1, y1, x0, y1], closed: true };
  const corners = [x0, y0, x1, y0, x1, y1, x0, y1, x0, y0];
  const total = 2 * (x1 - x0 + (y1 - y0));
  let left = total * drawn;
  const pts = [x0, y0];
  for (let i = 2; i < corners.length && left > 0; i += 2) {
    const [ax, ay, bx, by] = [corners[i - 2], corners[i - 1], corners[i], corners[i + 1]];
    const len = Math.abs(bx - ax) + Math.abs(by - ay);
    const k = Math.min(1, left / Math.max(1e-9, len));
    pts.push(ax + (bx - ax) * k, ay + (by - ay) * k);
    left -= len;
  }
  return { pts, closed: false };
}

/** A box over the view: a dark under-stroke for contrast, the label's colour, its tag; an adjust's flash; a removal's strike. */
export function boxOverlay(d: Draw, o: BoxOverlay, cam: readonly number[], vp: Box, u: number, o2: { tag?: boolean; lw?: number } = {}): void {
  const r = toPane(cam, vp)(o.box);
  const colour = labelColour(o.label);
  const lw = (o2.lw ?? 2.5) * u;
  d.group({ alpha: o.alpha }, () => {
    const path = outline(r, o.drawn);
    if (path.pts.length >= 4) {
      d.prims.push({ t: "poly", ...path, stroke: "rgba(0,0,0,0.55)", lw: lw + 2 * u });
      d.prims.push({ t: "poly", ...path, stroke: colour, lw });
    }
    if (o.flash > 0)
      d.group({ alpha: o.flash }, () => d.prims.push({ t: "poly", pts: outline(r, 1).pts, closed: true, stroke: C.white, lw: lw + 4 * u * o.flash }));
    if (o.struck !== null && o.struck > 0) {
      const [x0, y0, x1, y1] = r;
      const k = o.struck;
      d.prims.push({ t: "poly", pts: [x0, y0, x0 + (x1 - x0) * k, y0 + (y1 - y0) * k], closed: false, stroke: C.fail, lw: 3 * u, cap: "round" });
      d.prims.push({ t: "poly", pts: [x1, y0, x1 - (x1 - x0) * k, y0 + (y1 - y0) * k], closed: false, stroke: C.fail, lw: 3 * u, cap: "round" });
    }
    if (o2.tag !== false && o.drawn >= 1) {
      const f = font("sans", 12 * u, 700);
      const text = `#${o.id} ${printable(o.label)}${o.struck !== null ? " · removed" : ""}`;
      const shown = d.tx.fit(text, f, Math.max(40 * u, vp.w * 0.45));
      const h = lineBox(f.size) + 4 * u;
      // Above the box, or inside its top edge when the box touches the pane's top.
      const y = r[1] - h >= vp.y ? r[1] - h : r[1];
      d.pill(shown, Math.max(vp.x, r[0] - lw / 2), y, f, { fill: o.struck !== null ? C.fail : colour, color: C.bg, padX: 5 * u, padY: 2 * u, r: 3 * u });
    }
  });
}

const fmt = (n: number, digits: number) => (Math.abs(n) < 10 ** -digits / 2 ? (0).toFixed(digits) : n.toFixed(digits));
const signed = (n: number, digits = 3) => `${n > 0 ? "+" : n < 0 ? "−" : ""}${fmt(Math.abs(n), digits)}`;

/** Under the pane: the camera rectangle in image pixels and the zoom it is at. */
function viewCaption(d: Draw, p: CropsVideoProps, cam: readonly number[], b: Box, u: number): void {
  const zoom = p.timeline.image.width / (cam[2] - cam[0]);
  const f = font("mono", 12 * u);
  const text = `view [${cam.map((v) => v.toFixed(0)).join(", ")}] of ${p.timeline.image.width}x${p.timeline.image.height} · ${zoom.toFixed(2)}x`;
  d.text(text, b.x, b.y + lineBox(f.size) / 2, f, C.dim, { maxWidth: b.w });
}

function header(d: Draw, p: CropsVideoProps, b: Box, turn: number, u: number): void {
  const mid = b.y + b.h / 2;
  const gap = 12 * u;
  const last = p.timeline.turns.at(-1)!.turn;
  const tf = font("sans", 15 * u);
  const widest = d.width(`Turn ${last} of ${last}`, tf);
  d.text(turn > 0 ? `Turn ${turn} of ${last}` : "Start", b.x + b.w, mid, tf, C.dim, { align: "right" });
  const right = b.x + b.w - widest - gap;
  let x = b.x;
  const nf = font("sans", 18 * u, 800);
  d.text("georeplay", x, mid, nf, C.accent);
  x += d.width("georeplay", nf) + gap;
  const mf = font("sans", 16 * u, 600);
  const e = p.timeline.episode;
  const model = d.text(printable(e.modelName ?? "unknown model"), x, mid, mf, C.text, { maxWidth: Math.min(360 * u, right - x) });
  x += d.width(model, mf) + gap;
  const ef = font("mono", 12 * u);
  if (right - x > 20 * u)
    d.text(`crops · ${printable(e.split)} #${e.index} · ${printable(e.episodeId)} · ${printable(p.timeline.image.id)}`, x, mid, ef, C.faint, {
      maxWidth: right - x,
    });
}

/** One stat: label over value. */
function stat(d: Draw, b: Box, label: string, value: string, colour: string, u: number): void {
  d.rect(b, C.panel, 6 * u);
  const lf = font("sans", 10.5 * u);
  const vf = font("mono", 18 * u);
  const inner = b.w - 16 * u;
  d.text(label.toUpperCase(), b.x + 8 * u, b.y + 6 * u + lineBox(lf.size) / 2, lf, C.dim, { maxWidth: inner, spacing: 0.1 * u });
  d.text(value, b.x + 8 * u, b.y + 6 * u + lineBox(lf.size) + lineBox(vf.size) / 2, vf, colour, { maxWidth: inner });
}

/** The HUD: the thumbnail the model got (its view outlined in yellow), then the turn's numbers. */
export function hudPanel(d: Draw, p: CropsVideoProps, h: CropsHud, thumb: string, b: Box, u: number): void {
  const [tw, th] = p.thumbSize;
  const side = b.h;
  const k = Math.min(side / tw, side / th);
  const tb = { x: b.x + (side - tw * k) / 2, y: b.y + (side - th * k) / 2, w: tw * k, h: th * k };
  d.rect({ x: b.x, y: b.y, w: side, h: side }, C.panel, 6 * u);
  d.prims.push({ t: "image", src: filePath(p.dir, thumb), ...tb });
  const gap = 6 * u;
  const x = b.x + side + gap;
  const w = b.w - side - gap;
  const rowH = (b.h - gap) / 2;
  const top: [string, string, string][] = [
    ["Turn", h.turn === 0 ? "start" : `${h.turn} / ${p.maxTurns}`, C.text],
    ["Boxes", String(h.boxes), C.text],
    ["Turns left", String(h.turnsLeft), C.text],
    ["Shaping Σ", signed(h.shapingSum), h.shapingSum > 0 ? C.ok : h.shapingSum < 0 ? C.fail : C.text],
  ];
  const cw = (w - gap * (top.length - 1)) / top.length;
  top.forEach(([label, value, colour], i) => stat(d, { x: x + i * (cw + gap), y: b.y, w: cw, h: rowH }, label, value, colour, u));
  const action = h.action === null ? "no action parsed" : printable(h.action);
  const status = h.failed ? ` · ${printable(h.status.split(":")[0].replace(/_/g, " "))}` : "";
  const hint = h.shaping === null ? "" : ` · hint ${signed(h.shaping)}`;
  stat(d, { x, y: b.y + rowH + gap, w, h: rowH }, "Action", `${h.turn === 0 ? "reset" : action}${status}${hint}`, h.failed ? C.fail : C.accent, u);
}

function intro(d: Draw, p: CropsVideoProps, b: Box, u: number): void {
  const pad = 14 * u;
  const w = b.w - 2 * pad;
  const title = font("sans", 20 * u, 800);
  const body = font("sans", 15 * u);
  const small = font("sans", 12.5 * u);
  const model = printable(p.timeline.episode.modelName ?? "The model");
  const para = d.tx.wrap(
    `${model} sees the whole image and has ${p.maxTurns} turns to zoom in, box each object it finds and name it in its own words. The ground truth is never shown to it.`,
    body,
    w,
    6,
  );
  const prov = d.tx.wrap(
    p.timeline.episode.verified
      ? "Every recorded view and thumbnail below was re-rendered from the recorded rectangle and boxes and matched its recorded sha256."
      : "Not every view could be re-rendered to its recorded sha256.",
    small,
    w,
    4,
  );
  const lh = (f: { size: number }) => f.size * 1.5;
  const h = 2 * pad + lh(title) + 6 * u + para.length * lh(body) + 6 * u + prov.length * lh(small);
  d.rect({ x: b.x, y: b.y, w: b.w, h }, C.panel, 8 * u);
  let y = b.y + pad;
  d.text("What is in this image?", b.x + pad, y + lh(title) / 2, title, C.text, { maxWidth: w });
  y += lh(title) + 6 * u;
  for (const l of para) {
    d.text(l, b.x + pad, y + lh(body) / 2, body, C.dim);
    y += lh(body);
  }
  y += 6 * u;
  for (const l of prov) {
    d.text(l, b.x + pad, y + lh(small) / 2, small, C.faint);
    y += lh(small);
  }
}
