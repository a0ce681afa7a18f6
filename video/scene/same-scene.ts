/**
 * Whether two scenes paint alike: a structural comparison of their JSON
 * values that stops at the first difference. Hold detection asks it of every
 * pair of neighbouring frames; serialising both scenes to compare the strings
 * (what it replaces) built a string per frame even where the very first
 * primitive differs.
 *
 * A key whose value is undefined counts as absent (as JSON drops it), and
 * key order does not matter (the painter reads fields by name). Keys in
 * `ignored` count as absent at any depth.
 */
export function sameScene(a: unknown, b: unknown, ignored?: ReadonlySet<string>): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameScene(a[i], b[i], ignored)) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let present = 0;
  for (const k in x) {
    const v = x[k];
    if (v === undefined || ignored?.has(k)) continue;
    present++;
    if (!sameScene(v, y[k], ignored)) return false;
  }
  for (const k in y) if (y[k] !== undefined && !ignored?.has(k)) present--;
  return present === 0;
}
