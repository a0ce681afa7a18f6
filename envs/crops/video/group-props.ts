/**
 * A crops GRPO group's video props: the siblings (training rollouts of one step on one image),
 * each with its episode video's props and the reward and advantage the trainer used, in rank
 * order (highest advantage first), plus the group's numbers. Computed in Node, handed in as data.
 */
import { z } from "zod";
import { OutputSizeSchema } from "../../../video/scene/output-schema.ts";
import { TextPlanSchema } from "../../../video/text/text-plan-schema.ts";
import { GroupInfoSchema } from "../../../video/scene/group-info-schema.ts";
import { CropsVideoPropsSchema } from "./props.ts";

export const CropsSiblingSchema = z.object({
  props: CropsVideoPropsSchema,
  /** The rollout's `sibling` number (its colour), and where it is as `file:line` (the file's name only). */
  sibling: z.number().int().nonnegative(),
  rollout: z.string(),
  /** outcome.reward as recorded (= the score). */
  reward: z.number(),
  /** Under the group's scaleRewards (none: r - mean, the gym's recorded advantage). */
  advantage: z.number(),
});
export type CropsSibling = z.infer<typeof CropsSiblingSchema>;

export const CropsGroupPropsSchema = z.object({
  group: GroupInfoSchema,
  siblings: z.array(CropsSiblingSchema).min(1).max(16),
  cardFrames: z.number().int().nonnegative(),
  output: OutputSizeSchema,
  text: TextPlanSchema.optional(),
});
export type CropsGroupProps = z.infer<typeof CropsGroupPropsSchema>;
