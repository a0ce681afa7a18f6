/**
 * Escaping for everything a trace can put into the page. Trace strings are
 * untrusted: HTML text and attributes are entity-escaped, and data embedded in
 * `<script type="application/json">` cannot close the element or start a
 * comment, whatever it contains.
 */
import { createHash } from "node:crypto";

export { escapeHtml } from "./escape-html.ts";

/**
 * JSON that is safe inside a script element: `<`, `>`, `&` and the JS line
 * separators U+2028/U+2029 become \u escapes (still the same JSON value).
 */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(UNSAFE, (c) => ESCAPED[c]);
}

const UNSAFE = /[<>&\u2028\u2029]/g;
/** Each unsafe character's \u escape, computed once (the page writer escapes every episode's JSON). */
const ESCAPED: Record<string, string> = Object.fromEntries(
  ["<", ">", "&", "\u2028", "\u2029"].map((c) => [c, `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`]),
);

/** A CSP source expression pinning an inline element's exact text. */
export function cspHash(text: string): string {
  return `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
}
