/** STUB until the text module lands: the font chain as a Canvas font string. */
export type FontRole = "sans" | "mono";
export interface FontSpec {
  role: FontRole;
  size: number;
  weight: 400 | 600 | 700 | 800;
  italic?: boolean;
}
const CHAIN = `"Noto Sans Arabic", "Noto Sans Hebrew", "Noto Sans Devanagari", "Noto Sans Thai", "Noto Sans CJK JP", "Noto Color Emoji"`;
export function cssFont(spec: FontSpec): string {
  const first = spec.role === "mono" ? `"JetBrains Mono"` : "Inter";
  return `${spec.italic ? "italic " : ""}${spec.weight} ${Math.round(spec.size * 100) / 100}px ${first}, ${CHAIN}`;
}
