/** A task index row: where an episode's panoramas come from. */
import { z } from "zod";
import { AttributionSchema } from "./episode.ts";

export const FrameSchema = z.looseObject({
  image_id: z.string().min(1),
  lat: z.number().min(-90).max(90),
  lon: z.number().min(-180).max(180),
  compass_angle: z.number().nullish(),
  captured_at: z.string().nullish(),
  is_pano: z.boolean().nullish(),
});
export type Frame = z.infer<typeof FrameSchema>;

export const TaskRowSchema = z.looseObject({
  task_index: z.number().int().nonnegative(),
  task_id: z.string().nullish(),
  country: z.string().nullish(),
  sequence_id: z.string().nullish(),
  provider: z.string().nullish(),
  start_frame: z.number().int().nonnegative().nullish(),
  frames: z.array(FrameSchema).min(1),
  attribution: AttributionSchema.nullish(),
  meta: z.looseObject({}).nullish(),
});
export type TaskRow = z.infer<typeof TaskRowSchema>;
