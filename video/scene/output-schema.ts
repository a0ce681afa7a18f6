/**
 * The output size every composition's props may carry, validated: even sides (H.264 with yuv420p).
 * Apart from the scenes (output-size.ts reads it validated) so that a painter's thread loads no validator.
 */
import { z } from "zod";

const EvenSide = z
  .number()
  .int()
  .min(16)
  .max(7680)
  .refine((n) => n % 2 === 0, { message: "H.264 with yuv420p needs even dimensions" });

/** Output video size; default 1280x720. */
export const OutputSizeSchema = z.object({ width: EvenSide, height: EvenSide });
