/**
 * GRPO groups from training rollouts: a group is the rollouts of one step on
 * one task (run + step + task.split + task.index), or of one recorded
 * `group_id` within a step where the rollouts carry one. Only numbers are kept
 * per rollout (its reward and where it is), so a run of 128,000 rollouts is a
 * few MB. Order is deterministic whatever order the rank files come in: groups
 * by run, step, split, index (then group_id); siblings by file, then line.
 */
import { basename } from "node:path";
import { advantagesOf, isCloseToZero, mean, median, multiplierOf, rankOrder, sampleStd, type ScaleRewards } from "./stats.ts";
import { identicalSets } from "./trajectory.ts";
import type { AdvantageFinding, GroupEntry, GroupsReport, StepEntry } from "./groups-schema.ts";

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
  /** What the rollout did, as a key (trajectory.ts): siblings with the same key played byte-identical games. */
  trajectory?: string | null;
  /** The recorded sibling number (the crops gym's `sibling`), when there is one. */
  sibling?: number | null;
  /** The recorded `outcome.advantage`, when there is one: checked against r - mean. */
  recordedAdvantage?: number | null;
}

interface Sibling {
  reward: number;
  file: number; // position of the file in the collector's file list
  line: number;
  split: string;
  index: number;
  trajectory: string | null;
  sibling: number | null;
  recorded: number | null;
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

/** A step's numbers and what the run's summary needs of its groups. */
interface StepNumbers {
  step: StepEntry;
  /** Its groups' stds (groups of one left out). */
  stds: number[];
  /** Its groups of one rollout. */
  singles: number;
}

const stepKey = (run: string, step: number) => `${run}\u0000${step}`;

/**
 * Collects rollouts in any order; `report()` computes the groups. A live page
 * asks again as rollouts arrive: `step()` recomputes one step's groups (under
 * scale_rewards batch an advantage depends on the whole step), `summary()` the
 * run's numbers, recomputing only the steps added to since it was last asked.
 */
export class GroupCollector {
  private readonly groups = new Map<string, Group>();
  /** Each step's groups, by stepKey. */
  private readonly steps = new Map<string, Group[]>();
  /** Each step's numbers as `summary()` last computed them (a step added to is dropped). */
  private readonly numbers = new Map<string, StepNumbers>();
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
      const sk = stepKey(r.run, r.step);
      const list = this.steps.get(sk);
      if (list) list.push(g);
      else this.steps.set(sk, [g]);
    }
    g.siblings.push({
      reward: r.reward,
      file,
      line: r.line,
      split: r.split,
      index: r.index,
      trajectory: r.trajectory ?? null,
      sibling: r.sibling ?? null,
      recorded: r.recordedAdvantage ?? null,
    });
    this.numbers.delete(stepKey(r.run, r.step));
    this.rollouts++;
  }

  report(mode: ScaleRewards = "group"): GroupsReport {
    const rank = fileRanks(this.files);
    const keys = this.stepKeys();
    const parts = keys.map((k) => stepReport(this.steps.get(k)!, this.files, rank, mode));
    // After stepReport: it puts each group's siblings in file, line order.
    const recorded = keys.flatMap((k) => this.steps.get(k)!.map((g) => recordedAdvantages(g, this.files)));
    return {
      scale_rewards: mode,
      reward: "outcome.reward",
      rollouts: this.rollouts,
      steps: parts.map((p) => p.numbers.step),
      groups: parts.flatMap((p) => p.groups),
      summary: summaryOf(parts.map((p) => p.numbers)),
      recorded_advantages: {
        checked: recorded.reduce((n, r) => n + r.checked, 0),
        ok: recorded.reduce((n, r) => n + r.checked - r.findings.length, 0),
        findings: recorded.flatMap((r) => r.findings),
      },
    };
  }

  /** One step's numbers and groups (ordered as `report()` orders them); null when it has no rollout. */
  step(run: string, step: number, mode: ScaleRewards = "group"): { step: StepEntry; groups: GroupEntry[] } | null {
    const groups = this.steps.get(stepKey(run, step));
    if (!groups) return null;
    const r = stepReport(groups, this.files, fileRanks(this.files), mode);
    return { step: r.numbers.step, groups: r.groups };
  }

  /** The run's summary, as `report()` gives it. */
  summary(): GroupsReport["summary"] {
    const rank = fileRanks(this.files);
    const all = this.stepKeys().map((k) => {
      let n = this.numbers.get(k);
      if (!n) this.numbers.set(k, (n = stepReport(this.steps.get(k)!, this.files, rank, "group").numbers));
      return n;
    });
    return summaryOf(all);
  }

  /** The steps' keys sorted by run, then step. */
  private stepKeys(): string[] {
    return [...this.steps.entries()].sort(([, a], [, b]) => cmpStr(a[0].run, b[0].run) || a[0].step - b[0].step).map(([k]) => k);
  }
}

