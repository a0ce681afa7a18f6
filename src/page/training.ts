/**
 * GRPO training-trace maths, per run and step. A group is the rollouts
 * sharing (run, step, split, index): GRPO learns from the differences inside
 * a group, so a group whose rewards are all equal (zero std) teaches nothing;
 * `fracRewardZeroStd` is the share of such groups (a group of one rollout
 * counts as all equal, as it has nothing to compare against).
 */
import { mean } from "./stats.ts";
import { pstdev } from "../../replay/board/pymath.ts";

export interface Rollout {
  id: string;
  run: string;
  step: number;
  split: string;
  index: number;
  reward: number | null;
  turns: number;
  /** outcome.guessed; false = the rollout never guessed. */
  guessed: boolean | null;
}

export interface Group {
  split: string;
  index: number;
  rollouts: Rollout[];
  std: number | null;
  range: number | null;
  /** Every reward in the group is the same (or the group has one scored rollout). */
  zeroStd: boolean;
}

export interface TrainStep {
  run: string;
  step: number;
  rollouts: number;
  groups: Group[];
  meanReward: number | null;
  /** Mean over groups of the std of rewards inside each group. */
  meanGroupStd: number | null;
  fracRewardZeroStd: number;
  meanTurns: number | null;
  /** Share of rollouts with guessed === false. */
  fracNeverGuessed: number;
}

const rewards = (rs: Rollout[]) => rs.map((r) => r.reward).filter((x): x is number => x !== null && Number.isFinite(x));

export function groupOf(split: string, index: number, rollouts: Rollout[]): Group {
  const r = rewards(rollouts);
  const std = r.length ? pstdev(r) : null;
  return {
    split,
    index,
    rollouts,
    std,
    range: r.length ? Math.max(...r) - Math.min(...r) : null,
    // Exact equality: rewards copied from one computation are bitwise equal; a tiny float noise is a real difference to GRPO.
    zeroStd: r.length > 0 && r.every((x) => x === r[0]),
  };
}

/** One row per (run, step), sorted by run then step; groups by split then index. */
export function summariseTraining(rollouts: readonly Rollout[]): TrainStep[] {
  const steps = new Map<string, Rollout[]>();
  for (const r of rollouts) {
    const key = JSON.stringify([r.run, r.step]);
    let s = steps.get(key);
    if (!s) steps.set(key, (s = []));
    s.push(r);
  }
  return [...steps.values()]
    .map((rs): TrainStep => {
      const byGroup = new Map<string, Rollout[]>();
      for (const r of rs) {
        const key = JSON.stringify([r.split, r.index]);
        let g = byGroup.get(key);
        if (!g) byGroup.set(key, (g = []));
        g.push(r);
      }
      const groups = [...byGroup.values()]
        .map((g) => groupOf(g[0].split, g[0].index, g))
        .sort((a, b) => (a.split < b.split ? -1 : a.split > b.split ? 1 : 0) || a.index - b.index);
      const scoredGroups = groups.filter((g) => g.std !== null);
      return {
        run: rs[0].run,
        step: rs[0].step,
        rollouts: rs.length,
        groups,
        meanReward: mean(rewards(rs)),
        meanGroupStd: mean(scoredGroups.map((g) => g.std!)),
        fracRewardZeroStd: scoredGroups.length ? scoredGroups.filter((g) => g.zeroStd).length / scoredGroups.length : 0,
        meanTurns: mean(rs.map((r) => r.turns)),
        fracNeverGuessed: rs.filter((r) => r.guessed === false).length / rs.length,
      };
    })
    .sort((a, b) => (a.run < b.run ? -1 : a.run > b.run ? 1 : 0) || a.step - b.step);
}
