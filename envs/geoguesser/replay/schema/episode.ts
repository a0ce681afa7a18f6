/**
 * The eval harness's episode record (schema_version 2), as zod schemas.
 *
 * Objects are "loose": producers add fields over time and georeplay keeps
 * them. Fields georeplay relies on (cameras, hashes, task reference, turns)
 * are checked strictly. Every type here is inferred from its schema.
 */
import { z } from "zod";

const finite = () => z.number();
const num = () => z.number().nullish();
const int = () => z.number().int();

export const LatLonSchema = z.tuple([finite().min(-90).max(90), finite().min(-180).max(180)]);
export type LatLon = z.infer<typeof LatLonSchema>;

export const CameraSchema = z.looseObject({
  heading_deg: finite(),
  pitch_deg: finite().min(-90).max(90),
  fov_deg: finite().gt(0).lt(180),
  frame_index: int().nonnegative(),
});
export type Camera = z.infer<typeof CameraSchema>;

export const AttributionSchema = z.looseObject({
  creator_username: z.string().nullish(),
  creator_id: z.string().nullish(),
  licence: z.string().nullish(),
  source: z.string().nullish(),
});
export type Attribution = z.infer<typeof AttributionSchema>;

export const TokensSchema = z.looseObject({ input: num(), output: num() });

export const ModelCallSchema = z.looseObject({
  reply: z.string().nullish(),
  reasoning: z.string().nullish(),
  finish_reason: z.string().nullish(),
  tokens: TokensSchema.nullish(),
  latency_s: num(),
  attempts: num(),
  errors: z.array(z.unknown()).nullish(),
});
export type ModelCall = z.infer<typeof ModelCallSchema>;

export const ImageKindSchema = z.enum(["view", "map", "none"]);

export const TurnSchema = z
  .looseObject({
    turn: int().nonnegative(),
    status: z.string(),
    camera_before: CameraSchema.nullish(),
    camera_after: CameraSchema.nullish(),
    action: z.looseObject({}).nullish(),
    pins: z.array(LatLonSchema).nullish(),
    image_kind: ImageKindSchema.nullish(),
    image_sha256: z.string().nullish(),
    feedback: z.string().nullish(),
    steps_remaining: int().nullish(),
    action_cost: num(),
    moved_meters: num(),
    total_moved_meters: num(),
    reward: num(),
    done: z.boolean().nullish(),
    model: ModelCallSchema.nullish(),
    prompt: z.string().nullish(),
  })
  .superRefine((t, ctx) => {
    if (t.image_kind === "view" && t.image_sha256 != null) {
      if (!t.camera_after) {
        ctx.addIssue({ code: "custom", path: ["camera_after"], message: "a view turn with a hash needs camera_after" });
      }
      if (!/^[0-9a-fA-F]{64}$/.test(t.image_sha256)) {
        ctx.addIssue({
          code: "custom",
          path: ["image_sha256"],
          message: `expected 64 hex digits (sha256), got ${JSON.stringify(t.image_sha256.slice(0, 70))}`,
        });
      }
    }
  });
export type Turn = z.infer<typeof TurnSchema>;

export const EpisodeTaskSchema = z.looseObject({
  split: z.string().min(1),
  index: int().nonnegative(),
  sample: int().nullish(),
  task_id: z.string().nullish(),
  sequence_id: z.string().nullish(),
  captured_at: z.string().nullish(),
  attribution: AttributionSchema.nullish(),
  country: z.string().nullish(),
});
export type EpisodeTask = z.infer<typeof EpisodeTaskSchema>;

export const OutcomeSchema = z.looseObject({
  reward: num(),
  train_reward: num(),
  distance_km: num(),
  parsed_ok: z.boolean().nullish(),
  guess: LatLonSchema.nullish(),
  guess_country: z.string().nullish(),
  verdict: z.string().nullish(),
  score_before_cost: num(),
  truth: LatLonSchema.nullish(),
  action_cost: num(),
  total_moved_meters: num(),
  forced_guess: z.boolean().nullish(),
  turns_used: num(),
  tokens_in: num(),
  tokens_out: num(),
  model_latency_s: num(),
  wall_clock_s: num(),
});
export type Outcome = z.infer<typeof OutcomeSchema>;

export const ConfigSchema = z.looseObject({
  mode: z.string().nullish(),
  prompt_version: z.string().nullish(),
  max_turns: int().nullish(),
});

export const EpisodeSchema = z.looseObject({
  schema_version: z.literal(2),
  episode_id: z.string().min(1),
  recorded_at: z.string().nullish(),
  model_name: z.string(),
  model: z.looseObject({}).nullish(),
  task: EpisodeTaskSchema,
  config: ConfigSchema.nullish(),
  turns: z.array(TurnSchema),
  outcome: OutcomeSchema.nullish(),
});
export type Episode = z.infer<typeof EpisodeSchema>;

/** An episode whose environment kept failing: reported and skipped, never replayed. */
export const ErroredEpisodeSchema = z.looseObject({
  schema_version: z.number().nullish(),
  episode_id: z.string().nullish(),
  model_name: z.string().nullish(),
  task: z.looseObject({ split: z.string().nullish(), index: z.number().nullish() }).nullish(),
  error: z.unknown(),
  traceback: z.unknown().optional(),
});
export type ErroredEpisode = z.infer<typeof ErroredEpisodeSchema>;
