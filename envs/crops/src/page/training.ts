/**
 * A crops GRPO run as its training page shows it: the groups and steps computed by the core's
 * GroupCollector (replay/groups, the code of `georeplay groups`), so every number is the
 * command's; each sibling named by its page key (its episode's address), not a file path. The
 * advantages are the gym's own, `r - mean` (scale_rewards none: what the rollouts record, what
 * `verify` checks and `render --group` shows). Beside the trainer's numbers, what each step's
 * rollouts did: turns used and the tool-call mix. Pure.
 */
import { GroupCollector } from "../../../../replay/groups/groups.ts";
import { trajectoryKey } from "../../../../replay/groups/trajectory.ts";
import type { GroupEntry, GroupsReport, StepEntry } from "../../../../replay/groups/groups-schema.ts";
import type { ScaleRewards } from "../../../../replay/groups/stats.ts";
import type { CropsRecordSeen } from "../../replay/verify.ts";
import { actionName } from "../../replay/frames-plan.ts";
import type { CropsRow } from "./model.ts";

/** The crops page's advantages: the gym's r - mean. */
export const CROPS_SCALE_REWARDS: ScaleRewards = "none";

/** What a training rollout gives the groups, taken from its record while verify reads it. */
export interface CropsTrainingRollout {
  key: string;
  run: string;
  step: number;
  split: string;
  index: number;
  groupId: string | null;
  sibling: number | null;
  reward: number | null;
  recordedAdvantage: number | null;
  file: string;
  line: number;
  turns: number;
  /** The model's actions by name, turn 0 (the opening view) left out. */
  tools: string[];
  trajectory: string | null;
}

/** A group as the page carries it: `groups --json`'s entry, its siblings named by their page keys (`episode_ids`). */
export type CropsPageGroup = Omit<GroupEntry, "rollouts">;

export interface CropsStepPlay {
  /** Mean turns used over the step's rollouts. */
  turns: number;
  /** The actions by name, counted over the step's rollouts; keys sorted. */
  tools: Record<string, number>;
}

export type CropsPageStep = StepEntry & { play: CropsStepPlay | null };

export interface CropsTrainingData {
  scale_rewards: ScaleRewards;
  reward: GroupsReport["reward"];
  rollouts: number;
  steps: CropsPageStep[];
  groups: CropsPageGroup[];
  summary: GroupsReport["summary"];
  /** Training rollouts without outcome.reward: in the list, in no group. */
  unscored: string[];
}

/** A record's training numbers; null for an eval episode (no step). */
export function cropsTrainingRollout(s: CropsRecordSeen, key: string): CropsTrainingRollout | null {
  const { rec } = s;
  if (rec.step === undefined) return null;
  const o = rec.outcome as { reward?: unknown; advantage?: unknown };
  return {
    key,
    run: rec.run ?? "",
    step: rec.step,
    split: rec.task.split,
    index: rec.task.index,
    groupId: rec.group_id ?? null,
    sibling: rec.sibling ?? null,
    reward: typeof o.reward === "number" && Number.isFinite(o.reward) ? o.reward : null,
    recordedAdvantage: typeof o.advantage === "number" ? o.advantage : null,
    file: s.file,
    line: s.line,
    turns: rec.turns.filter((t) => t.turn > 0).length,
    tools: rec.turns.filter((t) => t.turn > 0).flatMap((t) => actionName(t) ?? []),
    trajectory: rec.turns.length ? trajectoryKey(rec.turns) : null,
  };
}

/** The page's groups and steps; null when no rollout has a reward (no group to show). */
export function cropsTraining(rollouts: readonly CropsTrainingRollout[], mode: ScaleRewards = CROPS_SCALE_REWARDS): CropsTrainingData | null {
  const collector = new GroupCollector();
  const keyOf = new Map<string, string>();
  const unscored: string[] = [];
  const play = new Map<string, { n: number; turns: number; tools: Map<string, number> }>();
  for (const r of rollouts) {
    if (r.reward === null) {
      unscored.push(r.key);
      continue;
    }
    collector.add({ ...r, reward: r.reward });
    keyOf.set(`${r.file}:${r.line}`, r.key);
    const sk = `${r.run}\u0000${r.step}`;
    let p = play.get(sk);
    if (!p) play.set(sk, (p = { n: 0, turns: 0, tools: new Map() }));
    p.n++;
    p.turns += r.turns;
    for (const t of r.tools) p.tools.set(t, (p.tools.get(t) ?? 0) + 1);
  }
  if (collector.rollouts === 0) return null;
  const report = collector.report(mode);
  const playOf = (s: StepEntry): CropsStepPlay | null => {
    const p = play.get(`${s.run}\u0000${s.step}`);
    if (!p) return null;
    const tools: Record<string, number> = {};
    for (const k of [...p.tools.keys()].sort()) tools[k] = p.tools.get(k)!;
    return { turns: p.turns / p.n, tools };
  };
  return {
    scale_rewards: report.scale_rewards,
    reward: report.reward,
    rollouts: report.rollouts,
    steps: report.steps.map((s) => ({ ...s, play: playOf(s) })),
    groups: report.groups.map(({ rollouts, ...g }) => ({ ...g, episode_ids: rollouts.map((fl, i) => keyOf.get(fl) ?? g.episode_ids[i]) })),
    summary: report.summary,
    unscored: unscored.sort(),
  };
}

/** Each list row of a training rollout gets its group's mean, std and zero spread (eval rows keep nulls). */
export function withGroups(rows: CropsRow[], d: CropsTrainingData | null): void {
  if (!d) return;
  const byKey = new Map(rows.map((r) => [r.key, r]));
  for (const g of d.groups)
    for (const key of g.episode_ids) {
      const r = byKey.get(key);
      if (!r) continue;
      r.groupMean = g.mean;
      r.groupStd = g.std;
      r.zeroSpread = g.zero_std;
    }
}
