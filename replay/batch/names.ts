/**
 * Output names of a batch, in any environment: every part comes from a trace (ids, split names,
 * arms are model names), untrusted text, so each is reduced to [A-Za-z0-9_-] and never used as a
 * path of its own; a later duplicate gets a number.
 */

/** A file-system safe name from trace text (the rule of GeoGuesser's frames folders). */
export function stemSlug(text: string): string {
  const s = text
    .replace(/[^A-Za-z0-9_-]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 64);
  return s || "episode";
}

/** Stems made unique in order: a later duplicate gets `-2`, `-3`, ... (case-insensitively, for case-folding file systems). */
export function uniqueStems(stems: string[]): string[] {
  const seen = new Set<string>();
  return stems.map((s) => {
    let name = s;
    for (let k = 2; seen.has(name.toLowerCase()); k++) name = `${s}-${k}`;
    seen.add(name.toLowerCase());
    return name;
  });
}
