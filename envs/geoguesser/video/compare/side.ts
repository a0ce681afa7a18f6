/** One side of a two-up frame: caption, viewport (with its stamps), credit, compact HUD and trace strip. */
import type { CompareClock } from "../../replay/timeline/align.ts";
import type { TraceEntry } from "../../replay/timeline/timeline-schema.ts";
import type { CompareSide } from "./props.ts";
import type { CompareColumn } from "../../../../video/parts/compare-layout.ts";
import { compareSideFrame } from "./state.ts";
import { creditLine as creditText } from "../scene/lookup.ts";
import { traceStripAppear } from "../../../../video/scene/motion.ts";
import { printable } from "../../../../video/text/lines.ts";
import { C, SIDE_COLOURS, SIDE_TEXT, panelAlpha } from "../../../../video/scene/theme.ts";
import { Draw, font, identity, lineBox, rectOf } from "../../../../video/scene/draw.ts";
import type { Box } from "../../../../video/scene/types.ts";
import { compactHud } from "../parts/hud.ts";
import { banner, creditLine, guessedMarker, SLIDESHOW_LABEL, unverifiedLabel } from "../../../../video/parts/overlays.ts";
import { replyText, statusLabel, toolCallText } from "../../../../video/parts/trace-pane.ts";
import { mapPanel, viewportImages } from "../parts/viewport.ts";

export function compareSide(
  d: Draw,
  side: CompareSide,
  index: 0 | 1,
  clock: CompareClock,
  frame: number,
  col: CompareColumn,
  stacked: boolean,
  u: number,
): void {
  const t = side.timeline;
  const { sf, view, hud, showMap, panoramaVisible, turnLabel } = compareSideFrame(clock, t, index, frame);
  const { segment, offset } = sf;
  const entry = segment.kind === "opening" ? null : (t.trace.find((e) => e.turn === segment.turn) ?? null);
  caption(d, side, index, rectOf(col.caption), u);
  const box = rectOf(col.viewportBox);
  d.group({ clip: { ...box, r: 8 * u } }, () => {
    d.rect(box, C.panel);
    viewportImages(d, t.framesDir, view, rectOf(col.viewport));
    if (showMap) mapPanel(d, segment.pins, box, offset, u * 0.8);
    const stamp = { size: 13, padX: 14, padY: 4, spacing: 1.5, anchor: "center" as const };
    if (t.episode.source === "slideshow") banner(d, SLIDESHOW_LABEL, C.slideshow, box.x + box.w / 2, box.y, u, stamp);
    else if (!t.episode.verified) banner(d, unverifiedLabel(t.episode), C.unverified, box.x + box.w / 2, box.y, u, stamp);
    if (sf.finished) guessedMarker(d, t.outcome?.guess != null, SIDE_COLOURS[index], box, u);
  });
  if (panoramaVisible) creditLine(d, creditText(t), rectOf(col.credit), u * 0.92);
  // The HUD between moves and the trace strip once it is in hold still: each laid out once (Draw.memo).
  const hudBox = rectOf(col.hud);
  d.memo(["compactHud", hud, hudBox, stacked, turnLabel, u], () => compactHud(d, hud, hudBox, stacked ? 4 : 2, turnLabel, u));
  const noReply = t.episode.recordFormat === "train" ? "training traces keep no model reply, only the parsed tool call" : undefined;
  const intro = `${side.arm} sees this view and has ${t.segments[0]?.hud[0]?.stepsRemaining ?? "a few"} actions to look around, walk, drop pins and guess.`;
  const note = sf.finished ? turnLabel : undefined;
  const strip = rectOf(col.trace);
  const appear = traceStripAppear(offset);
  d.memo(["traceStrip", entry && identity(entry), intro, note, strip, appear, u, noReply], () => traceStrip(d, entry, intro, note, strip, appear, u, noReply));
}

