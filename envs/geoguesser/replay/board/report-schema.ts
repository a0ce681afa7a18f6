/**
 * `georeplay report --json`: the board geoeval's report prints, as one object
 * with every number at full precision (null where the text prints `nan`).
 * Browser-safe: the board page reads the same object.
 */
import { z } from "zod";

const count = z.number().int().nonnegative();
/** A mean or percentage; null when its denominator is empty (the text prints `nan`). */
const maybe = z.number().nullable();

export const ReportArm = z.object({
  arm: z.string().describe("model_name, exactly as recorded"),
  episodes: count.describe("scored episodes of this arm"),
  tasks: count.describe("distinct task indexes with at least one scored episode"),
  k: z.number().describe("mean number of scored attempts per task"),
  mean_of_k: z.number().describe("mean over tasks of the task's mean recomputed reward"),
  best_of_k: z.number().describe("mean over tasks of the task's best recomputed reward"),
  median_km: maybe.describe("median distance_km over scored episodes with a distance"),
  turns: maybe,
  looks: maybe,
  moves: maybe,
  pins: maybe,
  cost: maybe.describe("mean action_cost, raw (not clamped)"),
  country_pct: maybe,
  within_200km_pct: maybe,
  within_750km_pct: maybe,
  env_floor_pct: z.number().describe("share whose stored env reward is exactly 0 (legacy column zero%)"),
  no_guess_pct: z.number().describe("share with no distance (no usable guess)"),
  forced_pct: maybe,
  tok_out: maybe,
});
export type ReportArm = z.infer<typeof ReportArm>;

export const PairedComparison = z.object({
  arm: z.string(),
  n: count.describe("tasks both this arm and the baseline attempted"),
  delta: z.number().describe("mean over shared tasks of (arm's task mean − baseline's task mean)"),
  se: z.number().describe("stdev(diffs)/√n (legacy: pstdev)"),
  ci_low: z.number(),
  ci_high: z.number(),
  significant: z.boolean().describe("|delta| > 1.96·se"),
  better_on: count.describe("shared tasks where the arm's mean is strictly higher"),
});
export type PairedComparison = z.infer<typeof PairedComparison>;

export const ReportTaskArm = z.object({
  arm: z.string(),
  attempts: count,
  mean: z.number(),
  best: z.number(),
  delta: z
    .number()
    .nullable()
    .describe("mean − the baseline's mean on this task; null for the baseline itself, without a baseline, or if the baseline did not attempt it"),
});

export const ReportTask = z.object({
  index: z.number(),
  arms: z.array(ReportTaskArm).describe("the arms that attempted this task, in rank order"),
});

export const ReportSchema = z.object({
  layout: z.enum(["current", "legacy"]).describe("current = geoeval 12e04618, legacy = 4df3d4d4"),
  geoeval_version: z.enum(["12e04618", "4df3d4d4"]),
  episodes: count.describe("scored episodes"),
  arms: z.array(ReportArm).describe("in rank order (mean_of_k descending; ties in order of first appearance)"),
  paired: z
    .object({
      baseline: z.string(),
      comparisons: z.array(PairedComparison).describe("rank order, baseline left out"),
      skipped: z.array(z.object({ arm: z.string(), shared: count })).describe("arms sharing fewer than 2 tasks with the baseline"),
    })
    .nullable()
    .describe("null when the baseline arm is absent"),
  tasks: z.array(ReportTask).describe("every task index any arm attempted, ascending"),
  dropped_unscored: count.describe("rows read whose outcome.reward is null or missing (errored rows included)"),
  dropped_by_arm: z.array(z.object({ arm: z.string().nullable().describe('model_name; "?" when missing, null when null'), episodes: count })),
  dropped_errored: count.describe("of dropped_unscored, the rows the environment failed (an error and no turns); the rest have no env reward"),
  files: z
    .array(
      z.object({
        file: z.string(),
        rows: count,
        scored: count,
        unscored: count,
        torn_lines: count.describe("lines that are not JSON, skipped"),
      }),
    )
    .describe("in read order (geoeval's glob order)"),
  torn_lines: count,
  quarantined_files: z.array(z.string()).describe("episodes.jsonl files under _quarantined/, left out (geoeval would read them)"),
});
export type Report = z.infer<typeof ReportSchema>;
