/**
 * The trace pane: turns appear as they happen. The active turn shows the
 * model's raw reply (as text, broken into lines once; a long reply scrolls
 * through the segment and clips with a fade), the parsed action as a tool
 * call and the environment's feedback. Past turns recede, newest first;
 * failed turns are marked.
 */
import type { TraceEntry } from "../../replay/trace/trace-entry.ts";
import { traceMotion, type TraceMotion } from "../scene/motion.ts";
import { printable } from "../text/lines.ts";
import { C, panelAlpha } from "../scene/theme.ts";
import { Draw, font, identity, lineBox } from "../scene/draw.ts";
import type { Box } from "../scene/types.ts";

/** Said in place of an absent reply: a fact about the recording, not an empty box. */
export const NO_REPLY = "no reply recorded";

/** A reply longer than this many lines is cut with an ellipsis: nobody reads more while it scrolls past. */
export const MAX_REPLY_LINES = 40;

export function statusLabel(e: TraceEntry): string {
  if (!e.failed) return e.status === "forced_guess" ? "forced guess" : "ok";
  return e.status.split(":")[0].replace(/_/g, " ");
}

/** The tool call line's text: the parsed call, or why there is none. */
export function toolCallText(e: TraceEntry): string {
  return e.toolCall ? `▶ ${printable(e.toolCall)}` : `▶ no action parsed${e.errors.length ? `: ${printable(e.errors[0])}` : ""}`;
}

export function replyText(e: TraceEntry, noReply?: string): { text: string; present: boolean } {
  const reply = printable(e.reply ?? "");
  return reply.trim() ? { text: reply, present: true } : { text: `(${NO_REPLY}${noReply ? `: ${noReply}` : ""})`, present: false };
}

/** Geometry of the active turn's reply (constant through a segment). */
/** The active card's height without its reply, in design px: padding, border, header, tool call, feedback and the gaps. */
const CARD_CHROME = 2 * 12 + 2 + 17 * 1.2 + 3 * 8 + (14 * 1.2 + 12) + 13 * 1.2;

export type ReplyLayout = ReturnType<typeof replyLayout>;

export function replyLayout(d: Draw, e: TraceEntry, pane: Box, unit: number, noReply?: string) {
  const { text, present } = replyText(e, noReply);
  const f = font("sans", 13.5 * unit, 400, !present);
  const lineHeight = 13.5 * unit * 1.42;
  const innerW = pane.w - 26 * unit; // 12 px padding and a 1 px border each side
  const lines = d.tx.wrap(text, f, innerW, MAX_REPLY_LINES);
  // 42% of the pane, but never so tall that the card (header, tool call, feedback: CARD_CHROME) outgrows the pane.
  const replyHeight = Math.max(lineHeight, Math.min(Math.round(pane.h * 0.42), pane.h - CARD_CHROME * unit));
  const overflow = Math.max(0, lines.length * lineHeight - replyHeight + lineHeight);
  return { lines, font: f, present, lineHeight, overflow, boxHeight: Math.min(replyHeight, Math.max(1, lines.length) * lineHeight) };
}

export function tracePane(d: Draw, trace: TraceEntry[], activeTurn: number, pane: Box, progress: number, offset: number, unit: number, noReply?: string): void {
  const active = trace.find((e) => e.turn === activeTurn) ?? null;
  const past = trace.filter((e) => e.turn < activeTurn && e !== active).reverse();
  const gap = 8 * unit;
  d.group({ clip: pane }, () => {
    let y = pane.y;
    if (active) y = activeTurn_(d, active, pane, progress, offset, unit, noReply) + gap;
    // The earlier turns hold still through the segment: laid out once per segment.
    if (past.length > 0) d.memo(["pastTurns", identity(trace), activeTurn, y, pane, unit], () => pastTurns(d, past, pane, y, unit));
  });
}

function pastTurns(d: Draw, past: TraceEntry[], pane: Box, top: number, unit: number): void {
  const gap = 8 * unit;
  const f = font("sans", 11 * unit);
  let y = top + 4 * unit;
  d.text("EARLIER TURNS", pane.x, y + lineBox(f.size) / 2, f, C.faint, { spacing: 0.8 * unit });
  y += lineBox(f.size) + gap;
  for (const [age, e] of past.entries()) {
    if (y > pane.y + pane.h) break;
    y = pastTurn(d, e, age, pane.x, y, pane.w, unit) + gap;
  }
}

/** Draws the active turn's card; returns its bottom. */
function activeTurn_(d: Draw, e: TraceEntry, pane: Box, progress: number, offset: number, unit: number, noReply?: string): number {
  const reply = replyLayout(d, e, pane, unit, noReply);
  const m = traceMotion(reply.overflow, progress, offset);
  const g = cardGeometry(unit);
  const h = 2 * g.pad + 2 * unit + g.head + g.gap + reply.boxHeight + g.gap + g.toolH + g.gap + lineBox(g.feedF.size);
  const top = pane.y + (1 - m.appear) * 12 * unit;
  // Between its entrance and its scroll, and once its feedback is in, the card holds still.
  d.memo(["activeTurn", identity(e), pane, unit, noReply, m], () => activeCard(d, e, reply, m, pane, top, h, unit));
  return top + h;
}

