/** `georeplay groups` and `verify`'s determinism check, through the built CLI on recorded rollouts. */
import { describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { runCli, FIXTURES, MIXED } from "../helpers.ts";
import { GroupsReportSchema } from "../../replay/groups/groups-schema.ts";

const TRAIN = join(FIXTURES, "train-rollouts.jsonl");
const replay = ["--tasks", join(MIXED, "tasks.jsonl"), "--panos", join(MIXED, "panos")];
const lines = () => readFileSync(TRAIN, "utf8").split("\n").filter(Boolean);

function withTemp<T>(fn: (dir: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), "georeplay-groups-cli-"));
  try {
    return fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("georeplay groups", () => {
  it("prints one row per step and the run's summary", () => {
    const r = runCli(["groups", TRAIN]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe("");
    const out = r.stdout.split("\n");
    expect(out[0]).toMatch(/^step\s+groups\s+episodes\s+mean env reward\s+zero-std\s+median std\s+multiplier$/);
    // Step 0: 3 groups, 4 rollouts, mean (0.834 + 0.6562 + 0.6787 + 0.622) / 4 = 0.697725; its one pair's std |0.6562 - 0.622| / sqrt 2.
    expect(out[1]).toMatch(/^0\s+3\s+4\s+0\.6977\s+0\.00\s+0\.0242\s+41\.2x$/);
    expect(out[3]).toMatch(/^2\s+2\s+2\s+0\.5537\s+0\.00\s+-\s+-$/);
    expect(r.stdout).toContain("run synthetic-grpo-run · 3 steps · 7 groups · 10 rollouts · reward outcome.reward · scale_rewards group");
    expect(r.stdout).toContain("steps with frac_reward_zero_std = 1 (no group had any spread): none");
    expect(r.stdout).toContain("largest multipliers: step 0 41.2x");
    expect(r.stdout).toContain("4 group(s) of a single rollout: no sample std (torch: NaN), advantage 0");
  });

  it("--detail lists each step's groups with rewards and advantages", () => {
    const r = runCli(["groups", TRAIN, "--detail"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("step 0 · 3 groups · 4 episodes · mean env reward 0.6977 · zero-std 0.00 · median std 0.0242 (41.2x)");
    // Step 0's pair (lines 2 and 4): rewards 0.6562 and 0.622, advantages ±0.0171 / 0.02428 = ±0.70.
    expect(r.stdout).toMatch(/\n {2}eval\/3 +2 +0\.6391 +0\.0242 +0\.656 0\.622 +\+0\.70 -0\.70\n/);
    expect(r.stdout).toMatch(/\n {2}eval\/2 +1 +0\.8340 +- +0\.834 +\+0\.00\n/);
  });

  it("--json matches the zod schema and the JSON Schema `schema groups` prints", () => {
    const r = runCli(["groups", TRAIN, "--json", "--scale-rewards", "none"]);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(GroupsReportSchema.parse(report)).toEqual(report);
    const s = runCli(["schema", "groups"]);
    expect(s.code).toBe(0);
    const schema = JSON.parse(s.stdout);
    expect(schema.title).toBe("georeplay: `georeplay groups --json` output");
    const validate = new Ajv2020({ strict: false, allErrors: true }).compile(schema);
    expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...report, steps: "many" })).toBe(false);
    expect(report.scale_rewards).toBe("none");
    const pair = report.groups.find((g: { step: number; task: { index: number } }) => g.step === 0 && g.task.index === 3);
    expect(pair.rollouts).toEqual([`${TRAIN}:2`, `${TRAIN}:4`]);
    expect(pair.advantages[0]).toBeCloseTo((0.6562 - 0.622) / 2, 15); // r - mean, undivided
  });

  it("bad input: file, line and field on stderr, exit 2, no stack", () =>
    withTemp((dir) => {
      const file = join(dir, "rollouts-rank1.jsonl");
      const row = JSON.parse(lines()[0]);
      delete row.outcome.reward;
      writeFileSync(file, lines()[1] + "\n" + JSON.stringify(row) + "\n");
      const r = runCli(["groups", file]);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toContain(`${file}:2: outcome.reward: expected number, got nothing (field missing)`);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      const bad = runCli(["groups", TRAIN, "--scale-rewards", "sometimes"]);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain("'sometimes' is invalid");
      const evalFile = runCli(["groups", join(MIXED, "episodes.jsonl")]);
      expect(evalFile.code).toBe(2);
      expect(evalFile.stderr).toContain("episodes.jsonl:1: run: expected string, got nothing (field missing): this record is an eval episode");
    }));

  it("byte-identical siblings, ranks and TRL's reward_std; the summary names steps as steps and leaves zero-spread ones out of the multipliers", () =>
    withTemp((dir) => {
      // Lines 1, 9 and 10 again: step 0's eval/2 and step 2's eval/0 and eval/5 become pairs of identical games (zero spread),
      // so step 2 has no spread at all (median std 0: a 10,000x "multiplier" that scales nothing).
      // Both files in one folder: siblings sort by file path, so the order must not hang on where the checkout lives.
      const train = join(dir, "train-rollouts.jsonl");
      writeFileSync(train, readFileSync(TRAIN));
      const again = join(dir, "rollouts-again.jsonl");
      writeFileSync(again, [lines()[0], lines()[8], lines()[9]].join("\n") + "\n");
      const r = runCli(["groups", train, again, "--detail"]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain("steps with frac_reward_zero_std = 1 (no group had any spread): step 2\n");
      expect(r.stdout).toContain("\nlargest multipliers: step 0 82.0x (median std 0.0121), step 1 14.2x (median std 0.0703)\n");
      // --detail: each group's identical siblings by rank, then its siblings by rank with file:line.
      expect(r.stdout).toMatch(
        /\n {2}eval\/2 +2 +0\.8340 +0\.0000 +zero +0\.834 0\.834 +\+0\.00 \+0\.00 +#1=#2\n {6}#1 [^\n]*rollouts-again\.jsonl:1 \(\+0\.00\), #2 [^\n]*train-rollouts\.jsonl:1 \(\+0\.00\)\n/,
      );
      expect(r.stdout).toMatch(/\n {6}#1 [^\n]*train-rollouts\.jsonl:8 \(\+0\.71\), #2 [^\n]*train-rollouts\.jsonl:7 \(-0\.71\)\n/);

      const json = JSON.parse(runCli(["groups", train, again, "--json"]).stdout);
      expect(GroupsReportSchema.parse(json)).toEqual(json);
      const at = (step: number, index: number) => json.groups.find((g: { step: number; task: { index: number } }) => g.step === step && g.task.index === index);
      expect(at(0, 2)).toMatchObject({ zero_std: true, identical: [[0, 1]], ranks: [1, 2] });
      // Different games: not identical, ranked by advantage (line 8 above line 7).
      expect(at(1, 0)).toMatchObject({ identical: [], ranks: [2, 1], rollouts: [`${train}:7`, `${train}:8`] });
      expect(json.summary.largest_multipliers.map((m: { step: number }) => m.step)).toEqual([0, 1]);
      // reward_std: the mean of the group stds over the step's rollouts (groups of one left out): step 0's eval/2 (0) and eval/3.
      const step0 = json.steps[0];
      expect(step0.mean_group_std).toBeCloseTo((0 * 2 + at(0, 3).std * 2) / 4, 15);
      expect(json.steps[2].mean_group_std).toBe(0);
    }));

  it("--help shows the modes and an example", () => {
    const r = runCli(["groups", "--help"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("--scale-rewards <mode>");
    expect(r.stdout).toContain('choices: "group", "batch", "none"');
    expect(r.stdout).toContain("georeplay groups run/traces/rollouts-rank0.jsonl run/traces/rollouts-rank1.jsonl");
  });
});

describe("verify: every sibling of a GRPO group starts from the same first view", () => {
  it("the recorded rollouts keep the contract (3 groups of two compared)", () => {
    const r = runCli(["verify", TRAIN, ...replay, "--json"]);
    const rep = JSON.parse(r.stdout);
    expect(rep.group_starts).toEqual({ compared: 3, failures: [] });
    withTemp((dir) => {
      // Without line 4 (its turn 1 hash was altered on purpose) every view matches: exit 0.
      const file = join(dir, "rollouts.jsonl");
      writeFileSync(
        file,
        lines()
          .filter((_, i) => i !== 3)
          .join("\n") + "\n",
      );
      const ok = runCli(["verify", file, ...replay]);
      expect(ok.code, ok.stdout + ok.stderr).toBe(0);
      expect(ok.stdout).toContain("2 GRPO group(s) of two or more rollouts: every sibling starts from the same first view");
    });
  });

  it("a sibling whose first view drifted fails the group, naming it, its siblings and what differs (exit 1)", () =>
    withTemp((dir) => {
      // Lines 7 and 8 are step 1's two rollouts of eval/0; a third sibling starts from another image.
      const file = join(dir, "rollouts.jsonl");
      const drifted = JSON.parse(lines()[6]);
      drifted.turns[0].image_sha256 = "0123456789abcdef";
      writeFileSync(file, [...lines().filter((_, i) => i !== 3), JSON.stringify(drifted)].join("\n") + "\n");
      const r = runCli(["verify", file, ...replay]);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stdout).toContain(
        `GROUP DRIFT group step 1 task eval/0 (run synthetic-grpo-run): its 3 siblings do not start from the same view, so its advantages measure that difference, not the policy: first image hash: 68c2587c5789eeb6 (${file}:6, ${file}:7) vs 0123456789abcdef (${file}:10)`,
      );
      expect(r.stdout).toContain("DRIFT: 1 GRPO group(s) whose siblings start from different views");
      const json = JSON.parse(runCli(["verify", file, ...replay, "--json"]).stdout);
      expect(json.group_starts.compared).toBe(2);
      expect(json.group_starts.failures).toHaveLength(1);
      expect(json.group_starts.failures[0]).toMatchObject({
        run: "synthetic-grpo-run",
        step: 1,
        split: "eval",
        index: 0,
        group_id: null,
        siblings: [`${file}:6`, `${file}:7`, `${file}:10`],
        differs: [{ what: "first image hash", variants: [{ value: "68c2587c5789eeb6" }, { value: "0123456789abcdef", siblings: [`${file}:10`] }] }],
      });
    }));
});
