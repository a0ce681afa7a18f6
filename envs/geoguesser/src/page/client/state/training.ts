/**
 * The training page's GRPO groups as the client reads them, as pure
 * functions: an index over the page's table (steps by run and step, groups
 * by step, each rollout's group), the group a route names, siblings ranked
 * by advantage, each list row's group numbers (the filter expression's
 * fields) and which groups the list's filter leaves in.
 */
import type { PageGroup, PageStep, TrainingData } from "../../training.ts";
import type { TrainingEvent } from "../../live-events.ts";
import type { ListRow, TrainFields } from "../../list-row.ts";
import type { Route } from "./route.ts";

export interface StepView {
  step: PageStep;
  groups: PageGroup[];
}

export interface TrainIndex {
  data: TrainingData;
  runs: string[];
  /** `${run}\0${step}` -> the step and its groups (in the table's order: split, index, group_id). */
  steps: Map<string, StepView>;
  /** Each run's steps in order (prev/next). */
  stepsOf: Map<string, number[]>;
  /** Episode id -> its group and its place among the siblings. */
  byEpisode: Map<string, { group: PageGroup; at: number }>;
}

const key = (run: string, step: number) => `${run}\u0000${step}`;

export function indexTraining(data: TrainingData): TrainIndex {
  const runs = [...new Set(data.steps.map((s) => s.run))];
  const steps = new Map<string, StepView>();
  const stepsOf = new Map<string, number[]>();
  for (const s of data.steps) {
    steps.set(key(s.run, s.step), { step: s, groups: [] });
    stepsOf.set(s.run, [...(stepsOf.get(s.run) ?? []), s.step]);
  }
  const byEpisode = new Map<string, { group: PageGroup; at: number }>();
  for (const g of data.groups) {
    steps.get(key(g.run, g.step))?.groups.push(g);
    g.episode_ids.forEach((id, at) => byEpisode.set(id, { group: g, at }));
  }
  return { data, runs, steps, stepsOf, byEpisode };
}

/**
 * The table after a live page's `training` event: the event's steps replace the table's entries of
 * those steps (or join them, in run then step order), their groups replace every group of those steps,
 * and the run's numbers are the event's. The result is the table `page` would write for the whole run.
 */
export function mergeTraining(data: TrainingData, e: TrainingEvent): TrainingData {
  const touched = new Set(e.steps.map((s) => key(s.run, s.step)));
  const byStep = (a: { run: string; step: number }, b: { run: string; step: number }) => (a.run < b.run ? -1 : a.run > b.run ? 1 : a.step - b.step);
  // Stable sorts by step only: a step's groups keep the order the server gave them (split, index, group_id).
  const steps = [...data.steps.filter((s) => !touched.has(key(s.run, s.step))), ...e.steps].sort(byStep);
  const groups = [...data.groups.filter((g) => !touched.has(key(g.run, g.step))), ...e.groups].sort(byStep);
  return {
    ...data,
    rollouts: e.rollouts,
    steps,
    groups,
    summary: e.summary,
    unscored: e.unscored.length ? [...new Set([...data.unscored, ...e.unscored])].sort() : data.unscored,
  };
}

/** The run a route names: its own, else the page's first. */
export const runOf = (ix: TrainIndex, r: { run?: string }): string => r.run ?? ix.runs[0] ?? "";

export function stepOf(ix: TrainIndex, r: { step: number; run?: string }): StepView | null {
  return ix.steps.get(key(runOf(ix, r), r.step)) ?? null;
}

/** The neighbouring step of a run (d = 1 next, -1 previous), or null at either end. */
export function neighbourStep(ix: TrainIndex, run: string, step: number, d: 1 | -1): number | null {
  const all = ix.stepsOf.get(run) ?? [];
  const i = all.indexOf(step);
  return i < 0 ? null : (all[i + d] ?? null);
}

/** The group a `#group/...` route names (its recorded group_id too, where one defines it). */
export function groupOf(ix: TrainIndex, r: Extract<Route, { kind: "group" }>): PageGroup | null {
  const s = stepOf(ix, r);
  return s?.groups.find((g) => g.task.split === r.split && g.task.index === r.index && (r.id === undefined || g.group_id === r.id)) ?? null;
}

