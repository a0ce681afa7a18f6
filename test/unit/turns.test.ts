/**
 * What a guessing turn is has one rule (envs/geoguesser/replay/rules/turns.ts), and the
 * camera-path planner follows it: `done` (set by the environment only on the
 * guess that ends the episode) counts, a failed turn never guesses.
 */
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { turnGuessed } from "../../envs/geoguesser/replay/rules/turns.ts";
import { planEpisode } from "../../envs/geoguesser/replay/plan/segments.ts";
import { EpisodeSchema } from "../../envs/geoguesser/replay/schema/episode.ts";
import { TRIESTE } from "../helpers.ts";

const turn = (o: { status?: string; done?: boolean | null; action?: Record<string, unknown> | null }) => ({
  status: o.status ?? "ok",
  done: o.done ?? null,
  action: o.action ?? null,
});

describe("turnGuessed", () => {
  it("counts submitted and forced guesses and turns the environment marked done", () => {
    expect(turnGuessed(turn({ action: { action: "guess", lat: 1, lon: 2 } }))).toBe(true);
    expect(turnGuessed(turn({ action: { op: "submit_guess", lat: 1, lon: 2 } }))).toBe(true);
    expect(turnGuessed(turn({ status: "forced_guess" }))).toBe(true);
    expect(turnGuessed(turn({ done: true, action: { action: "answer" } }))).toBe(true);
    expect(turnGuessed(turn({ action: { action: "look", heading_deg: 3 } }))).toBe(false);
  });

  it("never counts a turn the environment rejected or never saw", () => {
    expect(turnGuessed(turn({ status: "invalid_action", action: { action: "guess", lat: 99, lon: 2 } }))).toBe(false);
    expect(turnGuessed(turn({ status: "unparseable", done: null }))).toBe(false);
  });
});

describe("the planner uses the rule", () => {
  it("a last turn marked done under an action name it does not know is still the guess", () => {
    const raw = JSON.parse(readFileSync(join(TRIESTE, "episodes.jsonl"), "utf8").split("\n")[0]);
    const last = raw.turns[raw.turns.length - 1];
    expect(turnGuessed(last)).toBe(true);
    const before = planEpisode(EpisodeSchema.parse(raw), { fps: 30 });
    last.action = { ...last.action, action: "final_answer" };
    const after = planEpisode(EpisodeSchema.parse(raw), { fps: 30 });
    expect(last.done).toBe(true);
    expect(after.guessed).toBe(true);
    expect(after.segments.map((s) => s.kind)).toEqual(before.segments.map((s) => s.kind));
  });
});
