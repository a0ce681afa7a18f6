/**
 * How any environment's recorded turn reads to people, browser-safe and pure: the action's name,
 * the action written as a tool call with numbers rounded for people, and the number guards every
 * display uses. The trace pane's entry (trace-entry.ts) is built from these.
 */

export type ActionObject = Record<string, unknown> | null | undefined;

/** The action's name in either the eval form ({"action": ...}) or the wire form ({"op": ...}). */
export function actionNameOf(action: ActionObject): string | null {
  const name = action?.action ?? action?.op;
  return typeof name === "string" ? name : null;
}

/**
 * A number as people read it (raw views show the reply as recorded): angles (`*_deg`,
 * heading, pitch, fov) to 0.1 degree, coordinates (lat, lon) to 4 decimals (about 10 m),
 * anything else to 2; no trailing zeros, and never "-0".
 */
export function roundForPeople(key: string, v: number): string {
  if (!Number.isFinite(v) || Number.isInteger(v)) return JSON.stringify(v);
  const k = key.toLowerCase();
  const digits = /(_deg|^heading|^pitch|^fov)/.test(k) ? 1 : /^(lat|lon|lng|latitude|longitude)$/.test(k) ? 4 : 2;
  const r = Number(v.toFixed(digits));
  return String(r === 0 ? 0 : r);
}

/** A parsed action written as a tool call: `look(heading_deg=90, fov_deg=90)`, numbers rounded for people; null when nothing parsed. */
export function toolCall(action: ActionObject): string | null {
  if (!action) return null;
  const name = actionNameOf(action) ?? "action";
  const args = Object.entries(action)
    .filter(([k]) => k !== "action" && k !== "op")
    .map(([k, v]) => `${k}=${typeof v === "number" ? roundForPeople(k, v) : JSON.stringify(v)}`);
  return `${name}(${args.join(", ")})`;
}

/** A finite number, else null (traces may hold null, strings or nothing where a number belongs). */
export const numOrNull = (x: unknown): number | null => (typeof x === "number" && Number.isFinite(x) ? x : null);
/** A whole number, else null. */
export const intOrNull = (x: unknown): number | null => (typeof x === "number" && Number.isInteger(x) ? x : null);
