/**
 * Colours of the crops scenes. A box is coloured by what it says it is (its label's class, or
 * the label's words when no class knows them), so two boxes of cars share a colour across turns
 * and siblings; the score card's verdicts have their own colours, apart from every label's.
 */
import { canonical, words } from "../replay/labels.ts";

/** Hues for labels: bright on the dark background and on photographs, none of them the verdicts' red, orange, yellow or pink (0: white). */
const LABEL_HUES = [200, 140, 270, 175, 95, 235, 120, 300, 0];

/** The key a label is coloured by: its class, else its words, else the trimmed text. */
export function labelKey(label: string): string {
  return canonical(label) ?? (words(label).join(" ") || label.trim().toLowerCase());
}

/** FNV-1a over the key's UTF-16 units: the same label gives the same colour in every video. */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

export function labelColour(label: string): string {
  const hue = LABEL_HUES[hash(labelKey(label)) % LABEL_HUES.length];
  return hue === 0 ? "#e6e9ee" : `hsl(${hue}, 85%, 62%)`;
}

export const VERDICT = {
  truth: "#f4f4f4",
  missed: "#ff8a1f",
  falseAlarm: "#ff3b7f",
  wrongLabel: "#ffd23f",
  match: "#5fb37a",
};
