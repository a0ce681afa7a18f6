/**
 * What a turn means, one rule for the page and the video (browser-safe, pure):
 * its action's name, whether it failed, whether it guessed, how its tool call
 * reads, and the number guards every display uses.
 */
import type { Turn } from "../schema/episode.ts";
import { actionNameOf, type ActionObject } from "../../../../replay/trace/tool-call.ts";
export { actionNameOf, roundForPeople, toolCall, numOrNull, intOrNull } from "../../../../replay/trace/tool-call.ts";

/** Actions that end the episode with a guess (forced_guess: the environment guessed for the model). */
export const GUESS_ACTIONS: ReadonlySet<string> = new Set(["submit_guess", "guess", "forced_guess"]);
/** Guesses the model itself submitted (they carry lat/lon). */
export const SUBMITTED_GUESS_ACTIONS: ReadonlySet<string> = new Set(["submit_guess", "guess"]);
/** Actions answered with a map image rather than a street view. */
export const MAP_ACTIONS: ReadonlySet<string> = new Set(["place_pin", "pin", "view_map", "measure"]);

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
