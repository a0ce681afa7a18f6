/**
 * Always-on overlays: the imagery credit (whenever a panorama shows), and the
 * banner saying what the pixels are when they are not a verified replay.
 */
import { C } from "../scene/theme.ts";
import { Draw, font, lineBox } from "../scene/draw.ts";
import type { Box } from "../scene/types.ts";
import { SLIDESHOW_LABEL } from "../slideshow/labels.ts";

/** A slideshow is not a replay at all, so it never says "replay", verified or not. */
export { SLIDESHOW_LABEL };
export const UNVERIFIED_LABEL = "UNVERIFIED REPLAY";

/** The unverified banner, naming the turns that drifted when the timeline records them ("· TURN 5 DRIFTED"). */
export function unverifiedLabel(e: { driftedTurns?: readonly number[] }, head = UNVERIFIED_LABEL): string {
  const t = e.driftedTurns ?? [];
  if (!t.length) return head;
  const shown = t.length > 3 ? `${t.slice(0, 3).join(", ")} …` : t.join(", ");
  return `${head} · TURN${t.length > 1 ? "S" : ""} ${shown} DRIFTED`;
}
export const OVERWRITTEN_NOTE = "Images from a later episode of this task (the folder overwrites them per task)";

export function creditLine(d: Draw, text: string, b: Box, unit: number): void {
  const f = font("sans", 12 * unit);
  d.text(text, b.x, b.y + lineBox(f.size) / 2, f, C.dim, { maxWidth: b.w });
}

/** A banner hanging from the top edge at x (centred) or right-aligned at x. */
export function banner(
  d: Draw,
  text: string,
  fill: string,
  x: number,
  y: number,
  unit: number,
  o: { size: number; padX: number; padY: number; spacing: number; anchor: "center" | "right" },
): void {
  const r = 6 * unit;
  d.pill(text, x, y, font("sans", o.size * unit, 800), {
    fill,
    color: C.white,
    padX: o.padX * unit,
    padY: o.padY * unit,
    r: [0, 0, r, r],
    spacing: o.spacing * unit,
    anchor: o.anchor,
  });
}

/** The banner for this episode, or none for a verified replay. A slideshow's sits top right, clear of the header's text. */
export function sourceBanner(
  d: Draw,
  e: { source: "replay" | "slideshow"; verified: boolean; driftedTurns?: readonly number[] },
  width: number,
  unit: number,
): void {
  const o = { size: 15, padX: 18, padY: 5, spacing: 2 };
  if (e.source === "slideshow") banner(d, SLIDESHOW_LABEL, C.slideshow, width - 16 * unit, 0, unit, { ...o, anchor: "right" });
  else if (!e.verified) banner(d, unverifiedLabel(e), C.unverified, width / 2, 0, unit, { ...o, anchor: "center" });
}

/** Over the bottom of the viewport: the recorded image files belong to another episode than the trace. */
export function overwrittenNote(d: Draw, box: Box, unit: number): void {
  const f = font("sans", 13 * unit, 600);
  const h = lineBox(f.size) + 12 * unit;
  d.rect({ x: box.x, y: box.y + box.h - h, w: box.w, h }, "rgba(14,17,22,0.82)");
  d.text(`⚠ ${OVERWRITTEN_NOTE}`, box.x + box.w / 2, box.y + box.h - h / 2, f, C.accent, { align: "center", maxWidth: box.w - 20 * unit });
}

/** A side or sibling that finished first holds its last view under this marker until the others finish (two-up and group grid). */
export function guessedMarker(d: Draw, guessed: boolean, colour: string, box: Box, u: number): void {
  d.rect(box, "rgba(14,17,22,0.35)");
  const f = font("sans", 20 * u, 800);
  const h = lineBox(f.size) + 14 * u;
  d.pill(guessed ? "✓ GUESSED" : "NO GUESS", box.x + box.w / 2, box.y + box.h - 18 * u - h, f, {
    fill: colour,
    color: C.white,
    padX: 20 * u,
    padY: 7 * u,
    r: 6 * u,
    spacing: 2.5 * u,
    anchor: "center",
  });
}
