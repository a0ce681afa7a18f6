/** STUB until the text module lands: greedy word wrap. */
import type { FontSpec } from "./fonts.ts";
export type Measure = (text: string, font: FontSpec) => number;
export function printable(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\r\n?/g, "\n").replace(/\t/g, "    ").replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, "\uFFFD");
}
export function fitLine(text: string, font: FontSpec, maxWidth: number, measure: Measure, ellipsis = "…"): string {
  const t = text.replace(/\n/g, " ");
  if (measure(t, font) <= maxWidth) return t;
  const g = [...t];
  while (g.length > 0 && measure(g.join("") + ellipsis, font) > maxWidth) g.pop();
  return g.join("") + ellipsis;
}
export function wrapText(text: string, font: FontSpec, maxWidth: number, measure: Measure, opts: { maxLines?: number; ellipsis?: string } = {}): { lines: string[]; truncated: boolean } {
  const lines: string[] = [];
  for (const para of text.split("\n")) {
    let cur = "";
    for (const w of para.split(/(?<= )/)) {
      if (cur && measure((cur + w).trimEnd(), font) > maxWidth) {
        lines.push(cur.trimEnd());
        cur = w;
      } else cur += w;
    }
    lines.push(cur.trimEnd());
  }
  const max = opts.maxLines ?? Infinity;
  if (lines.length <= max) return { lines, truncated: false };
  const kept = lines.slice(0, max);
  kept[max - 1] = fitLine(kept[max - 1] + " " + "\u2026".repeat(40), font, maxWidth, measure, opts.ellipsis ?? "…");
  return { lines: kept, truncated: true };
}
