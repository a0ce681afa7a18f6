/**
 * Rollout: one episode's frame as a scene. Pure: (validated props, frame,
 * text layouter) -> primitives; everything that moves comes from the
 * timeline's per-frame lookups (frame-state.ts) and motion.ts.
 */
import type { RolloutProps } from "./props.ts";
import { outputSize } from "../../../../video/scene/output-size.ts";
import { rolloutLayout } from "../../../../video/scene/layout.ts";
import { creditLine as creditText } from "../scene/lookup.ts";
import { rolloutFrame } from "./state.ts";
import { C } from "../../../../video/scene/theme.ts";
import type { FontSpec } from "../../../../video/text/fonts.ts";
import { Draw, font, identity, rectOf } from "../../../../video/scene/draw.ts";
import type { TextLayouter } from "../../../../video/text/layouter.ts";
import type { Box, Scene } from "../../../../video/scene/types.ts";
import { hudPanel } from "../parts/hud.ts";
import { tracePane } from "../../../../video/parts/trace-pane.ts";
import { scoreCard } from "./score-card.ts";
import { banner, creditLine, OVERWRITTEN_NOTE, overwrittenNote, sourceBanner, unverifiedLabel } from "../../../../video/parts/overlays.ts";
import { SLIDESHOW_PROVENANCE, slideshowPill } from "../../../../video/slideshow/labels.ts";
import { viewportImages, mapPanel } from "../parts/viewport.ts";

export function rolloutScene(t: RolloutProps, frame: number, tx: TextLayouter): Scene {
  const { width, height } = outputSize(t);
  const d = new Draw(tx);
  const L = rolloutLayout(width, height, t.viewport);
  const u = L.unit;
  const f = rolloutFrame(t, frame);
  const { segment, offset } = f.pos;

  if (f.kind === "score") {
    scoreCard(d, t, offset, width, height, u);
    sourceBanner(d, t.episode, width, u);
    return { width, height, background: C.bg, prims: d.prims };
  }

  const head = rectOf(L.header);
  d.memo(["header", identity(t), head, segment.turn, u], () => header(d, t, head, segment.turn, u));
  const box = rectOf(L.viewportBox);
  d.group({ clip: { ...box, r: 8 * u } }, () => {
    d.rect(box, C.panel);
    viewportImages(d, t.framesDir, f.view, rectOf(L.viewport));
    if (f.showMap) mapPanel(d, segment.pins, box, offset, u);
    if (t.episode.imagesOverwritten) overwrittenNote(d, box, u);
  });
  if (f.panoramaVisible) creditLine(d, creditText(t), rectOf(L.credit), u);
  const hud = rectOf(L.hud);
  d.memo(["hud", f.hud, hud, u], () => hudPanel(d, f.hud, hud, u));
  const trace = rectOf(L.trace);
  if (f.trace === null) d.memo(["intro", identity(t), trace, u], () => intro(d, t, trace, u));
  else {
    const noReply = t.episode.recordFormat === "train" ? "training traces keep no model reply, only the parsed tool call" : undefined;
    tracePane(d, t.trace, segment.turn, trace, f.trace.progress, f.trace.offset, u, noReply);
  }
  if (t.episode.source === "replay" && !t.episode.verified)
    banner(d, unverifiedLabel(t.episode), C.unverified, width / 2, 0, u, { size: 15, padX: 18, padY: 5, spacing: 2, anchor: "center" });
  return { width, height, background: C.bg, prims: d.prims };
}

function header(d: Draw, t: RolloutProps, b: Box, turn: number, u: number): void {
  const mid = b.y + b.h / 2;
  const gap = 12 * u;
  const lastTurn = t.trace.reduce((m, e) => Math.max(m, e.turn), 0);
  // Right to left: the turn counter (its widest text reserved, so nothing shifts), the slideshow pill.
  const tf = font("sans", 15 * u);
  const widest = d.width(`Turn ${lastTurn} of ${lastTurn}`, tf);
  d.text(turn > 0 ? `Turn ${turn} of ${lastTurn}` : "Start", b.x + b.w, mid, tf, C.dim, { align: "right" });
  let right = b.x + b.w - widest - gap;
  if (t.episode.source === "slideshow") right = slideshowPill(d, right, mid, u) - gap;
  // Left to right: the name, the model, the episode.
  let x = b.x;
  const nf = font("sans", 18 * u, 800);
  d.text("georeplay", x, mid, nf, C.accent);
  x += d.width("georeplay", nf) + gap;
  const mf = font("sans", 16 * u, 600);
  const model = d.text(t.episode.modelName, x, mid, mf, C.text, { maxWidth: Math.min(360 * u, right - x) });
  x += d.width(model, mf) + gap;
  const ef = font("mono", 12 * u);
  if (right - x > 20 * u) d.text(`${t.episode.split} #${t.episode.index} · ${t.episode.episodeId}`, x, mid, ef, C.faint, { maxWidth: right - x });
}

function intro(d: Draw, t: RolloutProps, b: Box, u: number): void {
  const pad = 14 * u;
  const w = b.w - 2 * pad;
  const title = font("sans", 20 * u, 800);
  const body = font("sans", 15 * u);
  const small = font("sans", 12.5 * u);
  const steps = t.segments[0]?.hud[0]?.stepsRemaining ?? "a few";
  const para = d.tx.wrap(`${t.episode.modelName} sees this view and has ${steps} actions to look around, walk, drop pins and guess.`, body, w, 6);
  const prov = d.tx.wrap(provenance(t.episode), small, w, 4);
  const note = t.episode.imagesOverwritten ? d.tx.wrap(`${OVERWRITTEN_NOTE}.`, small, w, 3) : [];
  const lh = (f: { size: number }) => f.size * 1.5;
  const h = 2 * pad + lh(title) + 6 * u + para.length * lh(body) + 6 * u + prov.length * lh(small) + (note.length ? 6 * u + note.length * lh(small) : 0);
  d.rect({ x: b.x, y: b.y, w: b.w, h }, C.panel, 8 * u);
  let y = b.y + pad;
  d.text("Where is this?", b.x + pad, y + lh(title) / 2, title, C.text, { maxWidth: w });
  y += lh(title) + 6 * u;
  const lines = (ls: string[], f: FontSpec, colour: string) => {
    for (const l of ls) {
      d.text(l, b.x + pad, y + lh(f) / 2, f, colour);
      y += lh(f);
    }
  };
  lines(para, body, C.dim);
  y += 6 * u;
  lines(prov, small, C.faint);
  if (note.length) y += 6 * u;
  lines(note, small, C.accent);
}

/** What the viewer is looking at: the one sentence that keeps a slideshow from passing for a replay. */
export function provenance(e: RolloutProps["episode"]): string {
  if (e.source === "slideshow") return SLIDESHOW_PROVENANCE;
  return e.verified
    ? "Every view below was re-rendered from the recorded camera and matched the recorded hash."
    : "Not every view could be re-rendered to its recorded hash.";
}
