/**
 * `georeplay groups --json`: a training run's GRPO groups with the numbers
 * the trainer computed from them (TRL's GRPOTrainer), per group, per step and
 * for the run. Every type is inferred from these schemas.
 */
import { z } from "zod";
import { SCALE_REWARDS } from "./stats.ts";

const count = z.number().int().nonnegative();
/** A std, median or multiplier; null where it is undefined (a single rollout has no sample std). */
const maybe = z.number().nullable();

export const GroupEntrySchema = z.object({
  run: z.string().describe("the rollouts' `run`"),
  step: count.describe("the training step the rollouts were generated for"),
  task: z.object({ split: z.string(), index: count }).describe("the task all siblings played (the first sibling's when a group_id groups them)"),
  group_id: z.string().nullable().describe("the recorded `group_id`, when the rollouts carry one (it then defines the group)"),
  size: count.describe("siblings in the group"),
  mean: z.number().describe("mean reward of the group"),
  std: maybe.describe("sample std (Bessel, n - 1) of the rewards, as torch.std; null for a single rollout (torch: NaN)"),
  rewards: z.array(z.number()).describe("each sibling's reward (outcome.reward: the training curve the trainer optimised), in sibling order"),
  advantages: z
    .array(z.number())
    .describe(
      "each sibling's advantage: (r - mean) / (std + 1e-4) with the std of --scale-rewards (group or batch), r - mean under none; 0 when that std is null",
    ),
  zero_std: z.boolean().describe("torch.isclose(std, 0): the group gives no learning signal; false for a single rollout (torch: isclose(NaN, 0) is false)"),
  ranks: z
    .array(count)
    .describe(
      "each sibling's rank by advantage, in sibling order (1 = the highest; ties in sibling order): how `groups --detail`, the page and `render --group` number siblings (#1, #2, ...)",
    ),
  identical: z
    .array(z.array(count))
    .describe(
      "sets of siblings (positions in sibling order, 0-based) whose trajectories are byte-identical: the same actions and the same views (image hashes), turn by turn; such siblings score alike (where zero spread comes from)",
    ),
  rollouts: z.array(z.string()).describe("each sibling as `file:line` (the file as given on the command line), in sibling order: by file, then line"),
  episode_ids: z.array(z.string()).describe("each sibling's episode id as the other commands name it (`<file name>-L<line>`)"),
});
export type GroupEntry = z.infer<typeof GroupEntrySchema>;

export const StepEntrySchema = z.object({
  run: z.string(),
  step: count,
  groups: count,
  episodes: count.describe("rollouts in the step"),
  mean_reward: z.number().describe("mean reward over the step's rollouts"),
  frac_reward_zero_std: z
    .number()
    .describe("share of the step's rollouts whose group has zero spread (TRL's metric of that name under scale_rewards group or none)"),
  median_group_std: maybe.describe("median of the step's group stds (groups of one left out); null when no group has two rollouts"),
  mean_group_std: maybe.describe(
    "mean of the step's group stds, each counted once per rollout (groups of one left out): TRL's logged reward_std under scale_rewards group or none",
  ),
  multiplier: maybe.describe("1 / (median_group_std + 1e-4): how much the typical advantage is scaled up"),
  batch_std: maybe.describe("sample std over every reward of the step: what scale_rewards batch divides by"),
});
export type StepEntry = z.infer<typeof StepEntrySchema>;

export const AdvantageFindingSchema = z.object({
  run: z.string(),
  step: count,
  task: z.object({ split: z.string(), index: count }),
  group_id: z.string().nullable(),
  sibling: count.describe("the rollout's recorded `sibling` (else its position in sibling order, 0-based)"),
  reward: z.number().describe("its outcome.reward"),
  mean: z.number().describe("the group's mean reward, summed from 0.0 in recorded `sibling` order"),
  recorded: z.number().describe("the recorded outcome.advantage"),
  recomputed: z.number().describe("reward - mean"),
  file: z.string(),
  line: count.describe("1-based line of the rollout in `file`"),
});
export type AdvantageFinding = z.infer<typeof AdvantageFindingSchema>;

export const GroupsReportSchema = z.object({
  scale_rewards: z.enum(SCALE_REWARDS),
  reward: z.literal("outcome.reward").describe("the reward grouped: the training curve the trainer optimised"),
  rollouts: count,
  steps: z.array(StepEntrySchema).describe("one per (run, step), sorted by run then step"),
  groups: z.array(GroupEntrySchema).describe("sorted by run, step, task split, task index, then group_id"),
  summary: z.object({
    steps: count,
    groups: count,
    single_rollout_groups: count.describe("groups of one rollout: std null, advantage 0"),
    median_group_std: maybe.describe("median over every group of the run with a std"),
    multiplier: maybe.describe("1 / (median_group_std + 1e-4) over the run"),
    all_zero_std_steps: z.array(z.object({ run: z.string(), step: count })).describe("steps with frac_reward_zero_std = 1: nothing learned there"),
    largest_multipliers: z
      .array(z.object({ run: z.string(), step: count, multiplier: z.number(), median_group_std: z.number() }))
      .describe(
        "the (at most 5) steps whose median group std scales advantages up most; steps whose median std is 0 (zero spread: nothing to scale) are left out",
      ),
  }),
  recorded_advantages: z
    .object({
      checked: count.describe("rollouts that carry outcome.advantage (the crops gym records r - mean)"),
      ok: count.describe("of those, how many equal the recomputed r - mean exactly"),
      findings: z.array(AdvantageFindingSchema).describe("every recorded advantage that differs from r - mean (exit 1), in report order"),
    })
    .describe("recorded advantages checked against r - mean, whatever --scale-rewards shows (zeros when the rollouts record none)"),
});
export type GroupsReport = z.infer<typeof GroupsReportSchema>;
