/**
 * A GRPO group's own numbers as every environment's group video shows them (the numbers are
 * computed in Node by replay/groups/ and handed in as data, so the scenes stay frame-pure).
 */
import { z } from "zod";

export const GroupInfoSchema = z.object({
  run: z.string(),
  step: z.number().int().nonnegative(),
  split: z.string(),
  index: z.number().int().nonnegative(),
  groupId: z.string().nullable(),
  /** TRL's scale_rewards: what the advantages were divided by. */
  scaleRewards: z.enum(["group", "batch", "none"]),
  mean: z.number(),
  /** Sample std of the rewards; null for a group of one. */
  std: z.number().nullable(),
  /** isclose(std, 0): the group gave no learning signal. */
  zeroStd: z.boolean(),
});
export type GroupInfo = z.infer<typeof GroupInfoSchema>;
