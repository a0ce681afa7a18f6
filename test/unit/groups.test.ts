/**
 * GRPO groups against hand-computed numbers: TRL's GRPOTrainer takes the group
 * mean, the sample std (Bessel) and divides by std + 1e-4 (scale_rewards
 * "group"), by the step's std ("batch"), or not at all ("none").
 */
import { describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { computeGroups, type RolloutNumbers } from "../../replay/groups/groups.ts";
import { readGroups } from "../../replay/groups/read.ts";
import { checkGroupStarts, type SiblingStart } from "../../replay/groups/determinism.ts";
import { firstViewOf } from "../../envs/geoguesser/replay/verify/first-view.ts";
import { GroupsReportSchema } from "../../replay/groups/groups-schema.ts";
import { isCloseToZero, median, sampleStd } from "../../replay/groups/stats.ts";
import { GeoreplayError } from "../../replay/io/errors.ts";
import { trainToEpisode, TrainRolloutSchema } from "../../envs/geoguesser/replay/formats/train.ts";
import { FIXTURES } from "../helpers.ts";

const TRAIN = join(FIXTURES, "train-rollouts.jsonl");

/** Rollouts of one run: [step, split, index, reward], each on its own line of file "r.jsonl". */
function rollouts(rows: [number, string, number, number][], file = "r.jsonl"): RolloutNumbers[] {
  return rows.map(([step, split, index, reward], i) => ({ run: "run", step, split, index, groupId: null, reward, file, line: i + 1 }));
}

// Step 0: task eval/0 rewards [1, 0, 0.5] (mean 0.5, std 0.5); task eval/1 rewards [0.25, 0.25, 0.25] (zero spread).
const TWO_TASKS = rollouts([
  [0, "eval", 0, 1],
  [0, "eval", 1, 0.25],
  [0, "eval", 0, 0],
  [0, "eval", 1, 0.25],
  [0, "eval", 0, 0.5],
  [0, "eval", 1, 0.25],
]);

describe("group numbers, as TRL computes them", () => {
  it("rewards [1, 0, 0.5]: mean 0.5, std 0.5 (n - 1), advantages ±0.5 / 0.5001 and 0", () => {
    const r = computeGroups(
      rollouts([
        [3, "train", 7, 1],
        [3, "train", 7, 0],
        [3, "train", 7, 0.5],
      ]),
    );
    expect(r.groups).toHaveLength(1);
    const g = r.groups[0];
    expect(g).toMatchObject({ run: "run", step: 3, task: { split: "train", index: 7 }, group_id: null, size: 3, rewards: [1, 0, 0.5], zero_std: false });
    expect(g.mean).toBe(0.5);
    expect(g.std).toBe(0.5); // population std would be 0.408
    expect(g.advantages).toEqual([0.5 / 0.5001, -0.5 / 0.5001, 0]);
    expect(g.rollouts).toEqual(["r.jsonl:1", "r.jsonl:2", "r.jsonl:3"]);
    expect(g.episode_ids).toEqual(["r-L1", "r-L2", "r-L3"]);
  });

  it("zero spread: equal rewards have std 0, advantages 0 and zero_std; isclose's atol is 1e-8", () => {
    const r = computeGroups(
      rollouts([
        [0, "eval", 1, 0.25],
        [0, "eval", 1, 0.25],
        [0, "eval", 1, 0.25],
        [0, "eval", 1, 0.25],
      ]),
    );
    expect(r.groups[0]).toMatchObject({ std: 0, zero_std: true, advantages: [0, 0, 0, 0], mean: 0.25 });
    expect(r.steps[0].frac_reward_zero_std).toBe(1);
    expect(r.summary.all_zero_std_steps).toEqual([{ run: "run", step: 0 }]);
    // torch.isclose(std, 0) with rtol 1e-5, atol 1e-8: |std| <= 1e-8.
    expect(isCloseToZero(sampleStd([0.3, 0.3 + 1e-9]))).toBe(true); // std ~7.1e-10
    expect(isCloseToZero(sampleStd([0.3, 0.3 + 1e-7]))).toBe(false); // std ~7.1e-8
    expect(isCloseToZero(null)).toBe(false);
  });

  it("a single-rollout group: std null (torch: NaN), advantage 0, not zero spread, left out of the median", () => {
    const r = computeGroups(
      rollouts([
        [0, "eval", 5, 0.9],
        [0, "eval", 6, 0.2],
        [0, "eval", 6, 0.6],
      ]),
    );
    const [one, two] = r.groups;
    expect(one).toMatchObject({ task: { split: "eval", index: 5 }, size: 1, mean: 0.9, std: null, advantages: [0], zero_std: false });
    // The pair: mean 0.4, std sqrt(((0.2)^2 + (0.2)^2) / 1) = 0.2 * sqrt(2).
    expect(two.mean).toBeCloseTo(0.4, 15);
    expect(two.std).toBeCloseTo(0.2 * Math.SQRT2, 15);
    expect(r.steps[0].median_group_std).toBe(two.std); // the single rollout has no std to count
    expect(r.steps[0].frac_reward_zero_std).toBe(0);
    expect(r.summary.single_rollout_groups).toBe(1);
    // Under every mode a lone rollout is its own mean.
    for (const mode of ["batch", "none"] as const) expect(computeGroups(rollouts([[0, "eval", 5, 0.9]]), mode).groups[0].advantages).toEqual([0]);
  });

  it("two tasks in one step: two groups, and the step's numbers over both", () => {
    const r = computeGroups(TWO_TASKS);
    expect(r.groups.map((g) => [g.task.index, g.size, g.mean, g.std, g.zero_std])).toEqual([
      [0, 3, 0.5, 0.5, false],
      [1, 3, 0.25, 0, true],
    ]);
    // Siblings keep file-then-line order: eval/0 is lines 1, 3, 5.
    expect(r.groups[0].rollouts).toEqual(["r.jsonl:1", "r.jsonl:3", "r.jsonl:5"]);
    expect(r.steps).toHaveLength(1);
    const s = r.steps[0];
    expect(s).toMatchObject({ run: "run", step: 0, groups: 2, episodes: 6 });
    expect(s.mean_reward).toBeCloseTo(2.25 / 6, 15); // (1 + 0 + 0.5 + 3 x 0.25) / 6 = 0.375
    expect(s.frac_reward_zero_std).toBe(0.5); // 3 of 6 rollouts sit in a zero-spread group
    expect(s.median_group_std).toBe(0.25); // median of [0, 0.5]
    expect(s.multiplier).toBe(1 / 0.2501);
    expect(r.summary).toMatchObject({ steps: 1, groups: 2, median_group_std: 0.25, all_zero_std_steps: [] });
    expect(r.summary.largest_multipliers).toEqual([{ run: "run", step: 0, multiplier: 1 / 0.2501, median_group_std: 0.25 }]);
    expect(GroupsReportSchema.parse(r)).toEqual(r);
  });

  it("scale_rewards group, batch and none", () => {
    // Batch std over the step's 6 rewards [1, 0, 0.5, 0.25, 0.25, 0.25]: mean 0.375, squared deviations
    // 0.390625 + 0.140625 + 0.015625 + 3 x 0.015625 = 0.59375, / 5 = 0.11875.
    const batchStd = Math.sqrt(0.11875);
    const group = computeGroups(TWO_TASKS, "group");
    const batch = computeGroups(TWO_TASKS, "batch");
    const none = computeGroups(TWO_TASKS, "none");
    expect(group.groups[0].advantages).toEqual([0.5 / 0.5001, -0.5 / 0.5001, 0]);
    expect(group.groups[1].advantages).toEqual([0, 0, 0]);
    expect(batch.steps[0].batch_std).toBeCloseTo(batchStd, 15);
    const [a, b, c] = batch.groups[0].advantages;
    expect(a).toBeCloseTo(0.5 / (batchStd + 1e-4), 14);
    expect(b).toBeCloseTo(-0.5 / (batchStd + 1e-4), 14);
    expect(c).toBe(0);
    expect(batch.groups[1].advantages).toEqual([0, 0, 0]);
    expect(none.groups[0].advantages).toEqual([0.5, -0.5, 0]);
    expect(none.groups[1].advantages).toEqual([0, 0, 0]);
    // The grouping and the group stds do not depend on the mode.
    for (const r of [batch, none]) {
      expect(r.groups.map((g) => [g.std, g.zero_std])).toEqual(group.groups.map((g) => [g.std, g.zero_std]));
      expect(r.steps).toEqual(group.steps);
    }
    expect([group.scale_rewards, batch.scale_rewards, none.scale_rewards]).toEqual(["group", "batch", "none"]);
  });

  it("a recorded group_id wins over the task", () => {
    const rows: RolloutNumbers[] = [
      { run: "run", step: 0, split: "eval", index: 0, groupId: "g-b", reward: 1, file: "r.jsonl", line: 1 },
      { run: "run", step: 0, split: "eval", index: 0, groupId: "g-a", reward: 0, file: "r.jsonl", line: 2 },
      { run: "run", step: 0, split: "eval", index: 0, groupId: "g-b", reward: 0, file: "r.jsonl", line: 3 },
    ];
    const r = computeGroups(rows);
    expect(r.groups.map((g) => [g.group_id, g.size, g.rewards])).toEqual([
      ["g-a", 1, [0]],
      ["g-b", 2, [1, 0]],
    ]);
  });

  it("steps sort by number, and the run summary ranks multipliers", () => {
    const r = computeGroups(
      rollouts([
        [10, "eval", 0, 0.5],
        [10, "eval", 0, 0.51],
        [2, "eval", 0, 0],
        [2, "eval", 0, 1],
        [3, "eval", 0, 0.4],
        [3, "eval", 0, 0.4],
      ]),
    );
    expect(r.steps.map((s) => s.step)).toEqual([2, 3, 10]);
    expect(r.summary.all_zero_std_steps).toEqual([{ run: "run", step: 3 }]);
    // Step 3's std is 0 (multiplier 1 / 1e-4, scaling nothing: its advantages are 0): left out; step 10's std is 0.01 / sqrt(2); step 2's sqrt(0.5).
    expect(r.summary.largest_multipliers.map((m) => m.step)).toEqual([10, 2]);
    expect(r.steps.find((s) => s.step === 3)!.multiplier).toBeCloseTo(1e4, 9);
    expect(r.summary.median_group_std).toBe(median([0, Math.SQRT1_2, sampleStd([0.5, 0.51])!]));
  });
});

describe("reading rank files", () => {
  const line = (step: number, index: number, reward: number) =>
    JSON.stringify({ run: "r", step, model: "m", task: { split: "eval", index }, outcome: { reward }, turns: [] });

  it("three ranks' files merge into the same groups whatever order they come in; siblings by file (rank2 before rank10), then line", async () => {
    const dir = mkdtempSync(join(tmpdir(), "georeplay-groups-"));
    try {
      // Step 0 task 0 has one rollout on each rank; step 0 task 1 two on rank2 and one on rank10.
      const files = {
        "rollouts-rank0.jsonl": [line(0, 0, 1), line(1, 0, 0.2)],
        "rollouts-rank2.jsonl": [line(0, 1, 0.3), line(0, 0, 0), line(0, 1, 0.6)],
        "rollouts-rank10.jsonl": [line(0, 0, 0.5), line(0, 1, 0.9), line(1, 0, 0.4)],
      };
      for (const [name, lines] of Object.entries(files)) writeFileSync(join(dir, name), lines.join("\n") + "\n");
      const paths = Object.keys(files).map((n) => join(dir, n));
      const forward = (await readGroups(paths)).report();
      const backward = (await readGroups([...paths].reverse())).report();
      const folder = (await readGroups([dir])).report();
      expect(backward).toEqual(forward);
      expect(folder).toEqual(forward);
      expect(forward.rollouts).toBe(8);
      const at = (f: string, l: number) => `${join(dir, f)}:${l}`;
      expect(forward.groups.map((g) => [g.step, g.task.index, g.rewards, g.rollouts])).toEqual([
        [0, 0, [1, 0, 0.5], [at("rollouts-rank0.jsonl", 1), at("rollouts-rank2.jsonl", 2), at("rollouts-rank10.jsonl", 1)]],
        [0, 1, [0.3, 0.6, 0.9], [at("rollouts-rank2.jsonl", 1), at("rollouts-rank2.jsonl", 3), at("rollouts-rank10.jsonl", 2)]],
        [1, 0, [0.2, 0.4], [at("rollouts-rank0.jsonl", 2), at("rollouts-rank10.jsonl", 3)]],
      ]);
      expect(forward.groups[0].advantages).toEqual([0.5 / 0.5001, -0.5 / 0.5001, 0]);
      expect(forward.groups[0].episode_ids).toEqual(["rollouts-rank0-L1", "rollouts-rank2-L2", "rollouts-rank10-L1"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("the recorded fixture: 10 rollouts, 7 groups over 3 steps", async () => {
    const r = (await readGroups([TRAIN])).report();
    expect(r.rollouts).toBe(10);
    expect(r.steps.map((s) => [s.step, s.groups, s.episodes])).toEqual([
      [0, 3, 4],
      [1, 2, 4],
      [2, 2, 2],
    ]);
    const g = r.groups.find((x) => x.step === 0 && x.task.index === 3)!;
    expect(g.rewards).toEqual([0.6562, 0.622]); // lines 2 and 4
    expect(g.rollouts).toEqual([`${TRAIN}:2`, `${TRAIN}:4`]);
    expect(g.std).toBeCloseTo(Math.abs(0.6562 - 0.622) / Math.SQRT2, 15);
  });

  it("a record without outcome.reward is refused, naming file, line and field", async () => {
    const dir = mkdtempSync(join(tmpdir(), "georeplay-groups-"));
    try {
      const file = join(dir, "rollouts-rank0.jsonl");
      const bad = JSON.parse(line(0, 0, 1));
      bad.outcome.reward = null;
      writeFileSync(file, [line(0, 0, 1), JSON.stringify(bad), "{not json"].join("\n") + "\n");
      const e = await readGroups([file]).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(GeoreplayError);
      const msg = (e as GeoreplayError).message;
      expect(msg).toContain(`${file}:2: outcome.reward: expected number, got null`);
      expect(msg).toContain(`${file}:3: `);
      expect((e as GeoreplayError).problems.map((p) => [p.line, p.field])).toEqual([
        [2, "outcome.reward"],
        [3, null],
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the determinism contract: siblings start from the same first view", () => {
  const start = (file: string, line: number, over: Partial<SiblingStart> = {}): SiblingStart => ({
    run: "run",
    step: 1,
    split: "eval",
    index: 0,
    groupId: null,
    file,
    line,
    hash: "68c2587c5789eeb6",
    camera: "heading 0 pitch 0 fov 90 frame 0",
    prompt: null,
    ...over,
  });

  it("the recorded fixture's groups all start alike", () => {
    const starts = readFileSync(TRAIN, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l, i) => {
        const ep = trainToEpisode(TrainRolloutSchema.parse(JSON.parse(l)), TRAIN, i + 1);
        return {
          run: "synthetic-grpo-run",
          step: JSON.parse(l).step,
          split: ep.task.split,
          index: ep.task.index,
          groupId: null,
          file: TRAIN,
          line: i + 1,
          ...firstViewOf(ep),
        };
      });
    expect(starts[0]).toMatchObject({ hash: "41ebcf0cb7fb88e9", camera: "heading 0 pitch 0 fov 90 frame 0", prompt: null });
    expect(checkGroupStarts(starts)).toEqual({ groups: 7, compared: 3, failures: [] });
  });

  it("a drifted sibling names the group, every sibling and what differs", () => {
    const r = checkGroupStarts([
      start("b.jsonl", 4),
      start("a.jsonl", 9, { hash: "0000000000000000", camera: "heading 0 pitch 0 fov 90 frame 3" }),
      start("a.jsonl", 2),
      start("a.jsonl", 5, { step: 2 }), // a group of one: nothing to compare
    ]);
    expect(r).toMatchObject({ groups: 2, compared: 1 });
    expect(r.failures).toHaveLength(1);
    const f = r.failures[0];
    expect(f).toMatchObject({ run: "run", step: 1, split: "eval", index: 0, group_id: null, siblings: ["a.jsonl:2", "a.jsonl:9", "b.jsonl:4"] });
    expect(f.differs).toEqual([
      {
        what: "first image hash",
        variants: [
          { value: "68c2587c5789eeb6", siblings: ["a.jsonl:2", "b.jsonl:4"] },
          { value: "0000000000000000", siblings: ["a.jsonl:9"] },
        ],
      },
      {
        what: "first camera",
        variants: [
          { value: "heading 0 pitch 0 fov 90 frame 0", siblings: ["a.jsonl:2", "b.jsonl:4"] },
          { value: "heading 0 pitch 0 fov 90 frame 3", siblings: ["a.jsonl:9"] },
        ],
      },
    ]);
    expect(f.message).toContain("group step 1 task eval/0");
    expect(f.message).toContain("first image hash: 68c2587c5789eeb6 (a.jsonl:2, b.jsonl:4) vs 0000000000000000 (a.jsonl:9)");
  });

  it("prompts are compared where recorded", () => {
    const r = checkGroupStarts([start("a.jsonl", 1, { prompt: "Where is this?" }), start("a.jsonl", 2, { prompt: "Where is this? (v2)" })]);
    expect(r.failures[0].differs.map((d) => d.what)).toEqual(["first prompt"]);
  });
});