function cardGeometry(unit: number) {
  const toolF = font("mono", 14 * unit);
  return { pad: 12 * unit, gap: 8 * unit, head: lineBox(17 * unit), toolF, toolH: lineBox(toolF.size) + 12 * unit, feedF: font("sans", 13 * unit) };
}

function activeCard(d: Draw, e: TraceEntry, reply: ReplyLayout, m: TraceMotion, pane: Box, top: number, h: number, unit: number): void {
  const { pad, gap, head, toolF, toolH, feedF } = cardGeometry(unit);
  const x = pane.x + unit + pad;
  const inner = pane.w - 2 * unit - 2 * pad;
  d.group({ alpha: m.appear }, () => {
    d.rect({ x: pane.x, y: top, w: pane.w, h }, C.panel, 8 * unit, { color: e.failed ? C.fail : C.panelEdge, width: unit });
    // Header: turn, status badge, tokens and latency.
    let y = top + unit + pad;
    const mid = y + head / 2;
    const tf = font("sans", 17 * unit, 800);
    d.text(`Turn ${e.turn}`, x, mid, tf, C.text);
    const bf = font("sans", 11 * unit, 600);
    const label = (e.failed ? `✗ ${statusLabel(e)}` : statusLabel(e)).toUpperCase();
    const bx = x + d.width(`Turn ${e.turn}`, tf) + gap;
    const bh = lineBox(bf.size) + 4 * unit;
    d.pill(label, bx, mid - bh / 2, bf, {
      fill: e.failed ? C.fail : C.ok,
      color: e.failed ? C.white : C.bg,
      padX: 6 * unit,
      padY: 2 * unit,
      r: 4 * unit,
      spacing: 0.6 * unit,
    });
    const meta = `${e.tokensIn !== null ? `${e.tokensIn} in · ${e.tokensOut ?? 0} out` : ""}${e.latencyS !== null ? ` · ${e.latencyS.toFixed(1)} s` : ""}`;
    if (meta) d.text(meta, x + inner, mid, font("mono", 11 * unit), C.faint, { align: "right" });
    y += head + gap;
    // The reply, scrolled, clipped, faded at the bottom when it overflows.
    const box = { x, y, w: inner, h: reply.boxHeight };
    d.group({ clip: box }, () => {
      const first = Math.max(0, Math.floor(m.scroll / reply.lineHeight));
      for (let i = first; i < reply.lines.length; i++) {
        const ly = y + i * reply.lineHeight - m.scroll;
        if (ly > y + box.h) break;
        d.text(reply.lines[i], x, ly + reply.lineHeight / 2, reply.font, reply.present ? C.text : C.faint);
      }
      if (reply.overflow > 0) {
        const fy = y + box.h - 28 * unit;
        d.rect(
          { x, y: fy, w: inner, h: 28 * unit },
          {
            kind: "linear",
            x0: 0,
            y0: fy,
            x1: 0,
            y1: y + box.h,
            stops: [
              [0, panelAlpha(0)],
              [1, C.panel],
            ],
          },
        );
      }
    });
    y += box.h + gap;
    // The tool call.
    d.rect({ x, y, w: inner, h: toolH }, C.code, 5 * unit);
    d.text(toolCallText(e), x + 8 * unit, y + toolH / 2, toolF, e.toolCall ? C.accent : C.fail, { maxWidth: inner - 16 * unit });
    y += toolH + gap;
    // The environment's feedback, once the call has "happened".
    const fb = e.feedback ? `◀ ${printable(e.feedback)}` : e.failed ? `◀ ${printable(e.status)}` : "";
    if (fb) d.group({ alpha: m.feedbackOpacity }, () => d.text(fb, x, y + lineBox(feedF.size) / 2, feedF, C.dim, { maxWidth: inner }));
  });
}

/** One earlier turn's line; returns its bottom. */
function pastTurn(d: Draw, e: TraceEntry, age: number, x: number, y: number, w: number, unit: number): number {
  const f = 12.5 * unit;
  const h = lineBox(f) + 6 * unit;
  d.group({ alpha: Math.max(0.25, 0.8 - age * 0.12) }, () => {
    d.rect({ x, y, w: 3 * unit, h }, e.failed ? C.fail : C.panelEdge);
    const tx = x + 7 * unit;
    d.text(`#${e.turn}`, tx, y + h / 2, font("sans", f, 600), C.dim, { maxWidth: 30 * unit });
    const text = e.failed ? `✗ ${statusLabel(e)}` : printable(e.toolCall ?? e.actionName ?? "—");
    d.text(text, tx + 38 * unit, y + h / 2, font("mono", f), e.failed ? C.fail : C.text, { maxWidth: w - 45 * unit - 4 * unit });
  });
  return y + h;
}