/** The route of a group, its run named only where the page has several. */
export function groupRoute(ix: TrainIndex, g: PageGroup): Extract<Route, { kind: "group" }> {
  return {
    kind: "group",
    step: g.step,
    split: g.task.split,
    index: g.task.index,
    ...(g.group_id !== null ? { id: g.group_id } : {}),
    ...(ix.runs.length > 1 && g.run !== ix.runs[0] ? { run: g.run } : {}),
  };
}

export function stepRoute(ix: TrainIndex, run: string, step: number): Extract<Route, { kind: "step" }> {
  return { kind: "step", step, ...(ix.runs.length > 1 && run !== ix.runs[0] ? { run } : {}) };
}

export interface RankedSibling {
  /** Place among the siblings in the table's order (file, then line). */
  at: number;
  id: string;
  reward: number;
  advantage: number;
  /** 1 = the highest advantage. */
  rank: number;
}

/** The siblings by rank (the table's `ranks`: advantage, highest first, ties in sibling order). */
export function rankSiblings(g: PageGroup): RankedSibling[] {
  return g.episode_ids.map((id, at) => ({ at, id, reward: g.rewards[at], advantage: g.advantages[at], rank: g.ranks[at] })).sort((a, b) => a.rank - b.rank);
}

/** A row's group numbers (null where the rollout is in no group); rows of no training rollout get none. */
export function trainFieldsOf(ix: TrainIndex, id: string, train: { run: string; step: number } | null | undefined): TrainFields | null {
  const hit = ix.byEpisode.get(id);
  if (!hit) return train ? { run: train.run, step: train.step, advantage: null, zeroStd: null, groupMean: null, groupStd: null, groupSize: null } : null;
  const g = hit.group;
  return {
    run: g.run,
    step: g.step,
    advantage: g.advantages[hit.at],
    zeroStd: g.zero_std,
    groupMean: g.mean,
    groupStd: g.std,
    groupSize: g.size,
    identical: identicalOf(g, hit.at),
  };
}

/** Whether sibling `at` (sibling order) played the same game as another sibling. */
export const identicalOf = (g: Pick<PageGroup, "identical">, at: number): boolean => g.identical.some((set) => set.includes(at));

/** The list's rows with their group numbers (the folder form's rows keep their batch and place). */
export function withTrainFields<R extends ListRow>(rows: readonly R[], ix: TrainIndex): R[] {
  return rows.map((r) => (r.train || ix.byEpisode.has(r.id) ? { ...r, train: trainFieldsOf(ix, r.id, r.train) } : r));
}

/**
 * The groups the list's filter leaves in: a group is shown when one of its
 * siblings' rows passes (`pass` is the list's row test: expression, search
 * and selects). `undefined` pass: every group.
 */
export function groupsPassing(groups: readonly PageGroup[], rowsById: ReadonlyMap<string, ListRow>, pass?: (r: ListRow) => boolean): PageGroup[] {
  if (!pass) return [...groups];
  return groups.filter((g) =>
    g.episode_ids.some((id) => {
      const r = rowsById.get(id);
      return r !== undefined && pass(r);
    }),
  );
}

/** The step nearest to a chart's x (viewBox units), given the plot's left edge and width and its step range. */
export function nearestStep(steps: readonly number[], vx: number, plot: { left: number; width: number; x0: number; x1: number }): number | null {
  if (!steps.length) return null;
  const at = plot.x1 === plot.x0 ? plot.x0 : plot.x0 + ((vx - plot.left) / plot.width) * (plot.x1 - plot.x0);
  let best = steps[0];
  for (const s of steps) if (Math.abs(s - at) < Math.abs(best - at)) best = s;
  return best;
}

/** Every step of every run, sorted (a chart's x positions). */
export function allSteps(ix: TrainIndex): number[] {
  return [...new Set(ix.data.steps.map((s) => s.step))].sort((a, b) => a - b);
}
