/** The few bits of Python text behaviour the gym's messages depend on: str.strip, len, repr, format. */

/** Python's str.isspace set (what str.strip() removes), not JavaScript's trim set. */
const SPACE_CLASS = "[\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]";
const PY_SPACE = new RegExp(`^${SPACE_CLASS}+|${SPACE_CLASS}+$`, "g");

export const pyStrip = (s: string): string => s.replace(PY_SPACE, "");

/** len() counts code points. */
export const pyLen = (s: string): number => {
  let n = 0;
  for (const _ of s) n++;
  return n;
};

/** repr() of a str: single quotes unless it holds ' and no ", non-printables escaped. */
export function pyRepr(s: string): string {
  const q = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = q;
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === q || ch === "\\") out += "\\" + ch;
    else if (ch === "\t") out += "\\t";
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (c < 0x20 || c === 0x7f) out += "\\x" + c.toString(16).padStart(2, "0");
    else if (c < 0x7f) out += ch;
    else if (/^[\p{C}\p{Z}]$/u.test(ch) || (c >= 0xd800 && c <= 0xdfff)) {
      // Not printable in Python (other, separators; space was handled above).
      out +=
        c <= 0xff ? "\\x" + c.toString(16).padStart(2, "0") : c <= 0xffff ? "\\u" + c.toString(16).padStart(4, "0") : "\\U" + c.toString(16).padStart(8, "0");
    } else out += ch;
  }
  return out + q;
}

/** f"{x:.Nf}": ties round half to even (toFixed rounds them up). A double is an exact tie at N
 * decimals only when x * 2^(N+1) is an odd integer (it must be a dyadic rational). */
export function pyFixed(x: number, digits: number): string {
  const t = x * 2 ** (digits + 1);
  if (Number.isInteger(t) && Math.abs(t) % 2 === 1) {
    const down = Math.floor(x * 10 ** digits);
    if (down % 2 === 0) return (down / 10 ** digits).toFixed(digits);
  }
  return x.toFixed(digits);
}
