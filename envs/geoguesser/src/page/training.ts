/**
 * A training page's GRPO data: the run's groups and steps exactly as
 * `georeplay groups --json` gives them (replay/groups computes TRL's numbers
 * once, for both outputs), embedded in the page as one JSON table the client
 * reads. Each sibling is named by its episode id, not by its file path (a
 * page gets shared; a path on the command line may be a local absolute one).
 */
import { GroupCollector } from "../../../../replay/groups/groups.ts";
import type { VerifiedEpisode } from "../../replay/verify/verify.ts";
import type { TrainInfo } from "../../replay/formats/train.ts";
import type { PageEpisode } from "./model.ts";
import type { GroupEntry, GroupsReport, StepEntry } from "../../../../replay/groups/groups-schema.ts";
import type { ScaleRewards } from "../../../../replay/groups/stats.ts";
import { trajectoryKey } from "../../../../replay/groups/trajectory.ts";
import { actionName } from "../../replay/rules/turns.ts";
import type { Turn } from "../../replay/schema/episode.ts";

/** A group as the page carries it: `groups --json`'s entry without its `file:line` names. */
export type PageGroup = Omit<GroupEntry, "rollouts">;

/**
 * What a step's rollouts did, beside the trainer's numbers (the page's own: `groups` reads numbers only):
 * the per-step means TRL's logs would show next to the reward (turns stand in for completion length).
 */
export interface StepPlay {
  /** Mean turns used. */
  turns: number;
  /** Mean action cost over the rollouts that recorded one; null if none did. */
  cost: number | null;
  /** Mean guess distance over the rollouts that guessed; null if none did. */
  km: number | null;
  /** Share of the rollouts that never guessed (outcome.guessed false). */
  never_guessed: number;
  /** The model's tool calls by name (reset left out), counted over the step's rollouts; keys sorted. */
  tools: Record<string, number>;
}

export type PageStep = StepEntry & { play: StepPlay | null };

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
  /** What it did: turns used, action cost, distance, whether it guessed, its tool calls, its trajectory's key. */
  turns: number;
  cost: number | null;
  km: number | null;
  guessed: boolean | null;
  tools: string[];
  trajectory: string | null;
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
    turns: page.turnsUsed,
    cost: page.cost,
    km: page.distanceKm,
    guessed: train.guessed,
    tools: v.episode.turns.map(actionName).filter((n): n is string => n !== null && n !== "reset"),
    trajectory: v.episode.turns.length ? trajectoryKey(v.episode.turns as Turn[]) : null,
  };
}

/** A step's sums as rollouts arrive (StepPlay's means are taken when asked). */
interface PlaySums {
  n: number;
  turns: number;
  cost: [number, number];
  km: [number, number];
  never: number;
  tools: Map<string, number>;
}

function playOf(p: PlaySums | undefined): StepPlay | null {
  if (!p || !p.n) return null;
  const tools: Record<string, number> = {};
  for (const k of [...p.tools.keys()].sort()) tools[k] = p.tools.get(k)!;
  return {
    turns: p.turns / p.n,
    cost: p.cost[1] ? p.cost[0] / p.cost[1] : null,
    km: p.km[1] ? p.km[0] / p.km[1] : null,
    never_guessed: p.never / p.n,
    tools,
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
  private readonly play = new Map<string, PlaySums>();

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
    this.collector.add({
      run: r.run,
      step: r.step,
      split: r.split,
      index: r.index,
      groupId: r.groupId,
      reward: r.reward,
      file,
      line: r.line,
      trajectory: r.trajectory,
    });
    const key = `${r.run}\u0000${r.step}`;
    let p = this.play.get(key);
    if (!p) this.play.set(key, (p = { n: 0, turns: 0, cost: [0, 0], km: [0, 0], never: 0, tools: new Map() }));
    p.n++;
    p.turns += r.turns;
    if (r.cost !== null) p.cost = [p.cost[0] + r.cost, p.cost[1] + 1];
    if (r.km !== null) p.km = [p.km[0] + r.km, p.km[1] + 1];
    if (r.guessed === false) p.never++;
    for (const t of r.tools) p.tools.set(t, (p.tools.get(t) ?? 0) + 1);
    return true;
  }

  /** A step of `groups` with what its rollouts did. */
  private withPlay = (s: StepEntry): PageStep => ({ ...s, play: playOf(this.play.get(`${s.run}\u0000${s.step}`)) });

  /** The given steps recomputed from every rollout so far, and the run's summary (scale_rewards group, as the page). */
  update(steps: readonly { run: string; step: number }[]): TrainingUpdate {
    const out = steps
      .map((s) => this.collector.step(s.run, s.step))
      .filter((x) => x !== null)
      .sort((a, b) => (a.step.run < b.step.run ? -1 : a.step.run > b.step.run ? 1 : a.step.step - b.step.step));
    return {
      steps: out.map((x) => this.withPlay(x.step)),
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
      steps: report.steps.map(this.withPlay),
      groups: report.groups.map(({ rollouts: _, ...g }) => g),
      summary: report.summary,
      unscored: [...this.unscored].sort(),
    };
  }
}
