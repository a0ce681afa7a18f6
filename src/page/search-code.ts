/**
 * The folder form's search texts, coded: a board's words are ~1 GB of text
 * (every reply, reasoning and prompt), which each query read and scanned
 * whole. Coded, each text is its space-separated words, one character per
 * distinct word of its file (the file's most frequent words first, so they
 * take one byte each), and the file carries its words once. A query is then
 * matched on the codes: its inner words exactly, its first word as the end
 * of a word, its last as the start of one. Exactly `text.includes(q)`, on
 * several times fewer bytes to load and scan (the generated board: 7x).
 * Pure: the page writer codes (board/chunks.ts), the browser matches
 * (client/folder-search.ts).
 */

/** A coded file: its distinct words (word i is coded as CODES[i]) and each text's codes. */
export interface CodedTexts {
  words: string[];
  texts: string[];
}

/**
 * The code points words are coded as, in order: printable ASCII but `"` and `\` (one byte in the
 * file, as JSON writes it), then from U+00A0 on (two or three bytes), skipping the C1 controls,
 * surrogates and U+FFFE/U+FFFF. The first 189 keep a text a one-byte string in the browser.
 */
function codePoints(): number[] {
  const out: number[] = [];
  for (let c = 0x20; c < 0x7f; c++) if (c !== 0x22 && c !== 0x5c) out.push(c);
  for (let c = 0xa0; c < 0xfffe; c++) if (c < 0xd800 || c > 0xdfff) out.push(c);
  return out;
}

let codes: number[] | null = null;
const CODES = (): number[] => (codes ??= codePoints());

/** Codes a file's texts, or null when they hold more distinct words than there are codes. Same texts, same output. */
export function codeTexts(texts: readonly string[]): CodedTexts | null {
  const count = new Map<string, number>();
  for (const t of texts) for (const w of t.split(" ")) count.set(w, (count.get(w) ?? 0) + 1);
  // More distinct words than codes (63,419): the file keeps its plain texts.
  if (count.size > CODES().length) return null;
  // Most frequent first; ties in first-seen order (Map order): deterministic.
  const words = [...count.keys()].map((w, i) => ({ w, i, n: count.get(w)! }));
  words.sort((a, b) => b.n - a.n || a.i - b.i);
  const code = new Map(words.map((x, k) => [x.w, String.fromCharCode(CODES()[k])]));
  return {
    words: words.map((x) => x.w),
    texts: texts.map((t) =>
      t
        .split(" ")
        .map((w) => code.get(w)!)
        .join(""),
    ),
  };
}

/** A coded file's plain texts: each code's word, joined by spaces. */
export function decodeTexts(file: CodedTexts): string[] {
  const word = new Map(file.words.map((w, k) => [CODES()[k], w]));
  return file.texts.map((t) => Array.from(t, (ch) => word.get(ch.charCodeAt(0))!).join(" "));
}

/** Whether code c is in a set of codes (a lookup table over the code points). */
type CodeSet = Uint8Array;

function codeSet(words: readonly string[], keep: (w: string) => boolean): { set: CodeSet; size: number; first: number } {
  const set = new Uint8Array(0x10000);
  let size = 0;
  let first = -1;
  words.forEach((w, k) => {
    if (!keep(w)) return;
    const c = CODES()[k];
    set[c] = 1;
    size++;
    if (first < 0) first = c;
  });
  return { set, size, first };
}

/**
 * A test for the coded texts of one file: true for a text whose plain form includes `q`; null
 * when no text of the file can (a word the query needs is not in the file).
 */
export function codedMatcher(words: readonly string[], q: string): ((coded: string) => boolean) | null {
  const parts = q.split(" ");
  const n = parts.length - 1;
  if (n === 0) {
    // Within one word: any word that holds it.
    const any = codeSet(words, (w) => w.includes(q));
    if (any.size === 0) return null;
    if (any.size === 1) {
      const c = String.fromCharCode(any.first);
      return (s) => s.includes(c);
    }
    return (s) => {
      for (let i = 0; i < s.length; i++) if (any.set[s.charCodeAt(i)]) return true;
      return false;
    };
  }
  const head = codeSet(words, (w) => w.endsWith(parts[0]));
  const tail = codeSet(words, (w) => w.startsWith(parts[n]));
  if (head.size === 0 || tail.size === 0) return null;
  const index = new Map<string, number>();
  words.forEach((w, k) => index.set(w, CODES()[k]));
  let inner = "";
  for (const w of parts.slice(1, n)) {
    const c = index.get(w);
    if (c === undefined) return null;
    inner += String.fromCharCode(c);
  }
  if (inner === "") {
    // Two words side by side: a word ending with the first part, then one starting with the second.
    return (s) => {
      for (let i = 1; i < s.length; i++) if (tail.set[s.charCodeAt(i)] && head.set[s.charCodeAt(i - 1)]) return true;
      return false;
    };
  }
  // The inner words in a row (found natively), with a fitting word on each side.
  return (s) => {
    for (let i = s.indexOf(inner, 1); i >= 0; i = s.indexOf(inner, i + 1)) {
      const after = i + inner.length;
      if (after < s.length && head.set[s.charCodeAt(i - 1)] && tail.set[s.charCodeAt(after)]) return true;
    }
    return false;
  };
}

/** Which texts of a data file hold `q` (lower-cased): plain texts are searched as they are, coded ones on their codes. */
export function textHits(file: readonly string[] | CodedTexts, q: string): boolean[] {
  if (Array.isArray(file)) return file.map((t: string) => t.indexOf(q) >= 0);
  const coded = file as CodedTexts;
  const match = codedMatcher(coded.words, q);
  return coded.texts.map((t) => (match ? match(t) : false));
}
