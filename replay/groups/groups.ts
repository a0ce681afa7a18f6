/**
 * GRPO groups from training rollouts: a group is the rollouts of one step on
 * one task (run + step + task.split + task.index), or of one recorded
 * `group_id` within a step where the rollouts carry one. Only numbers are kept
 * per rollout (its reward and where it is), so a run of 128,000 rollouts is a
 * few MB. Order is deterministic whatever order the rank files come in: groups
 * by run, step, split, index (then group_id); siblings by file, then line.
 */
import { basename } from "node:path";
import { advantagesOf, isCloseToZero, mean, median, multiplierOf, sampleStd, type ScaleRewards } from "./stats.ts";
import type { GroupEntry, GroupsReport, StepEntry } from "./groups-schema.ts";

/** What a rollout contributes to its group: the trainer's reward and where the rollout is. */
export interface RolloutNumbers {
  run: string;
  step: number;
  split: string;
  index: number;
  groupId: string | null;
  reward: number;
  file: string;
  line: number;
}

interface Sibling {
  reward: number;
  file: number; // position of the file in the collector's file list
  line: number;
  split: string;
  index: number;
}

interface Group {
  run: string;
  step: number;
  groupId: string | null;
  siblings: Sibling[];
}

/** File names in a stable order: rank2 before rank10 (digit runs compared as numbers), then plain code units. */
const NATURAL = new Intl.Collator("en", { numeric: true, sensitivity: "variant" });
export function compareFiles(a: string, b: string): number {
  return NATURAL.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
}
const cmpStr = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The group a rollout belongs to (the recorded group_id wins over the task). */
export function groupKey(r: { run: string; step: number; split: string; index: number; groupId: string | null }): string {
  return r.groupId !== null ? `${r.run}\u0000${r.step}\u0000id\u0000${r.groupId}` : `${r.run}\u0000${r.step}\u0000task\u0000${r.split}\u0000${r.index}`;
}

/** Collects rollouts in any order; `report()` computes the groups. */
export class GroupCollector {
  private readonly groups = new Map<string, Group>();
  private readonly files: string[] = [];
  private readonly fileIds = new Map<string, number>();
  rollouts = 0;

  add(r: RolloutNumbers): void {
    let file = this.fileIds.get(r.file);
    if (file === undefined) {
      file = this.files.length;
      this.files.push(r.file);
      this.fileIds.set(r.file, file);
    }
    const key = groupKey(r);
    let g = this.groups.get(key);
    if (!g) {
      g = { run: r.run, step: r.step, groupId: r.groupId, siblings: [] };
      this.groups.set(key, g);
    }
    g.siblings.push({ reward: r.reward, file, line: r.line, split: r.split, index: r.index });
    this.rollouts++;
  }

  report(mode: ScaleRewards = "group"): GroupsReport {
    return buildReport([...this.groups.values()], this.files, this.rollouts, mode);
  }
}

/** The groups, steps and run summary of a collection of rollouts. */
export function computeGroups(rollouts: Iterable<RolloutNumbers>, mode: ScaleRewards = "group"): GroupsReport {
  const c = new GroupCollector();
  for (const r of rollouts) c.add(r);
  return c.report(mode);
}

function buildReport(groups: Group[], files: string[], rollouts: number, mode: ScaleRewards): GroupsReport {
  // Rank of each file in the stable file order, so siblings sort by file, then line.
  const fileRank = files.map((_, i) => i).sort((a, b) => compareFiles(files[a], files[b]));
  const rankOf = new Array<number>(files.length);
  fileRank.forEach((f, r) => (rankOf[f] = r));
  for (const g of groups) g.siblings.sort((a, b) => rankOf[a.file] - rankOf[b.file] || a.line - b.line);
  const taskOf = (g: Group) => g.siblings[0];
  groups.sort(
    (a, b) =>
      cmpStr(a.run, b.run) ||
      a.step - b.step ||
      cmpStr(taskOf(a).split, taskOf(b).split) ||
      taskOf(a).index - taskOf(b).index ||
      cmpStr(a.groupId ?? "", b.groupId ?? ""),
  );

  const steps: StepEntry[] = [];
  const entries: GroupEntry[] = [];
  const allStds: number[] = [];
  // Groups are sorted by (run, step): each step is one contiguous slice.
  for (let i = 0; i < groups.length;) {
    let j = i;
    while (j < groups.length && groups[j].run === groups[i].run && groups[j].step === groups[i].step) j++;
    const slice = groups.slice(i, j);
    const stepRewards = slice.flatMap((g) => g.siblings.map((s) => s.reward));
    const batchStd = sampleStd(stepRewards);
    const stds: number[] = [];
    let zeroRollouts = 0;
    for (const g of slice) {
      const rewards = g.siblings.map((s) => s.reward);
      const m = mean(rewards);
      const std = sampleStd(rewards);
      const zero = isCloseToZero(std);
      if (std !== null) stds.push(std);
      if (zero) zeroRollouts += rewards.length;
      const first = taskOf(g);
      entries.push({
        run: g.run,
        step: g.step,
        task: { split: first.split, index: first.index },
        group_id: g.groupId,
        size: rewards.length,
        mean: m,
        std,
        rewards,
        advantages: advantagesOf(rewards, m, mode, mode === "batch" ? batchStd : std),
        zero_std: zero,
        rollouts: g.siblings.map((s) => `${files[s.file]}:${s.line}`),
        episode_ids: g.siblings.map((s) => `${baseName(files[s.file])}-L${s.line}`),
      });
    }
    allStds.push(...stds);
    const medianStd = median(stds);
    steps.push({
      run: groups[i].run,
      step: groups[i].step,
      groups: slice.length,
      episodes: stepRewards.length,
      mean_reward: mean(stepRewards),
      frac_reward_zero_std: zeroRollouts / stepRewards.length,
      median_group_std: medianStd,
      multiplier: multiplierOf(medianStd),
      batch_std: batchStd,
    });
    i = j;
  }

  const runMedian = median(allStds);
  const largest = steps
    .filter((s) => s.multiplier !== null)
    .sort((a, b) => b.multiplier! - a.multiplier! || cmpStr(a.run, b.run) || a.step - b.step)
    .slice(0, 5)
    .map((s) => ({ run: s.run, step: s.step, multiplier: s.multiplier!, median_group_std: s.median_group_std! }));
  return {
    scale_rewards: mode,
    reward: "outcome.reward",
    rollouts,
    steps,
    groups: entries,
    summary: {
      steps: steps.length,
      groups: entries.length,
      single_rollout_groups: entries.filter((g) => g.size === 1).length,
      median_group_std: runMedian,
      multiplier: multiplierOf(runMedian),
      all_zero_std_steps: steps.filter((s) => s.frac_reward_zero_std === 1).map((s) => ({ run: s.run, step: s.step })),
      largest_multipliers: largest,
    },
  };
}

/** The episode id other commands give a rollout: its file's name without `.jsonl`, then `-L<line>` (as formats/train.ts). */
function baseName(file: string): string {
  return basename(file).replace(/\.jsonl$/, "");
}
