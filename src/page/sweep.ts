/**
 * pass@k sweep maths: a task's k attempts are the episodes sharing
 * model_name x task (split, index); the attempt number is task.sample.
 * Per task: mean and best reward over its attempts and their spread
 * (population std and range: how much a single pass can move). Per model:
 * mean-of-k and best-of-k are the means over tasks of those per-task values,
 * so a task with more attempts does not weigh more.
 */
import { mean } from "./stats.ts";

export interface Attempt {
  id: string;
  model: string;
  split: string;
  index: number;
  /** task.sample; null when the record has none (then input order numbers it). */
  sample: number | null;
  reward: number | null;
}

export interface TaskAttempts {
  model: string;
  split: string;
  index: number;
  /** In attempt order (sample, then input order). */
  attempts: Attempt[];
  /** Attempts with a reward (an attempt without one is shown but not scored). */
  k: number;
  mean: number | null;
  best: number | null;
  std: number | null;
  range: number | null;
}

export interface SweepModel {
  model: string;
  tasks: number;
  attempts: number;
  /** The most attempts any task of this model has. */
  maxK: number;
  meanOfK: number | null;
  bestOfK: number | null;
  /** Mean over tasks of the per-task spread; tasks with one scored attempt have no spread and are left out. */
  meanStd: number | null;
  meanRange: number | null;
}

export interface SweepSummary {
  models: SweepModel[];
  tasks: TaskAttempts[];
}

/** Population standard deviation (the spread of these attempts, not an estimate of a wider one). */
export function populationStd(xs: readonly number[]): number | null {
  const m = mean(xs);
  if (m === null) return null;
  let s = 0;
  for (const x of xs) s += (x - m) * (x - m);
  return Math.sqrt(s / xs.length);
}

const scored = (a: Attempt[]): number[] => a.map((x) => x.reward).filter((r): r is number => r !== null && Number.isFinite(r));

export function taskAttempts(model: string, split: string, index: number, attempts: Attempt[]): TaskAttempts {
  // Stable sort: equal samples keep input order.
  const ordered = attempts
    .map((a, i) => ({ a, i }))
    .sort((x, y) => (x.a.sample ?? Infinity) - (y.a.sample ?? Infinity) || x.i - y.i)
    .map((x) => x.a);
  const r = scored(ordered);
  return {
    model,
    split,
    index,
    attempts: ordered,
    k: r.length,
    mean: mean(r),
    best: r.length ? Math.max(...r) : null,
    std: r.length > 1 ? populationStd(r) : null,
    range: r.length > 1 ? Math.max(...r) - Math.min(...r) : null,
  };
}

export function summariseSweep(attempts: readonly Attempt[]): SweepSummary {
  const groups = new Map<string, Attempt[]>();
  for (const a of attempts) {
    const key = JSON.stringify([a.model, a.split, a.index]);
    let g = groups.get(key);
    if (!g) groups.set(key, (g = []));
    g.push(a);
  }
  const tasks = [...groups.values()]
    .map((g) => taskAttempts(g[0].model, g[0].split, g[0].index, g))
    .sort((x, y) => (x.model < y.model ? -1 : x.model > y.model ? 1 : 0) || (x.split < y.split ? -1 : x.split > y.split ? 1 : 0) || x.index - y.index);
  const models = [...new Set(tasks.map((t) => t.model))].map((model): SweepModel => {
    const ts = tasks.filter((t) => t.model === model);
    const vals = (f: (t: TaskAttempts) => number | null) => ts.map(f).filter((x): x is number => x !== null);
    return {
      model,
      tasks: ts.length,
      attempts: ts.reduce((n, t) => n + t.attempts.length, 0),
      maxK: Math.max(...ts.map((t) => t.attempts.length)),
      meanOfK: mean(vals((t) => t.mean)),
      bestOfK: mean(vals((t) => t.best)),
      meanStd: mean(vals((t) => t.std)),
      meanRange: mean(vals((t) => t.range)),
    };
  });
  return { models, tasks };
}
