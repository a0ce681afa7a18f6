/**
 * `GeoreplayError.problems` names real places (file, line, field) wherever
 * the problem has one, so the README's example (`${p.file}:${p.line}: ...`)
 * prints locations, not `?:?:`.
 */
import { describe, expect, it, beforeAll, afterAll } from "vitest";
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  verify,
  generateFrames,
  report,
  groups,
  computeGroups,
  GroupsReportSchema,
  GeoreplayError,
  type GroupsReport,
  type RolloutNumbers,
} from "../../src/index.ts";
import { problemsByTurn, problemsOf } from "../../replay/io/errors.ts";
import { MIXED, FIXTURES } from "../helpers.ts";

let dir: string;
beforeAll(() => (dir = mkdtempSync(join(tmpdir(), "georeplay-problems-"))));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const replay = { tasks: join(MIXED, "tasks.jsonl"), panos: join(MIXED, "panos") };

/** What the call threw, as the README's example prints it. */
async function caught(call: Promise<unknown>): Promise<{ error: GeoreplayError; printed: string[] }> {
  const e = await call.then(
    () => null,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(GeoreplayError);
  const error = e as GeoreplayError;
  return { error, printed: error.problems.map((p) => `${p.file ?? "?"}:${p.line ?? "?"}: ${p.message}`) };
}

describe("GeoreplayError.problems", () => {
  it("an input that does not exist: its path", async () => {
    const missing = join(dir, "nope.jsonl");
    const { error } = await caught(verify({ episodes: [missing], ...replay }));
    expect(error.problems).toEqual([{ file: missing, line: null, field: null, message: `${missing}: no such file` }]);
  });

  it("a file that matches no recording format: the file and line 1", async () => {
    const odd = join(dir, "odd.jsonl");
    writeFileSync(odd, '{"hello": 1}\n');
    const { error, printed } = await caught(verify({ episodes: [odd], ...replay }));
    expect(error.problems).toHaveLength(1);
    expect(error.problems[0]).toMatchObject({ line: 1 });
    expect(error.problems[0].file).toMatch(/odd\.jsonl$/);
    expect(printed[0]).not.toMatch(/^\?/);
  });

  it("a --tasks path that does not exist: that path", async () => {
    const tasks = join(dir, "no-tasks");
    const { error } = await caught(verify({ episodes: [join(MIXED, "episodes.jsonl")], tasks, panos: replay.panos }));
    expect(error.problems[0]).toMatchObject({ file: tasks, line: null });
  });

  it("a drifted view refused by frames: the episode's file and line, kind drift", async () => {
    const { error } = await caught(generateFrames({ episodes: [join(MIXED, "episodes.jsonl")], episode: "0ec192c0f90d", ...replay, out: join(dir, "f") }));
    expect(error.kind).toBe("drift");
    expect(error.problems[0]).toMatchObject({ file: join(MIXED, "episodes.jsonl"), line: 2 });
  });

  it("an invalid board record: file, line and field", async () => {
    const { error, printed } = await caught(report([join(FIXTURES, "boards", "crash-noindex")]));
    expect(error.problems[0].file).toMatch(/crash-noindex\/episodes\.jsonl$/);
    expect(error.problems[0].line).toBeGreaterThan(0);
    expect(error.problems[0].field).not.toBeNull();
    expect(printed[0]).not.toMatch(/\?/);
  });

  it("a missing panorama: one problem per episode naming every turn it stopped, not one per view", async () => {
    const panos = join(dir, "panos-missing");
    cpSync(replay.panos, panos, { recursive: true });
    rmSync(join(panos, "1051700993720114.jpg"));
    const r = await verify({ episodes: [join(MIXED, "episodes.jsonl")], tasks: replay.tasks, panos });
    const ofPano = r.errors.filter((e) => e.message.includes("1051700993720114.jpg"));
    expect(ofPano.length).toBeGreaterThan(0);
    const keys = ofPano.map((e) => `${e.file}:${e.line}:${e.message}`);
    expect(new Set(keys).size, "no repeated problem").toBe(keys.length);
    expect(new Set(ofPano.map((e) => e.episode_id)).size, "one per episode").toBe(ofPano.length);
    for (const e of ofPano) expect(e.message).toMatch(/: episode [0-9a-f]{12}: turns? \d+(, \d+)*: panorama .*1051700993720114\.jpg: no such file/);
    expect(
      ofPano.some((e) => /: turns \d+, \d+/.test(e.message)),
      "a panorama used by several views names them all",
    ).toBe(true);
  });

  it("problemsByTurn: one line per distinct message, turns in order seen", () => {
    expect(
      problemsByTurn([
        { turn: 2, message: "a" },
        { turn: 3, message: "b" },
        { turn: 5, message: "a" },
      ]),
    ).toEqual(["turns 2, 5: a", "turn 3: b"]);
    expect(problemsByTurn([])).toEqual([]);
  });

  it("reads every located line of a message, with its field when one is at fault", () => {
    const text = "a.jsonl:3: turns[2].camera_after.fov_deg: expected a number, got null\nb.jsonl:9: episode x: missing";
    expect(problemsOf(text)).toEqual([
      { file: "a.jsonl", line: 3, field: "turns[2].camera_after.fov_deg", message: "a.jsonl:3: turns[2].camera_after.fov_deg: expected a number, got null" },
      { file: "b.jsonl", line: 9, field: null, message: "b.jsonl:9: episode x: missing" },
    ]);
    expect(problemsOf("--panos /p: not a directory")).toEqual([{ file: "/p", line: null, field: null, message: "--panos /p: not a directory" }]);
    expect(problemsOf("--shard 5/4: i must be between 1 and n")).toEqual([
      { file: null, line: null, field: null, message: "--shard 5/4: i must be between 1 and n" },
    ]);
  });
});

describe("groups (the public API)", () => {
  const TRAIN = join(FIXTURES, "train-rollouts.jsonl");

  it("groups() gives the object `groups --json` prints, valid against GroupsReportSchema", async () => {
    const r = await groups([TRAIN]);
    expect(GroupsReportSchema.parse(r)).toEqual(r);
    expect(r.rollouts).toBe(10);
    expect(r.steps.map((s) => s.step)).toEqual([0, 1, 2]);
    expect(r.groups.every((g) => g.rollouts.every((x) => x.startsWith(`${TRAIN}:`)))).toBe(true);
    const batch = await groups([TRAIN], { scaleRewards: "batch" });
    expect(batch.scale_rewards).toBe("batch");
  });

  it("computeGroups: the same numbers from rollouts in memory", () => {
    const at = (reward: number, line: number): RolloutNumbers => ({
      run: "r",
      step: 0,
      split: "train",
      index: 1,
      groupId: null,
      reward,
      file: "a.jsonl",
      line,
    });
    const r: GroupsReport = computeGroups([at(1, 1), at(0, 2)]);
    expect(r.groups[0].std).toBeCloseTo(Math.SQRT1_2, 12);
    expect(r.groups[0].advantages[0]).toBeCloseTo(0.5 / (Math.SQRT1_2 + 1e-4), 12);
    expect(r.steps[0].frac_reward_zero_std).toBe(0);
  });

  it("a rollout without a reward: a GeoreplayError naming its file and line", async () => {
    const bad = join(dir, "rollouts-bad.jsonl");
    writeFileSync(bad, JSON.stringify({ run: "r", step: 0, task: { split: "train", index: 0 }, outcome: {}, turns: [] }) + "\n");
    const e = await groups([bad]).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(GeoreplayError);
    expect((e as Error).message).toContain(`${bad}:1: outcome.reward`);
  });
});
