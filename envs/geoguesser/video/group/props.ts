/**
 * The Group composition's props: a GRPO group's siblings (training rollouts
 * of one step on one task), each with its timeline and the reward and
 * advantage the trainer used, on one clock; plus the group's own numbers.
 * The numbers are computed in Node (replay/groups/) and handed in as data, so
 * the scene stays frame-pure and browser-safe. Validated by both engines.
 */
import { z } from "zod";
import { TimelineSchema } from "../../replay/timeline/timeline-schema.ts";
import { OutputSizeSchema } from "../rollout/props.ts";
import { TextPlanSchema } from "../../../../video/text/text-plan-schema.ts";
import { GroupInfoSchema, type GroupInfo } from "../../../../video/scene/group-info-schema.ts";

export const GroupSiblingSchema = z.object({
  timeline: TimelineSchema,
  /** outcome.reward as recorded: the reward the trainer optimised and the advantages are computed from. */
  reward: z.number(),
  /** The sibling's advantage under the group's scaleRewards (replay/groups/stats.ts). */
  advantage: z.number(),
  /** Where the rollout is, as `file:line` (the file's name only: no folders in a video). */
  rollout: z.string(),
});
export type GroupSibling = z.infer<typeof GroupSiblingSchema>;

export { GroupInfoSchema, type GroupInfo };

/** A grid of at most 64 tiles (8x8): past that a tile is too small to read. */
export const MAX_GROUP_SIZE = 64;

export const GroupPropsSchema = z.object({
  version: z.literal(1),
  group: GroupInfoSchema,
  /** By rank (highest advantage first, as `georeplay groups --detail` numbers them); tile n is sibling #n+1. */
  siblings: z.array(GroupSiblingSchema).min(1).max(MAX_GROUP_SIZE),
  /** Output video size; default 1280x720. */
  output: OutputSizeSchema.optional(),
  /** Lines laid out in Node for this size (scene/text.ts). */
  text: TextPlanSchema.optional(),
});
export type GroupProps = z.infer<typeof GroupPropsSchema>;
