/**
 * The text plan's schema (layouter.ts): what props carry of the lines laid
 * out in Node. Apart from the layouter so that painting, which replays a plan
 * already validated, loads no validator.
 */
import { z } from "zod";

const PlaceSchema = z.tuple([z.string(), z.number(), z.number(), z.number()]);
export const TextPlanSchema = z.record(z.string(), z.union([z.string(), z.array(z.string()), z.number(), z.array(PlaceSchema)]));
export type TextPlan = z.infer<typeof TextPlanSchema>;
