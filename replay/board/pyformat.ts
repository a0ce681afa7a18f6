/**
 * Python's format mini-language for the few specs geoeval's report uses:
 * `{x:W.Nf}`, `{x:+.Nf}`, `{n:Wd}`, `{s:W}` and `{s!r}`. Fixed-point output
 * is the exact decimal value of the double rounded half-to-even (as CPython
 * does; JS `toFixed` rounds exact ties up: 0.125 -> "0.13", Python "0.12").
 * Widths count code points, like Python's len(). Pure, browser-safe.
 */
import { exactRatio } from "./pymath.ts";

/** `format(x, "[+][W].Nf")`: NaN prints `nan`, infinities `inf`; negative values (and -0.0) keep their `-`. */
export function pyFixed(x: number, decimals: number, width = 0, plus = false): string {
  let body: string;
  let neg = false;
  if (Number.isNaN(x)) body = "nan";
  else if (!Number.isFinite(x)) {
    body = "inf";
    neg = x < 0;
  } else {
    neg = x < 0 || Object.is(x, -0);
    body = fixedDigits(Math.abs(x), decimals);
  }
  const s = (neg ? "-" : plus ? "+" : "") + body;
  return s.padStart(width, " ");
}

/** The exact binary value of a finite non-negative double, rounded half-even to `decimals` places. */
function fixedDigits(x: number, decimals: number): string {
  const { mant, exp } = exactRatio(x);
  let q: bigint;
  if (exp >= 0) q = (mant << BigInt(exp)) * 10n ** BigInt(decimals);
  else {
    const scaled = mant * 10n ** BigInt(decimals);
    const den = 1n << BigInt(-exp);
    q = scaled / den;
    const r2 = (scaled % den) * 2n;
    if (r2 > den || (r2 === den && (q & 1n) === 1n)) q += 1n;
  }
  if (decimals === 0) return q.toString();
  const digits = q.toString().padStart(decimals + 1, "0");
  return `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
}

/** `format(n, "Wd")` for an integer. */
export function pyInt(n: number, width = 0): string {
  return String(n).padStart(width, " ");
}

/** Python's len(): code points, not UTF-16 units. */
export function pyLen(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** `format(s, "W")` for a string: left-aligned, padded to W code points, never truncated. */
export function pyLeft(s: string, width: number): string {
  const n = pyLen(s);
  return n >= width ? s : s + " ".repeat(width - n);
}

/** `format(s, ">W")`. */
export function pyRight(s: string, width: number): string {
  const n = pyLen(s);
  return n >= width ? s : " ".repeat(width - n) + s;
}

/** Python's sort order for str: by code point (JS's default compares UTF-16 units). */
export function pyStrCompare(a: string, b: string): number {
  const ia = a[Symbol.iterator]();
  const ib = b[Symbol.iterator]();
  for (;;) {
    const x = ia.next();
    const y = ib.next();
    if (x.done) return y.done ? 0 : -1;
    if (y.done) return 1;
    const cx = x.value.codePointAt(0)!;
    const cy = y.value.codePointAt(0)!;
    if (cx !== cy) return cx < cy ? -1 : 1;
  }
}

// Characters str.isprintable() rejects (other than the ASCII ones handled first): separators and "other" categories.
const NON_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

/** `repr(s)` for a str, as `{s!r}` prints it. */
export function pyRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === quote || ch === "\\") out += "\\" + ch;
    else if (ch === "\t") out += "\\t";
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (c < 0x20 || c === 0x7f) out += "\\x" + c.toString(16).padStart(2, "0");
    else if (c < 0x7f) out += ch;
    else if (ch !== " " && NON_PRINTABLE.test(ch)) {
      if (c < 0x100) out += "\\x" + c.toString(16).padStart(2, "0");
      else if (c < 0x10000) out += "\\u" + c.toString(16).padStart(4, "0");
      else out += "\\U" + c.toString(16).padStart(8, "0");
    } else out += ch;
  }
  return out + quote;
}
