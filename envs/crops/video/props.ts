/**
 * A crops episode's video props: the frames timeline (envs/crops/replay/frames-timeline.ts), the
 * trace as the trace pane shows it, each turn's HUD numbers and thumbnail, and the score card's
 * data (ground truth, final boxes, matches, the score's parts). Computed in Node from the record
 * and the dataset and handed in as data, so the scenes stay frame-pure and browser-safe.
 */
import { z } from "zod";
import { TraceEntry } from "../../../replay/trace/trace-entry.ts";
import { OutputSizeSchema } from "../../../video/scene/output-schema.ts";
import { TextPlanSchema } from "../../../video/text/text-plan-schema.ts";
import { CropsTimelineSchema } from "../replay/frames-timeline.ts";

const Rect = z.tuple([z.number(), z.number(), z.number(), z.number()]);
const int = () => z.number().int();
const nat = () => z.number().int().nonnegative();

/** What the HUD shows through one turn (index = the turn's place in the record). */
export const CropsHudSchema = z.object({
  turn: nat(),
  /** The action's name, or null when nothing parsed. */
  action: z.string().nullable(),
  status: z.string(),
  failed: z.boolean(),
  /** Boxes alive after the turn. */
  boxes: nat(),
  turnsLeft: int(),
  /** This turn's shaping hint (null on turn 0) and the running sum through it, from 0.0 in turn order. */
  shaping: z.number().nullable(),
  shapingSum: z.number(),
});
export type CropsHud = z.infer<typeof CropsHudSchema>;

export const CardBoxSchema = z.object({ id: z.string(), label: z.string(), box: Rect });

/** The score card: the whole image with every ground-truth and final box, and the score's parts. */
export const CropsCardSchema = z.object({
  /** The image file (relative to the video's folder). */
  image: z.string(),
  gt: z.array(CardBoxSchema),
  /** The final boxes; `id` is the box id as text. */
  boxes: z.array(CardBoxSchema),
  matches: z.array(z.object({ pred: int(), gt: z.string(), giou: z.number(), credit: z.number(), labelOk: z.boolean() })),
  misses: z.array(z.string()),
  falseAlarms: z.array(int()),
  score: z.number(),
  /** Sum of each match's credit (halved for a wrong label), in box-id order: the recall term's numerator. */
  sumQ: z.number(),
  recallTerm: z.number(),
  precisionFactor: z.number(),
  meanCredit: z.number().nullable(),
  labelAccuracy: z.number().nullable(),
  shapingSum: z.number(),
  endedBy: z.string().nullable(),
  turnsUsed: int().nullable(),
});
export type CropsCard = z.infer<typeof CropsCardSchema>;

export const CropsVideoPropsSchema = z.object({
  timeline: CropsTimelineSchema,
  /** Where the timeline's files are, relative to the video's folder ("" for the folder itself). */
  dir: z.string(),
  trace: z.array(TraceEntry),
  hud: z.array(CropsHudSchema).min(1),
  /** Per turn: the recorded thumbnail's file (relative to the video's folder), the view outlined as the model saw it. */
  thumbs: z.array(z.string()).min(1),
  thumbSize: z.tuple([int().positive(), int().positive()]),
  maxTurns: int().positive(),
  card: CropsCardSchema,
  /** Frames of the score card after the last hold. */
  cardFrames: nat(),
  output: OutputSizeSchema,
  text: TextPlanSchema.optional(),
});
export type CropsVideoProps = z.infer<typeof CropsVideoPropsSchema>;

/** Seconds the score card holds at the end. */
export const CARD_S = 5;
