/**
 * A crops training page's numbers (envs/crops/src/page/training.ts): the groups and steps are the
 * core's (`computeGroups`, what `georeplay groups` prints), with the gym's advantage r - mean,
 * each sibling named by its page key; a step's play numbers (turns used, the action mix); the list
 * rows get their group's mean, std and zero spread, which the filter and the CSV read.
 */
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { computeGroups } from "../../replay/groups/groups.ts";
import { trajectoryOf } from "../../replay/groups/trajectory.ts";
import { cropsTraining, withGroups, type CropsTrainingRollout } from "../../envs/crops/src/page/training.ts";
import { CROPS_CSV, CROPS_FIELDS, cropsColumns } from "../../envs/crops/src/page/client/fields.ts";
import { compileFieldExpr } from "../../src/page/client/state/field-expr.ts";
import { csvTable } from "../../src/page/client/state/csv-table.ts";
import type { CropsRow } from "../../envs/crops/src/page/model.ts";

const FILE = join(import.meta.dirname, "..", "fixtures", "crops", "sample", "train", "rollouts.jsonl");
type Rec = Record<string, any>;
const records: Rec[] = readFileSync(FILE, "utf8")
  .split("\n")
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l));

const rollouts: CropsTrainingRollout[] = records.map((r, i) => ({
  key: r.episode_id,
  run: r.run,
  step: r.step,
  split: r.task.split,
  index: r.task.index,
  groupId: r.group_id,
  sibling: r.sibling,
  reward: r.outcome.reward,
  recordedAdvantage: r.outcome.advantage,
  file: FILE,
  line: i + 1,
  turns: r.turns.filter((t: Rec) => t.turn > 0).length,
  tools: r.turns.filter((t: Rec) => t.turn > 0 && t.action?.action).map((t: Rec) => t.action.action),
  trajectory: trajectoryOf(r.turns),
}));

describe("a crops training page's groups", () => {
  it("are the core's groups (groups --scale-rewards none), each sibling named by its episode", () => {
    const d = cropsTraining(rollouts)!;
    const core = computeGroups(
      rollouts.map((r) => ({ ...r, reward: r.reward! })),
      "none",
    );
    expect(d.scale_rewards).toBe("none");
    expect(d.steps.map(({ play: _, ...s }) => s)).toEqual(core.steps);
    expect(d.summary).toEqual(core.summary);
    expect(d.groups.map(({ episode_ids: _, ...g }) => g)).toEqual(core.groups.map(({ rollouts: _, episode_ids: __, ...g }) => g));
    d.groups.forEach((g, k) => expect(g.episode_ids).toEqual(core.groups[k].rollouts.map((fl) => records[Number(fl.split(":").at(-1)) - 1].episode_id)));
    // The gym's advantage: each sibling's recorded r - mean.
    for (const g of d.groups) g.episode_ids.forEach((id, i) => expect(g.advantages[i]).toBe(records.find((r) => r.episode_id === id)!.outcome.advantage));
    // What a step's rollouts did: turns used and the action mix, over the step's rollouts.
    const step0 = records.filter((r) => r.step === 0);
    expect(d.steps[0].play!.turns).toBeCloseTo(step0.reduce((n, r) => n + r.turns.length - 1, 0) / step0.length, 12);
    const boxes = step0.flatMap((r) => r.turns).filter((t) => t.turn > 0 && t.action?.action === "box").length;
    expect(d.steps[0].play!.tools.box).toBe(boxes);
    expect(Object.keys(d.steps[0].play!.tools)).toEqual(Object.keys(d.steps[0].play!.tools).sort());
  });

  it("a rollout without a reward is listed apart, in no group; none with a reward: no training section", () => {
    const d = cropsTraining([{ ...rollouts[0], reward: null }, ...rollouts.slice(1)])!;
    expect(d.unscored).toEqual([rollouts[0].key]);
    expect(d.rollouts).toBe(35);
    expect(cropsTraining(rollouts.map((r) => ({ ...r, reward: null })))).toBeNull();
  });

  it("gives the list rows their group's numbers, which the columns, the filter and the CSV read", () => {
    const d = cropsTraining(rollouts)!;
    const rows = records.map(
      (r) =>
        ({
          key: r.episode_id,
          id: r.episode_id,
          step: r.step,
          advantage: r.outcome.advantage,
          groupMean: null,
          groupStd: null,
          zeroSpread: null,
        }) as unknown as CropsRow,
    );
    withGroups(rows, d);
    const g = d.groups[0];
    const first = rows.find((r) => r.key === g.episode_ids[0])!;
    expect([first.groupMean, first.groupStd, first.zeroSpread]).toEqual([g.mean, g.std, g.zero_std]);
    expect(cropsColumns(rows).map((c) => c.key)).toEqual(expect.arrayContaining(["step", "groupMean", "groupStd", "advantage", "zeroSpread"]));
    expect(cropsColumns(rows.map((r) => ({ ...r, step: null }))).map((c) => c.key)).not.toContain("groupMean");
    const pred = compileFieldExpr(`group_mean == ${g.mean} and zero_spread == false`, CROPS_FIELDS);
    expect(
      rows
        .filter(pred)
        .map((r) => r.key)
        .sort(),
    ).toEqual([...g.episode_ids].sort());
    const head = csvTable(CROPS_CSV, []).split("\r\n")[0].split(",");
    expect(head).toEqual(expect.arrayContaining(["step", "group_mean", "group_std", "advantage", "zero_spread"]));
  });
});
