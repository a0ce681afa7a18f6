/**
 * A training page's GRPO data: the run's groups and steps exactly as
 * `georeplay groups --json` gives them (replay/groups computes TRL's numbers
 * once, for both outputs), embedded in the page as one JSON table the client
 * reads. Each sibling is named by its episode id, not by its file path (a
 * page gets shared; a path on the command line may be a local absolute one).
 */
import { GroupCollector } from "../../replay/groups/groups.ts";
import type { VerifiedEpisode } from "../../replay/verify/verify.ts";
import type { TrainInfo } from "../../replay/formats/train.ts";
import type { PageEpisode } from "./model.ts";
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

/** A verified training rollout as the groups see it (the page's task and reward); null for any other episode. */
export function trainingRolloutOf(v: VerifiedEpisode, page: PageEpisode): TrainingRollout | null {
  const train = (v.episode as { train?: TrainInfo }).train;
  if (v.format !== "train" || !train) return null;
  return {
    id: page.id,
    run: train.run,
    step: train.step,
    split: page.split,
    index: page.index,
    groupId: train.groupId,
    reward: page.reward,
    file: v.file,
    line: v.line,
  };
}

/** What a live page merges after new rollouts: the steps they touched, whole, and the run's numbers. */
export interface TrainingUpdate {
  /** The touched steps' numbers, sorted by run then step. */
  steps: PageStep[];
  /** Every group of those steps (a step's groups replace the page's groups of that step). */
  groups: PageGroup[];
  summary: TrainingData["summary"];
  rollouts: number;
}

/**
 * Collects the page's training rollouts as they are verified (numbers only), then computes the groups
 * once; `serve` goes on adding to it and asks for the steps its new rollouts touched (`update`).
 * `fileName` names a rollout's file in the groups' sibling order (serve builds from copies of its inputs).
 */
export class TrainingGroups {
  private readonly collector = new GroupCollector();
  private readonly unscored: string[] = [];

  constructor(private readonly fileName: (file: string) => string = (f) => f) {}

  get count(): number {
    return this.collector.rollouts + this.unscored.length;
  }

  /** Adds a rollout; false when it has no reward (listed, in no group). */
  add(r: TrainingRollout): boolean {
    if (r.reward === null || !Number.isFinite(r.reward)) {
      this.unscored.push(r.id);
      return false;
    }
    const file = this.fileName(r.file);
    this.collector.add({ run: r.run, step: r.step, split: r.split, index: r.index, groupId: r.groupId, reward: r.reward, file, line: r.line });
    return true;
  }

  /** The given steps recomputed from every rollout so far, and the run's summary (scale_rewards group, as the page). */
  update(steps: readonly { run: string; step: number }[]): TrainingUpdate {
    const out = steps
      .map((s) => this.collector.step(s.run, s.step))
      .filter((x) => x !== null)
      .sort((a, b) => (a.step.run < b.step.run ? -1 : a.step.run > b.step.run ? 1 : a.step.step - b.step.step));
    return {
      steps: out.map((x) => x.step),
      groups: out.flatMap((x) => x.groups.map(({ rollouts: _, ...g }) => g)),
      summary: this.collector.summary(),
      rollouts: this.collector.rollouts,
    };
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