/** The groups, steps and run summary of a collection of rollouts. */
export function computeGroups(rollouts: Iterable<RolloutNumbers>, mode: ScaleRewards = "group"): GroupsReport {
  const c = new GroupCollector();
  for (const r of rollouts) c.add(r);
  return c.report(mode);
}

/** Each file's rank in the stable file order (siblings sort by file, then line). */
function fileRanks(files: string[]): number[] {
  const rankOf = new Array<number>(files.length);
  files
    .map((_, i) => i)
    .sort((a, b) => compareFiles(files[a], files[b]))
    .forEach((f, r) => (rankOf[f] = r));
  return rankOf;
}

/** One step's groups (all of one run and step) as entries, sorted by task split, index, then group_id; and the step's numbers. */
function stepReport(slice: Group[], files: string[], rankOf: number[], mode: ScaleRewards): { numbers: StepNumbers; groups: GroupEntry[] } {
  for (const g of slice) g.siblings.sort((a, b) => rankOf[a.file] - rankOf[b.file] || a.line - b.line);
  const taskOf = (g: Group) => g.siblings[0];
  slice.sort((a, b) => cmpStr(taskOf(a).split, taskOf(b).split) || taskOf(a).index - taskOf(b).index || cmpStr(a.groupId ?? "", b.groupId ?? ""));
  const stepRewards = slice.flatMap((g) => g.siblings.map((s) => s.reward));
  const batchStd = sampleStd(stepRewards);
  const stds: number[] = [];
  /** Each group's std once per rollout: TRL's reward_std is the mean of the std repeated over the group's rollouts. */
  let stdSum = 0;
  let stdRollouts = 0;
  const entries: GroupEntry[] = [];
  let zeroRollouts = 0;
  for (const g of slice) {
    const rewards = g.siblings.map((s) => s.reward);
    const m = mean(rewards);
    const std = sampleStd(rewards);
    const zero = isCloseToZero(std);
    if (std !== null) {
      stds.push(std);
      stdSum += std * rewards.length;
      stdRollouts += rewards.length;
    }
    if (zero) zeroRollouts += rewards.length;
    const first = taskOf(g);
    const advantages = advantagesOf(rewards, m, mode, mode === "batch" ? batchStd : std);
    entries.push({
      run: g.run,
      step: g.step,
      task: { split: first.split, index: first.index },
      group_id: g.groupId,
      size: rewards.length,
      mean: m,
      std,
      rewards,
      advantages,
      zero_std: zero,
      ranks: rankOrder(advantages),
      identical: identicalSets(g.siblings.map((s) => s.trajectory)),
      rollouts: g.siblings.map((s) => `${files[s.file]}:${s.line}`),
      episode_ids: g.siblings.map((s) => `${baseName(files[s.file])}-L${s.line}`),
    });
  }
  const medianStd = median(stds);
  const step: StepEntry = {
    run: slice[0].run,
    step: slice[0].step,
    groups: slice.length,
    episodes: stepRewards.length,
    mean_reward: mean(stepRewards),
    frac_reward_zero_std: zeroRollouts / stepRewards.length,
    median_group_std: medianStd,
    mean_group_std: stdRollouts ? stdSum / stdRollouts : null,
    multiplier: multiplierOf(medianStd),
    batch_std: batchStd,
  };
  return { numbers: { step, stds, singles: entries.filter((g) => g.size === 1).length }, groups: entries };
}

