/**
 * `timeline.json`: the contract between the frame generator (which owns every
 * pixel of the panorama and all camera geometry) and the Remotion composition
 * (which only lays out and animates what this file says). One schema, imported
 * by both; the composition uses it as its props schema.
 */
import { z } from "zod";
import { TraceEntry } from "../../../../replay/trace/trace-entry.ts";
export { TraceEntry } from "../../../../replay/trace/trace-entry.ts";

export const LatLon = z.tuple([z.number(), z.number()]);

/** What the HUD shows on one video frame. Interpolated by the generator, never by the composition. */
export const HudState = z.object({
  heading: z.number(), // degrees, [0, 360)
  pitch: z.number(),
  fov: z.number(),
  stepsRemaining: z.number().int().nullable(),
  cost: z.number(), // cumulative action cost
  frameIndex: z.number().int(), // index into the task's frames (position along the road)
  metres: z.number(), // total metres walked so far
  /**
   * Optional: HUD fields the recording does not hold (example-rollout folders record no pitch,
   * frame index or distance walked). Their numbers above are placeholders; show them as unknown.
   * Absent means every field is known.
   */
  unknown: z.array(z.enum(["heading", "pitch", "fov", "stepsRemaining", "cost", "frameIndex", "metres"])).optional(),
});
export type HudState = z.infer<typeof HudState>;

export const SegmentKind = z.enum([
  "opening", // the first view, held before turn 1
  "camera", // look / pan / zoom: the panorama moves
  "move", // walk along the road: crossfade from the old panorama to the new one at the same pose
  "map", // place_pin / view_map: no panorama motion, the map shows pins
  "hold", // a turn that never reached the environment, a dead-end move, or a no-image turn
  "guess", // the final answer; followed by the score card
  "score", // the score card at the end (guess against truth)
]);
export type SegmentKind = z.infer<typeof SegmentKind>;

export const Segment = z.object({
  turn: z.number().int(), // the trace turn number this segment shows (-1 for the score card)
  kind: SegmentKind,
  startFrame: z.number().int().nonnegative(),
  durationFrames: z.number().int().positive(),
  /** Frame files for the first `frames.length` video frames of the segment; the last one holds after. */
  frames: z.array(z.string()),
  /** HUD per motion frame (same length as `frames`, or 1 for a held state); the last one holds after. */
  hud: z.array(HudState).min(1),
  /** For `move`: crossfade between two frame files over `blendFrames` video frames, starting at the segment start. */
  crossfade: z.object({ from: z.string(), to: z.string(), blendFrames: z.number().int().positive() }).nullable(),
  /** Number of video frames (from segment start) during which the camera moves; the rest is the hold. */
  motionFrames: z.number().int().nonnegative(),
  /** Pins placed so far, after this turn. */
  pins: z.array(LatLon),
  /**
   * Video-frame offset (from segment start) of the image the model saw, when this turn produced a view.
   * `sha256` is the sha256 (64 hex) of that frame file's bytes, given only when the file is byte for byte
   * the image the model saw (a verified replay view, or a recorded image copied unchanged); else null.
   * It is never the trace's recorded digest (training traces record 16 hex digits over the base64 text).
   */
  keyframe: z.object({ offset: z.number().int().nonnegative(), file: z.string(), sha256: z.string().nullable() }).nullable(),
});
export type Segment = z.infer<typeof Segment>;

export const Outcome = z.object({
  guess: LatLon.nullable(),
  truth: LatLon.nullable(),
  distanceKm: z.number().nullable(),
  // The environment's stored outcome.reward ("env reward"). Score cards show geoeval's reward, recomputed
  // from distanceKm and cost (video/rollout/score-card.ts cardReward), as pages do.
  reward: z.number().nullable(),
  points: z.number().int().nullable(), // round(5000 * exp(-d / 1492.7))
  verdict: z.string().nullable(),
  cost: z.number().nullable(),
  turnsUsed: z.number().int().nullable(),
  forcedGuess: z.boolean(),
});
export type Outcome = z.infer<typeof Outcome>;

export const EpisodeInfo = z.object({
  episodeId: z.string(),
  modelName: z.string(),
  split: z.string(),
  index: z.number().int(),
  taskId: z.string().nullable(),
  /** Revealed only once the guess is made; the composition must not show it earlier. */
  country: z.string().nullable(),
  attribution: z.object({ creator: z.string().nullable(), licence: z.string(), source: z.string() }),
  /** True when every view was re-rendered and matched its recorded hash. */
  verified: z.boolean(),
  /** "replay": re-rendered from the camera trajectory; "slideshow": recorded images shown as they are. */
  source: z.enum(["replay", "slideshow"]),
  recordFormat: z.enum(["eval", "train", "example"]),
  /**
   * Optional, slideshows only: true when a later episode of the same task overwrote the recorded image
   * files, so the images shown belong to that episode, not this one.
   */
  imagesOverwritten: z.boolean().optional(),
  /** Optional, unverified replays only: the turns whose re-rendered view did not hash to the recorded digest (the banner names them). */
  driftedTurns: z.array(z.number().int()).optional(),
});
export type EpisodeInfo = z.infer<typeof EpisodeInfo>;

export const TimelineSchema = z.object({
  version: z.literal(1),
  fps: z.number().int().positive(),
  /** Size of each frame file (the model's own view size by default). */
  viewport: z.object({ width: z.number().int().positive(), height: z.number().int().positive() }),
  totalFrames: z.number().int().positive(),
  /** Folder of the frame files, relative to Remotion's public/ dir (for staticFile). */
  framesDir: z.string(),
  episode: EpisodeInfo,
  segments: z.array(Segment).min(1),
  trace: z.array(TraceEntry),
  outcome: Outcome.nullable(),
});
export type Timeline = z.infer<typeof TimelineSchema>;