function caption(d: Draw, side: CompareSide, index: 0 | 1, b: Box, u: number): void {
  d.rect({ x: b.x, y: b.y, w: 4 * u, h: b.h }, SIDE_COLOURS[index]);
  const x = b.x + 14 * u;
  const w = b.w - 14 * u;
  const af = font("sans", 19 * u, 800);
  const pf = font("sans", 14 * u);
  const mf = font("mono", 11.5 * u);
  const top = b.y + (b.h - lineBox(af.size) - lineBox(mf.size)) / 2;
  const mid = top + lineBox(af.size) / 2;
  const letter = index === 0 ? "A " : "B ";
  const pass = `attempt ${side.pass ?? "—"}`;
  const passW = d.width(pass, pf);
  d.text(letter, x, mid, af, SIDE_TEXT[index]);
  const lw = d.width(letter, af);
  const arm = d.text(side.arm, x + lw, mid, af, C.text, { maxWidth: w - lw - passW - 10 * u });
  d.text(pass, x + lw + d.width(arm, af) + 10 * u, mid, pf, C.dim);
  const e = side.timeline.episode;
  d.text(`episode ${e.episodeId} · ${e.split} #${e.index}`, x, top + lineBox(af.size) + lineBox(mf.size) / 2, mf, C.faint, { maxWidth: w });
}

/** The first `n` non-empty lines of a reply, for the strip (the rest is clipped with a fade). */
export function firstLines(text: string, n: number): string {
  return printable(text)
    .split("\n")
    .map((l) => l.trimEnd())
    .filter((l) => l.trim() !== "")
    .slice(0, n)
    .join("\n");
}

/** A side's trace strip: the current turn's tool call and the first lines of its reply, clipped. */
function traceStrip(d: Draw, entry: TraceEntry | null, intro: string, note: string | undefined, b: Box, appear: number, u: number, noReply?: string): void {
  const pad = 10 * u;
  const inner = { x: b.x + u + pad, y: b.y + u + pad, w: b.w - 2 * u - 2 * pad, h: b.h - 2 * u - 2 * pad };
  const border = { color: entry?.failed ? C.fail : C.panelEdge, width: u };
  if (!entry) {
    d.rect(b, C.panel, 8 * u, border);
    const f = font("sans", 14 * u);
    const lh = 14 * u * 1.45;
    d.group({ clip: inner }, () =>
      d.tx.wrap(intro, f, inner.w, Math.max(1, Math.floor(inner.h / lh))).forEach((l, i) => d.text(l, inner.x, inner.y + (i + 0.5) * lh, f, C.dim)),
    );
    return;
  }
  d.group({ alpha: note ? 0.75 : 1 }, () => {
    d.rect(b, C.panel, 8 * u, border);
    d.group({ clip: { ...b, r: 8 * u } }, () => {
      let y = inner.y;
      const tf = font("sans", 15 * u, 800);
      const head = lineBox(tf.size);
      d.group({ alpha: note ? 1 : appear }, () => {
        d.text(`Turn ${entry.turn}`, inner.x, y + head / 2, tf, C.text);
        if (entry.failed) {
          const bf = font("sans", 11 * u, 600);
          const bh = lineBox(bf.size) + 4 * u;
          d.pill(`✗ ${statusLabel(entry)}`.toUpperCase(), inner.x + d.width(`Turn ${entry.turn}`, tf) + 8 * u, y + head / 2 - bh / 2, bf, {
            fill: C.fail,
            color: C.white,
            padX: 6 * u,
            padY: 2 * u,
            r: 4 * u,
          });
        }
        if (note) d.text(note, inner.x + inner.w, y + head / 2, font("sans", 12 * u), C.accent, { align: "right" });
      });
      y += head + 6 * u;
      const cf = font("mono", 13 * u);
      const ch = lineBox(cf.size) + 10 * u;
      d.rect({ x: inner.x, y, w: inner.w, h: ch }, C.code, 5 * u);
      d.text(toolCallText(entry), inner.x + 8 * u, y + ch / 2, cf, entry.toolCall ? C.accent : C.fail, { maxWidth: inner.w - 16 * u });
      y += ch + 6 * u;
      const r = replyText({ ...entry, reply: firstLines(entry.reply ?? "", 8) }, noReply);
      const rf = font("sans", 12.5 * u, 400, !r.present);
      const lh = 12.5 * u * 1.4;
      const rows = Math.max(1, Math.ceil((inner.y + inner.h - y) / lh));
      d.tx.wrap(r.text, rf, inner.w, rows).forEach((l, i) => d.text(l, inner.x, y + (i + 0.5) * lh, rf, r.present ? C.text : C.faint));
      const fy = b.y + b.h - 22 * u;
      d.rect(
        { x: b.x, y: fy, w: b.w, h: 22 * u },
        {
          kind: "linear",
          x0: 0,
          y0: fy,
          x1: 0,
          y1: b.y + b.h,
          stops: [
            [0, panelAlpha(0)],
            [1, C.panel],
          ],
        },
      );
    });
  });
}