/**
 * A group's recorded advantages against the recomputed `r - mean` (the rule the crops gym records
 * by, whatever --scale-rewards shows), compared exactly. The mean sums rewards from 0.0 in the
 * recorded `sibling` order when every sibling has one (the gym's order: float sums depend on it),
 * else in sibling order (file, line).
 */
function recordedAdvantages(g: Group, files: string[]): { checked: number; findings: AdvantageFinding[] } {
  if (!g.siblings.some((s) => s.recorded !== null)) return { checked: 0, findings: [] };
  const bySibling = g.siblings.every((s) => s.sibling !== null) ? [...g.siblings].sort((a, b) => a.sibling! - b.sibling!) : g.siblings;
  const m = mean(bySibling.map((s) => s.reward));
  const findings: AdvantageFinding[] = [];
  let checked = 0;
  g.siblings.forEach((s, i) => {
    if (s.recorded === null) return;
    checked++;
    const recomputed = s.reward - m;
    if (s.recorded === recomputed) return;
    findings.push({
      run: g.run,
      step: g.step,
      task: { split: s.split, index: s.index },
      group_id: g.groupId,
      sibling: s.sibling ?? i,
      reward: s.reward,
      mean: m,
      recorded: s.recorded,
      recomputed,
      file: files[s.file],
      line: s.line,
    });
  });
  return { checked, findings };
}

/** The run's summary from its steps' numbers (in run, step order). */
function summaryOf(parts: StepNumbers[]): GroupsReport["summary"] {
  const steps = parts.map((p) => p.step);
  const runMedian = median(parts.flatMap((p) => p.stds));
  // A step whose median std is 0 (most groups without spread) has a huge multiplier that scales nothing (its advantages are 0): left out.
  const largest = steps
    .filter((s) => s.multiplier !== null && !isCloseToZero(s.median_group_std))
    .sort((a, b) => b.multiplier! - a.multiplier! || cmpStr(a.run, b.run) || a.step - b.step)
    .slice(0, 5)
    .map((s) => ({ run: s.run, step: s.step, multiplier: s.multiplier!, median_group_std: s.median_group_std! }));
  return {
    steps: steps.length,
    groups: steps.reduce((n, s) => n + s.groups, 0),
    single_rollout_groups: parts.reduce((n, p) => n + p.singles, 0),
    median_group_std: runMedian,
    multiplier: multiplierOf(runMedian),
    all_zero_std_steps: steps.filter((s) => s.frac_reward_zero_std === 1).map((s) => ({ run: s.run, step: s.step })),
    largest_multipliers: largest,
  };
}

/** The episode id other commands give a rollout: its file's name without `.jsonl`, then `-L<line>` (as formats/train.ts). */
function baseName(file: string): string {
  return basename(file).replace(/\.jsonl$/, "");
}

/** A group's siblings reordered by rank (#1 first): every per-sibling list permuted alike, `identical` renumbered. */
export function inRankOrder(g: GroupEntry): GroupEntry {
  const order = g.ranks
    .map((r, i) => ({ r, i }))
    .sort((a, b) => a.r - b.r)
    .map((x) => x.i);
  const at = new Map(order.map((i, k) => [i, k]));
  const pick = <T>(xs: readonly T[]) => order.map((i) => xs[i]);
  return {
    ...g,
    rewards: pick(g.rewards),
    advantages: pick(g.advantages),
    ranks: pick(g.ranks),
    identical: g.identical.map((set) => set.map((i) => at.get(i)!).sort((a, b) => a - b)).sort((a, b) => a[0] - b[0]),
    rollouts: pick(g.rollouts),
    episode_ids: pick(g.episode_ids),
  };
}
