/**
 * A pass@k sweep as the page shows it. Every mean-of-k, best-of-k, k and
 * attempt count is `georeplay report`'s own (replay/board: geoeval's
 * recomputed reward, its treatment of unscored rows, its k), never a second
 * computation here. What the page adds is the attempts themselves, named by
 * their record's attempt number (task.sample), with the ones geoeval does
 * not count (unscored: no env reward) marked as such, and the spread between
 * a task's counted attempts (population std and max - min, over the same
 * recomputed rewards the report averages).
 */
import { fmean, pstdev } from "../../../../replay/board/pymath.ts";
import type { Report, ReportArm } from "../../replay/board/report-schema.ts";
import { byAttempt, counted } from "../../../../src/page/attempts.ts";

export interface Attempt {
  id: string;
  model: string;
  split: string;
  index: number;
  /** task.sample; null when the record has none. */
  sample: number | null;
  /** geoeval's recomputed reward. */
  score: number;
  /** The environment's stored reward; null = unscored (geoeval leaves the row out). */
  env: number | null;
}

export { counted, byAttempt };

export interface TaskAttempts {
  model: string;
  index: number;
  /** Every record of this arm on this task, by attempt number then input order (counted or not). */
  attempts: Attempt[];
  /** The report's numbers for this arm and task; null when none of its attempts is counted. */
  k: number;
  mean: number | null;
  best: number | null;
  /** Spread of the counted attempts' recomputed rewards; null under two. */
  std: number | null;
  range: number | null;
}

export interface SweepModel {
  /** The report's row for this arm. */
  arm: ReportArm;
  /** Rows read for this arm that the report leaves out (no env reward). */
  unscored: number;
  meanStd: number | null;
  meanRange: number | null;
}

export interface SweepSummary {
  models: SweepModel[];
  tasks: TaskAttempts[];
}

const nanNull = (x: number) => (Number.isNaN(x) ? null : x);

export function summariseSweep(report: Report, attempts: readonly Attempt[]): SweepSummary {
  const groups = new Map<string, Attempt[]>();
  for (const a of attempts) {
    const key = JSON.stringify([a.model, a.index]);
    let g = groups.get(key);
    if (!g) groups.set(key, (g = []));
    g.push(a);
  }
  const reportTask = new Map(report.tasks.flatMap((t) => t.arms.map((a) => [JSON.stringify([a.arm, t.index]), a] as const)));
  const rank = new Map(report.arms.map((a, i) => [a.arm, i]));
  const tasks = [...groups.entries()]
    .map(([key, g]): TaskAttempts => {
      const r = reportTask.get(key);
      const scores = g.filter(counted).map((a) => a.score);
      return {
        model: g[0].model,
        index: g[0].index,
        attempts: byAttempt(g),
        k: r?.attempts ?? 0,
        mean: r?.mean ?? null,
        best: r?.best ?? null,
        std: scores.length > 1 ? pstdev(scores) : null,
        range: scores.length > 1 ? Math.max(...scores) - Math.min(...scores) : null,
      };
    })
    .sort((x, y) => (rank.get(x.model) ?? Infinity) - (rank.get(y.model) ?? Infinity) || x.index - y.index);
  const models = report.arms.map((arm): SweepModel => {
    const ts = tasks.filter((t) => t.model === arm.arm);
    const spread = (f: (t: TaskAttempts) => number | null) => ts.map(f).filter((x): x is number => x !== null);
    return {
      arm,
      unscored: ts.reduce((n, t) => n + t.attempts.filter((a) => !counted(a)).length, 0),
      meanStd: nanNull(fmean(spread((t) => t.std))),
      meanRange: nanNull(fmean(spread((t) => t.range))),
    };
  });
  return { models, tasks };
}
