/**
 * What a turn means, one rule for the page and the video (browser-safe, pure):
 * its action's name, whether it failed, whether it guessed, how its tool call
 * reads, and the number guards every display uses.
 */
import type { Turn } from "../schema/episode.ts";

/** Actions that end the episode with a guess (forced_guess: the environment guessed for the model). */
export const GUESS_ACTIONS: ReadonlySet<string> = new Set(["submit_guess", "guess", "forced_guess"]);
/** Guesses the model itself submitted (they carry lat/lon). */
export const SUBMITTED_GUESS_ACTIONS: ReadonlySet<string> = new Set(["submit_guess", "guess"]);
/** Actions answered with a map image rather than a street view. */
export const MAP_ACTIONS: ReadonlySet<string> = new Set(["place_pin", "pin", "view_map", "measure"]);

type ActionObject = Record<string, unknown> | null | undefined;

/** The action's name in either the eval form ({"action": ...}) or the wire form ({"op": ...}). */
export function actionNameOf(action: ActionObject): string | null {
  const name = action?.action ?? action?.op;
  return typeof name === "string" ? name : null;
}

export function actionName(t: Turn): string | null {
  return actionNameOf(t.action as ActionObject);
}

/**
 * Never reached the environment, or the environment rejected it
 * (unparseable, provider_error, invalid_action: …): the observation repeats.
 * Only `ok` and `forced_guess` turns changed anything.
 */
export function turnFailed(t: Pick<Turn, "status">): boolean {
  return t.status !== "ok" && t.status !== "forced_guess";
}

/**
 * The turn that guessed, the one rule for page and video: a turn the
 * environment accepted (never a failed one) that forced a guess, submitted
 * one, or that the environment marked `done` (it sets `done` only on the
 * guess that ends the episode: docs/trace-format.md).
 */
export function turnGuessed(t: Pick<Turn, "status" | "done" | "action">): boolean {
  if (turnFailed(t)) return false;
  const name = actionNameOf(t.action as ActionObject);
  return t.done === true || t.status === "forced_guess" || (name !== null && GUESS_ACTIONS.has(name));
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
