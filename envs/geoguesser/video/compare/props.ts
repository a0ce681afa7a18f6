/**
 * The Compare composition's props: two timelines (A and B, each with the arm
 * and pass it shows) on one clock, plus an optional output size. Validated
 * by Remotion against this schema; browser-safe.
 */
import { z } from "zod";
import { TimelineSchema } from "../../replay/timeline/timeline-schema.ts";
import { OutputSizeSchema } from "../rollout/props.ts";
import { TextPlanSchema } from "../../../../video/text/text-plan-schema.ts";

export const CompareSideSchema = z.object({
  timeline: TimelineSchema,
  /** The arm: the recording's model_name, as recorded. */
  arm: z.string(),
  /** The pass: the recording's task.sample (null when it has none). */
  pass: z.number().int().nullable(),
  /** Short name on the map and the score card ("A · base"). */
  label: z.string(),
});
export type CompareSide = z.infer<typeof CompareSideSchema>;

export const ComparePropsSchema = z.object({
  version: z.literal(1),
  a: CompareSideSchema,
  b: CompareSideSchema,
  /** Output video size; default 1280x720 (16:9 and square layouts). */
  output: OutputSizeSchema.optional(),
  /** Lines laid out in Node for this size (scene/text.ts). */
  text: TextPlanSchema.optional(),
});
export type CompareProps = z.infer<typeof ComparePropsSchema>;

export { sameTask, sideLabels } from "./sides.ts";
