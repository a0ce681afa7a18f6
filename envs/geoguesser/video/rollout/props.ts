/**
 * Rollout's props: the timeline (the generator's contract) plus an optional
 * output size and text plan. Validated with this schema by both engines.
 */
import { z } from "zod";
import { TimelineSchema } from "../../replay/timeline/timeline-schema.ts";
import { TextPlanSchema } from "../../../../video/text/text-plan-schema.ts";
import { OutputSizeSchema } from "../../../../video/scene/output-schema.ts";

export { DEFAULT_HEIGHT, DEFAULT_WIDTH, outputSize } from "../../../../video/scene/output-size.ts";
export { OutputSizeSchema } from "../../../../video/scene/output-schema.ts";

export const RolloutPropsSchema = TimelineSchema.extend({
  /** Output video size; default 1280x720. Layout is designed for 16:9. */
  output: OutputSizeSchema.optional(),
  /** Lines laid out in Node for this size (scene/text.ts); absent or stale, the browser measures (approximate). */
  text: TextPlanSchema.optional(),
});
export type RolloutProps = z.infer<typeof RolloutPropsSchema>;
