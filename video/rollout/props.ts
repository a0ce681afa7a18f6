/**
 * Rollout's props: the timeline (the generator's contract) plus an optional
 * output size and text plan. Validated with this schema by both engines.
 */
import { z } from "zod";
import { TimelineSchema } from "../../envs/geoguesser/replay/timeline/timeline-schema.ts";
import { TextPlanSchema } from "../text/text-plan-schema.ts";

export { DEFAULT_HEIGHT, DEFAULT_WIDTH, outputSize } from "./output-size.ts";

const EvenSide = z
  .number()
  .int()
  .min(16)
  .max(7680)
  .refine((n) => n % 2 === 0, { message: "H.264 with yuv420p needs even dimensions" });

/** Output video size; default 1280x720. */
export const OutputSizeSchema = z.object({ width: EvenSide, height: EvenSide });

export const RolloutPropsSchema = TimelineSchema.extend({
  /** Output video size; default 1280x720. Layout is designed for 16:9. */
  output: OutputSizeSchema.optional(),
  /** Lines laid out in Node for this size (scene/text.ts); absent or stale, the browser measures (approximate). */
  text: TextPlanSchema.optional(),
});
export type RolloutProps = z.infer<typeof RolloutPropsSchema>;
