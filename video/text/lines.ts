/**
 * Line breaking for the painters: a model's reply, in any script, cut into lines that fit.
 *
 * Why our own: a canvas draws one line at a time and knows nothing of wrapping. Lines break only
 * where ./breaks.ts allows (UAX #14, Thai-like dictionary words, Korean at spaces, never inside
 * a grapheme), hard at "\n"; a run wider than the line breaks between graphemes (CSS
 * overflow-wrap: anywhere). Lines stay in logical order: each painter draws a line with its
 * canvas's own bidi.
 *
 * Speed: a real measurement costs ~25 µs in Skia, so each distinct grapheme is measured once
 * (cached), lines are filled from those widths' prefix sums, and each line is then measured
 * whole, once or twice, to correct for kerning and shaping (Arabic joining, Indic conjuncts):
 * the whole line is what gets drawn, so its real width decides. Pure and browser-safe.
 */
import type { FontSpec } from "./fonts.ts";
import { breakOpportunities, graphemeStarts, graphemes } from "./breaks.ts";
import { printable } from "./printable.ts";

export { printable, TAB_STOP } from "./printable.ts";

/** Advance width in px of one line of shaped text. */
export type Measure = (text: string, font: FontSpec) => number;

export interface WrapOptions {
  maxLines?: number;
  ellipsis?: string;
}

const ELLIPSIS = "…";
type Width = (text: string) => number;

function cachedWidth(measure: Measure, font: FontSpec): Width {
  const cache = new Map<string, number>();
  return (text) => {
    let w = cache.get(text);
    if (w === undefined) cache.set(text, (w = text === "" ? 0 : measure(text, font)));
    return w;
  };
}

/** End of the visible part of text[start, end): trailing spaces do not count. */
function bodyEnd(text: string, start: number, end: number): number {
  while (end > start && text.charCodeAt(end - 1) === 0x20) end--;
  return end;
}

/** Appends the lines of one paragraph (no "\n") to `out`, stopping once `out` has `limit` lines. */
function wrapParagraph(text: string, maxWidth: number, width: Width, out: string[], limit: number): void {
  if (text === "") {
    out.push("");
    return;
  }
  const n = text.length;
  const starts = graphemeStarts(text);
  // est[p]: width of text[0, p) as the sum of its graphemes' widths, at every grapheme start.
  const est = new Float64Array(n + 1);
  for (let a = 0, b = 1; b <= n; b++) {
    if (!starts[b]) continue;
    est[b] = est[a] + width(text.slice(a, b));
    a = b;
  }
  // Where a line may end: break opportunities, and every grapheme start inside a run that
  // cannot fit on a line of its own.
  const ends: number[] = [];
  let s = 0;
  for (const e of breakOpportunities(text, starts)) {
    const be = bodyEnd(text, s, e);
    const guess = est[be] - est[s];
    if (guess > maxWidth && (guess > 2 * maxWidth || width(text.slice(s, be)) > maxWidth)) {
      for (let p = s + 1; p < be; p++) if (starts[p]) ends.push(p);
    }
    ends.push(e);
    s = e;
  }
  let start = 0;
  let k = 0;
  while (k < ends.length && out.length < limit) {
    const guessTo = (j: number) => est[bodyEnd(text, start, ends[j])] - est[start];
    const lineTo = (j: number) => text.slice(start, bodyEnd(text, start, ends[j]));
    let j = k;
    // Spaces never make a line wider: a grapheme that is a space stays on the line it ends.
    const visibleEnd = (j: number) => bodyEnd(text, start, ends[j]);
    while (j + 1 < ends.length && (guessTo(j + 1) <= maxWidth || visibleEnd(j + 1) === visibleEnd(j))) j++;
    let line = lineTo(j);
    let real = width(line);
    if (real > maxWidth) {
      while (j > k && real > maxWidth) real = width((line = lineTo(--j)));
    } else {
      // Shaping made the line narrower than the sum of its parts: take more while it fits.
      const ratio = guessTo(j) > 0 ? real / guessTo(j) : 1;
      while (j + 1 < ends.length && guessTo(j + 1) * ratio <= maxWidth) {
        const longer = lineTo(j + 1);
        if (width(longer) > maxWidth) break;
        line = longer;
        j++;
      }
    }
    out.push(line);
    start = ends[j];
    k = j + 1;
  }
}

/** `line` cut at a grapheme boundary so that it plus the ellipsis fits (the ellipsis alone if nothing does). */
function withEllipsis(line: string, maxWidth: number, width: Width, ellipsis: string): string {
  const trimmed = line.replace(/ +$/, "");
  if (width(trimmed + ellipsis) <= maxWidth) return trimmed + ellipsis;
  const gs = graphemes(trimmed);
  const room = maxWidth - width(ellipsis);
  let k = 0;
  for (let acc = 0; k < gs.length && acc + width(gs[k]) <= room; k++) acc += width(gs[k]);
  const cut = (count: number) => gs.slice(0, count).join("").replace(/ +$/, "");
  // The per-grapheme sum is an estimate: correct it with real measurements of the candidate.
  while (k > 0 && width(cut(k) + ellipsis) > maxWidth) k--;
  while (k < gs.length && width(cut(k + 1) + ellipsis) <= maxWidth) k++;
  return cut(k) + ellipsis;
}

/**
 * Lines of `text` (made printable first) no wider than `maxWidth` by `measure`, except a line
 * that is a single grapheme. Hard breaks at "\n"; a line's trailing spaces are dropped and do
 * not count; trailing blank lines of the text are dropped (an empty text has no lines). With `maxLines`, the last kept line
 * is cut at a grapheme boundary and ends with the ellipsis, and `truncated` is true.
 */
export function wrapText(text: string, font: FontSpec, maxWidth: number, measure: Measure, opts: WrapOptions = {}): { lines: string[]; truncated: boolean } {
  const maxLines = opts.maxLines ?? Infinity;
  if (!(maxLines >= 1)) throw new RangeError(`maxLines must be at least 1, got ${maxLines}`);
  const width = cachedWidth(measure, font);
  const lines: string[] = [];
  const visible = printable(text).replace(/[ \n]+$/, "");
  if (visible === "") return { lines, truncated: false };
  for (const paragraph of visible.split("\n")) {
    // One line past the limit is enough to know the text was cut.
    wrapParagraph(paragraph, maxWidth, width, lines, maxLines + 1);
    if (lines.length > maxLines) break;
  }
  if (lines.length <= maxLines) return { lines, truncated: false };
  lines.length = maxLines;
  lines[maxLines - 1] = withEllipsis(lines[maxLines - 1], maxWidth, width, opts.ellipsis ?? ELLIPSIS);
  return { lines, truncated: true };
}

/** Past this many code units no line of any real width fits: cut first so labels stay cheap. */
const FIT_LIMIT = 2048;

/** One line: newlines shown as spaces, cut with the ellipsis at a grapheme boundary when too wide. */
export function fitLine(text: string, font: FontSpec, maxWidth: number, measure: Measure, ellipsis = ELLIPSIS): string {
  const width = cachedWidth(measure, font);
  const line = printable(text).replace(/\n/g, " ");
  if (line.length > FIT_LIMIT) {
    const gs = graphemes(line.slice(0, FIT_LIMIT + 32));
    return withEllipsis(gs.slice(0, -1).join(""), maxWidth, width, ellipsis);
  }
  return width(line) <= maxWidth ? line : withEllipsis(line, maxWidth, width, ellipsis);
}
