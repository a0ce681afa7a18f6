/**
 * Model text shown as text, never interpreted by the canvas.
 *
 * Why: a reply may hold terminal escapes, NULs, stray CRs, bidi overrides or broken UTF-16, and a
 * canvas would draw boxes, nothing, or reorder what follows. Here CR/CRLF and U+2028/2029 become
 * LF; a tab becomes spaces up to the next multiple of TAB_STOP columns (columns = code points
 * since the line start); every other C0/C1 control, DEL, the bidi embeddings/overrides/isolates
 * (U+202A-202E, U+2066-2069) and lone surrogates become visible escapes such as `\x1b` or
 * `\ud800`. Not the Control Pictures block nor U+FFFD: no font of the chain has glyphs for them
 * (test/text-fonts.test.ts checks). Markup (`<script>`, `&amp;`) needs nothing: a canvas never
 * parses it. Browser-safe, pure, idempotent.
 */

export const TAB_STOP = 4;

const UNSAFE =
  // eslint-disable-next-line no-control-regex
  /\r\n?|[\u2028\u2029]|[\0-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

function escape(ch: string): string {
  const code = ch.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
}

function expandTabs(text: string): string {
  let out = "";
  let column = 0;
  for (const ch of text) {
    if (ch === "\t") {
      const n = TAB_STOP - (column % TAB_STOP);
      out += " ".repeat(n);
      column += n;
    } else {
      out += ch;
      column = ch === "\n" ? 0 : column + 1;
    }
  }
  return out;
}

export function printable(text: string): string {
  const out = text.replace(UNSAFE, (m) => (m[0] === "\r" || m === "\u2028" || m === "\u2029" ? "\n" : escape(m)));
  return out.includes("\t") ? expandTabs(out) : out;
}
