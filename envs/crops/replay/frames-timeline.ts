/**
 * `timeline.json` of a crops episode's frames: fps, every video frame (its camera rectangle, its
 * file, which recorded view it is if any), the keyframes (the exact JPEGs the model saw), the
 * per-turn events (action, status, boxes appearing, moving, fading out) and the outcome. One
 * zod schema; the writer validates against it. Rectangles are [x0, y0, x1, y1] in image pixels.
 */
import { z } from "zod";

const Rect = z.tuple([z.number(), z.number(), z.number(), z.number()]);
const int = () => z.number().int();
const nat = () => z.number().int().nonnegative();

export const CropsFrame = z.object({
  /** The camera: the image rectangle this frame shows. */
  camera: Rect,
  /** The frame file (relative to the timeline's folder). */
  file: z.string(),
  /** The turn whose move or hold this frame belongs to (0: the opening view). */
  turn: nat(),
  /** The turn whose recorded view this file is, byte for byte; null for an in-between frame. */
  keyframe: nat().nullable(),
});

export const CropsKeyframe = z.object({
  turn: nat(),
  file: z.string(),
  /** sha256 of the file's bytes; equal to `recordedSha256` unless the episode is unverified. */
  sha256: z.string(),
  recordedSha256: z.string(),
  view: Rect,
  /** The first video frame showing it. */
  frame: nat(),
});

export const BoxEvent = z.object({
  id: int().min(1),
  /** appear: drawn on this turn; move: adjusted (new box or label); remove: deleted, fades out. */
  kind: z.enum(["appear", "move", "remove"]),
  /** Video frame the event happens on (the turn's keyframe). */
  frame: nat(),
  /** Frames the outline takes to fade out (remove only; 0 otherwise). */
  fadeFrames: nat(),
  label: z.string(),
  /** The box after the event (remove: the box as it was), image pixels. */
  box: Rect,
  /** The box before a move or remove; null for appear. */
  from: Rect.nullable(),
  colour: z.tuple([int(), int(), int()]),
});

export const TurnEvent = z.object({
  turn: nat(),
  /** The action's name as recorded (null when the reply had none: unparseable, provider error). */
  action: z.string().nullable(),
  status: z.string(),
  /** First video frame of the turn (its move, or its hold when the view stays). */
  startFrame: nat(),
  motionFrames: nat(),
  holdFrames: nat(),
  /** The turn's keyframe (its recorded view) shows from this frame on. */
  keyframeFrame: nat(),
  view: Rect,
  boxes: z.array(BoxEvent),
});

export const CropsOutcome = z.object({
  score: z.number(),
  endedBy: z.string().nullable(),
  turnsUsed: int().nullable(),
  matches: z.array(z.object({ pred: int(), gt: z.string(), credit: z.number(), labelOk: z.boolean() })),
  misses: z.array(z.string()),
  falseAlarms: z.array(int()),
});

export const CropsTimelineSchema = z.object({
  version: z.literal(1),
  env: z.literal("crops"),
  fps: int().positive(),
  /** Size of every frame file: the episode's view size. */
  viewport: z.object({ width: int().positive(), height: int().positive() }),
  image: z.object({ id: z.string(), width: int().positive(), height: int().positive() }),
  totalFrames: int().positive(),
  framesDir: z.string(),
  episode: z.object({
    episodeId: z.string(),
    modelName: z.string().nullable(),
    split: z.string(),
    index: nat(),
    /** True when every view and thumbnail reproduced its recorded sha256. */
    verified: z.boolean(),
    /** Turns whose view or thumbnail did not reproduce (only with --unverified). */
    drifted: z.array(nat()),
  }),
  keyframes: z.array(CropsKeyframe).min(1),
  frames: z.array(CropsFrame).min(1),
  turns: z.array(TurnEvent).min(1),
  outcome: CropsOutcome,
});
export type CropsTimeline = z.infer<typeof CropsTimelineSchema>;
export type CropsTurnEvent = z.infer<typeof TurnEvent>;
export type CropsBoxEvent = z.infer<typeof BoxEvent>;
