/**
 * A training page's GRPO data: the run's groups and steps exactly as
 * `georeplay groups --json` gives them (replay/groups computes TRL's numbers
 * once, for both outputs), embedded in the page as one JSON table the client
 * reads. Each sibling is named by its episode id, not by its file path (a
 * page gets shared; a path on the command line may be a local absolute one).
 */
import { GroupCollector } from "../../replay/groups/groups.ts";
import type { GroupEntry, GroupsReport, StepEntry } from "../../replay/groups/groups-schema.ts";
import type { ScaleRewards } from "../../replay/groups/stats.ts";

/** A group as the page carries it: `groups --json`'s entry without its `file:line` names. */
export type PageGroup = Omit<GroupEntry, "rollouts">;
export type PageStep = StepEntry;

export interface TrainingData {
  scale_rewards: ScaleRewards;
  reward: GroupsReport["reward"];
  /** Rollouts in groups (those with an outcome.reward). */
  rollouts: number;
  steps: PageStep[];
  groups: PageGroup[];
  summary: GroupsReport["summary"];
  /** Training rollouts without an outcome.reward: listed on the page, in no group (the trainer had no reward for them). */
  unscored: string[];
}

/** What a verified training rollout gives the groups: where it is, its task and its reward. */
export interface TrainingRollout {
  id: string;
  run: string;
  step: number;
  split: string;
  index: number;
  groupId: string | null;
  /** outcome.reward, the reward the trainer optimised; null when not recorded. */
  reward: number | null;
  file: string;
  line: number;
}

/** Collects the page's training rollouts as they are verified (numbers only), then computes the groups once. */
export class TrainingGroups {
  private readonly collector = new GroupCollector();
  private readonly unscored: string[] = [];

  get count(): number {
    return this.collector.rollouts + this.unscored.length;
  }

  add(r: TrainingRollout): void {
    if (r.reward === null || !Number.isFinite(r.reward)) this.unscored.push(r.id);
    else this.collector.add({ run: r.run, step: r.step, split: r.split, index: r.index, groupId: r.groupId, reward: r.reward, file: r.file, line: r.line });
  }

  /** The page's table; null when no rollout has a reward (no group to show). */
  data(mode: ScaleRewards = "group"): TrainingData | null {
    if (this.collector.rollouts === 0) return null;
    const report = this.collector.report(mode);
    return {
      scale_rewards: report.scale_rewards,
      reward: report.reward,
      rollouts: report.rollouts,
      steps: report.steps,
      groups: report.groups.map(({ rollouts: _, ...g }) => g),
      summary: report.summary,
      unscored: [...this.unscored].sort(),
    };
  }
}
