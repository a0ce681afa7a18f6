/**
 * Every frame-dependent value the scenes animate, as pure functions of the
 * segment offset / progress. The scenes call these to draw; the frame
 * signature (frame-state.ts) calls the same ones, so two frames whose values
 * agree are drawn alike and the renderer may screenshot one of them only.
 */
import { interpolate } from "remotion";
import type { TraceEntry } from "../replay/timeline/timeline-schema.ts";

const clamp = { extrapolateLeft: "clamp", extrapolateRight: "clamp" } as const;

/** Control characters (other than newline and tab) would render as boxes; model text is shown, never run. */
export function printable(text: string): string {
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  return text.replace(/\r\n?/g, "\n").replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, "\uFFFD");
}

/** Rough line count of wrapped text at a given width; good enough to scroll a reply deterministically. */
export function estimateLines(text: string, charsPerLine: number): number {
  let n = 0;
  for (const line of text.split("\n")) n += Math.max(1, Math.ceil(line.length / charsPerLine));
  return n;
}

/** Geometry of the active turn's reply box (constant through a segment). */
export interface ReplyBox {
  reply: string;
  fontSize: number;
  lineHeight: number;
  lines: number;
  /** Pixels of reply below the box, scrolled past during the segment. */
  overflow: number;
  replyHeight: number;
}

export function replyBox(entry: TraceEntry, paneWidth: number, paneHeight: number, unit: number): ReplyBox {
  const reply = printable(entry.reply ?? "");
  const fontSize = 13.5 * unit;
  const lineHeight = fontSize * 1.42;
  const innerW = paneWidth - 24 * unit;
  const lines = estimateLines(reply, Math.max(10, Math.floor(innerW / (fontSize * 0.52))));
  const replyHeight = Math.round(paneHeight * 0.42);
  const overflow = Math.max(0, lines * lineHeight - replyHeight + lineHeight);
  return { reply, fontSize, lineHeight, lines, overflow, replyHeight };
}

export interface TraceMotion {
  /** Active turn card fade/slide-in. */
  appear: number;
  /** Reply scroll in px. */
  scroll: number;
  feedbackOpacity: number;
}

/** The trace pane's animation at `progress` (0..1 through the segment) and `offset` (frames since its start). */
export function traceMotion(active: TraceEntry | null, paneWidth: number, paneHeight: number, unit: number, progress: number, offset: number): TraceMotion {
  const appear = interpolate(offset, [0, 6], [0, 1], { extrapolateRight: "clamp" });
  if (!active) return { appear, scroll: 0, feedbackOpacity: 0 };
  // Scroll the whole reply past during the middle of the segment, so its end (usually the action) is read last.
  const { overflow } = replyBox(active, paneWidth, paneHeight, unit);
  const scroll = overflow * interpolate(progress, [0.12, 0.8], [0, 1], clamp);
  const feedbackOpacity = interpolate(progress, [0.25, 0.35], [0, 1], clamp);
  return { appear, scroll, feedbackOpacity };
}

export interface MapMotion {
  appear: number;
  /** Pop-in of the newest pin. */
  newestPin: number;
}

export function mapMotion(offset: number): MapMotion {
  return {
    appear: interpolate(offset, [0, 8], [0, 1], { extrapolateRight: "clamp" }),
    newestPin: interpolate(offset, [6, 14], [0, 1], clamp),
  };
}

export interface ScoreMotion {
  fade: number;
  guessPin: number;
  truthPin: number;
  line: number;
  /** Count-up of distance, points and reward. */
  count: number;
}

export function scoreMotion(offset: number): ScoreMotion {
  return {
    fade: interpolate(offset, [0, 8], [0, 1], clamp),
    guessPin: interpolate(offset, [6, 14], [0, 1], clamp),
    truthPin: interpolate(offset, [34, 42], [0, 1], clamp),
    line: interpolate(offset, [12, 38], [0, 1], clamp),
    count: interpolate(offset, [16, 44], [0, 1], clamp),
  };
}

/** The two-up trace strip fades in over its segment's first frames. */
export function traceStripAppear(offset: number): number {
  return interpolate(offset, [0, 6], [0, 1], { extrapolateRight: "clamp" });
}

export interface CompareScoreMotion {
  /** Each side's guess marker grows in, A first. */
  guess: [number, number];
  truth: number;
  /** The results count up. */
  count: number;
  fade: number;
}

/** The two-up score card's animation at `offset` frames into it (settled from frame 44 on). */
export function compareScoreMotion(offset: number): CompareScoreMotion {
  return {
    guess: [interpolate(offset, [6, 14], [0, 1], clamp), interpolate(offset, [12, 20], [0, 1], clamp)],
    truth: interpolate(offset, [30, 38], [0, 1], clamp),
    count: interpolate(offset, [16, 44], [0, 1], clamp),
    fade: interpolate(offset, [0, 8], [0, 1], clamp),
  };
}
