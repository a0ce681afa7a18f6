/**
 * Where text may be cut: grapheme cluster boundaries and line-break opportunities.
 *
 * Why its own module: the rules are Unicode's (UAX #29 graphemes via Intl.Segmenter, UAX #14 via
 * the `linebreak` package) plus three tailorings, and doing them fast takes care: V8's
 * Intl.Segmenter slows down superlinearly on long strings (20,000 characters: ~250 ms in one
 * piece, ~25 ms in chunks), so it only sees the runs that can form clusters, in chunks.
 * Tailorings: Thai/Lao/Khmer/Myanmar (UAX #14 class SA) get dictionary word boundaries;
 * Korean breaks at spaces only (no breaks between Hangul syllables); no break ever falls inside
 * a grapheme cluster. Browser-safe.
 */
import LineBreaker from "linebreak";

const graphemeSegmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });
const wordSegmenter = new Intl.Segmenter(undefined, { granularity: "word" });
const CHUNK = 256;

/**
 * Calls `report(p)` for each segment start p with from < p < to, segmenting text[from, to) in
 * chunks. A chunk's last segment may continue past the chunk, so the next chunk starts at it.
 */
function boundariesIn(segmenter: Intl.Segmenter, text: string, from: number, to: number, report: (p: number) => void): void {
  let start = from;
  let size = CHUNK;
  while (start < to) {
    const end = Math.min(to, start + size);
    const found: number[] = [];
    for (const s of segmenter.segment(text.slice(start, end))) if (s.index > 0) found.push(s.index);
    if (end === to) {
      for (const p of found) report(start + p);
      return;
    }
    if (found.length === 0) {
      size *= 2; // one segment longer than the chunk (e.g. a base with hundreds of marks)
      continue;
    }
    // Every start but the last segment's end is final; that segment may go on past the chunk.
    for (const p of found) report(start + p);
    start += found[found.length - 1];
    size = CHUNK;
  }
}

/**
 * Code units that may join a neighbour into one cluster: marks (Extend, SpacingMark), format
 * characters (ZWJ, Prepend), controls, surrogates (every astral character: emoji, flags,
 * modifiers), Hangul jamo, and the few letters that are Prepend or SpacingMark. Between two
 * other code units there is always a boundary (UAX #29 GB999), so only runs around these need
 * the segmenter: Latin, CJK, Hangul syllables and unvocalised Arabic need none.
 */
const JOINING = /[\p{M}\p{Cf}\p{Cc}\p{Cs}\u0d4e\u0e33\u0eb3\uff9e\uff9f\u1100-\u11ff\ua960-\ua97f\ud7b0-\ud7ff]/u;
const kind = new Uint8Array(0x10000); // 0 not yet known, 1 simple, 2 may join
function simple(code: number): boolean {
  if (kind[code] === 0) kind[code] = JOINING.test(String.fromCharCode(code)) ? 2 : 1;
  return kind[code] === 1;
}

/** 1 at every offset where a grapheme cluster starts, and at text.length. */
export function graphemeStarts(text: string): Uint8Array {
  const n = text.length;
  const at = new Uint8Array(n + 1);
  let before = true;
  for (let p = 0; p < n; p++) {
    const s = simple(text.charCodeAt(p));
    if (s && before) at[p] = 1;
    before = s;
  }
  at[0] = 1;
  at[n] = 1;
  for (let i = 0; i < n;) {
    if (simple(text.charCodeAt(i))) {
      i++;
      continue;
    }
    // A run of joining code units, going on over gaps shorter than 16 (one segmenter call per
    // Thai syllable would cost more than segmenting the gaps too), with one simple code unit of
    // context each side: both ends are then certain boundaries.
    let last = i;
    for (let j = i + 1; j < n && j - last <= 16; j++) if (!simple(text.charCodeAt(j))) last = j;
    const from = i > 0 ? i - 1 : 0;
    const to = Math.min(n, last + 2);
    at.fill(0, from + 1, to);
    boundariesIn(graphemeSegmenter, text, from, to, (p) => (at[p] = 1));
    i = last + 1;
  }
  return at;
}

/** The text's grapheme clusters, in order. */
export function graphemes(text: string): string[] {
  const at = graphemeStarts(text);
  const out: string[] = [];
  let start = 0;
  for (let p = 1; p <= text.length; p++) {
    if (at[p]) {
      out.push(text.slice(start, p));
      start = p;
    }
  }
  return out;
}

/** UAX #14 class SA scripts: no spaces between words. */
const isSA = (c: number) =>
  (c >= 0x0e00 && c <= 0x0eff) ||
  (c >= 0x1000 && c <= 0x109f) ||
  (c >= 0x1780 && c <= 0x17ff) ||
  (c >= 0x1950 && c <= 0x19ff) ||
  (c >= 0x1a20 && c <= 0x1aaf) ||
  (c >= 0xa9e0 && c <= 0xa9ff) ||
  (c >= 0xaa60 && c <= 0xaadf);
const isHangul = (c: number) => (c >= 0x1100 && c <= 0x11ff) || (c >= 0x3130 && c <= 0x318f) || (c >= 0xa960 && c <= 0xa97f) || (c >= 0xac00 && c <= 0xd7ff);

/**
 * Offsets (ascending, > 0, ending with text.length) where a new line may start, for text
 * without "\n". `starts` is graphemeStarts(text).
 */
export function breakOpportunities(text: string, starts: Uint8Array): number[] {
  const n = text.length;
  const ok = new Uint8Array(n + 1);
  const breaker = new LineBreaker(text);
  for (let b = breaker.nextBreak(); b; b = breaker.nextBreak()) ok[b.position] = 1;
  for (let i = 0; i < n;) {
    if (!isSA(text.charCodeAt(i))) {
      i++;
      continue;
    }
    let j = i;
    for (let gap = 0; j < n && gap < 16; j++) gap = isSA(text.charCodeAt(j)) ? 0 : gap + 1;
    while (j > i && !isSA(text.charCodeAt(j - 1))) j--;
    boundariesIn(wordSegmenter, text, i, j, (p) => (ok[p] = 1));
    i = j;
  }
  const out: number[] = [];
  for (let p = 1; p < n; p++) {
    if (ok[p] && starts[p] && !(isHangul(text.charCodeAt(p - 1)) && isHangul(text.charCodeAt(p)))) out.push(p);
  }
  out.push(n);
  return out;
}
