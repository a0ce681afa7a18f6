/**
 * Example-rollout folders (`<dir>/<provider>_<mode>/`): `trace.jsonl` (one
 * episode per line), `images/` (the environment's image bytes as sent) and
 * `summary.json`. No hashes, pitch, frame index or pins: the images are the
 * record. Image files are located by the documented naming rule
 * (`images/t<task:03d>_turn<turn:02d>.jpg|png`) inside the folder the user
 * named; the trace's own `image` field is only cross-checked, never used as a
 * path.
 */
import { z } from "zod";
import { join, basename } from "node:path";
import type { Episode, Turn } from "../schema/episode.ts";

export const ExampleRowSchema = z.looseObject({
  turn: z.number().int().nonnegative(),
  reply: z.string().nullish(),
  action: z.looseObject({}).nullish(),
  feedback: z.string().nullish(),
  heading_deg: z.number().nullish(),
  fov_deg: z.number().nullish(),
  steps_remaining: z.number().int().nullish(),
  action_cost: z.number().nullish(),
  image_kind: z.enum(["view", "map", "none"]).nullish(),
  reward: z.number().nullish(),
  distance_km: z.number().nullish(),
  image: z.string().nullish(),
});

export const ExampleEpisodeSchema = z.looseObject({
  task_index: z.number().int().nonnegative(),
  country: z.string().nullish(),
  reward: z.number().nullish(),
  distance_km: z.number().nullish(),
  parsed_ok: z.boolean().nullish(),
  latency_s: z.number().nullish(),
  turns: z.number().int().nullish(),
  action_cost: z.number().nullish(),
  reply: z.string().nullish(),
  trace: z.array(ExampleRowSchema),
});
export type ExampleEpisode = z.infer<typeof ExampleEpisodeSchema>;

export const ExampleSummarySchema = z.looseObject({
  provider: z.string().nullish(),
  model: z.string().nullish(),
  mode: z.string().nullish(),
  episodes: z.number().nullish(),
  mean_reward: z.number().nullish(),
  median_distance_km: z.number().nullish(),
});
export type ExampleSummary = z.infer<typeof ExampleSummarySchema>;

/** The image file a row refers to, by the naming rule, and whether the trace's `image` field agrees. */
export function exampleImageFile(
  dir: string,
  task: number,
  row: { turn: number; image_kind?: string | null; image?: string | null },
): { path: string; name: string; agrees: boolean } | null {
  if (row.image_kind !== "view" && row.image_kind !== "map") return null;
  const name = `t${String(task).padStart(3, "0")}_turn${String(row.turn).padStart(2, "0")}.${row.image_kind === "view" ? "jpg" : "png"}`;
  return { path: join(dir, "images", name), name, agrees: row.image == null || row.image === `images/${name}` };
}

/** One recorded image of an example-rollout episode (by turn). */
export interface RecordedImage {
  turn: number;
  kind: "view" | "map";
  path: string;
  /** False when a later episode of the same task overwrote this file: the file shows that episode, not this one. */
  trustworthy: boolean;
  /** The trace's own `image` field names another file than the naming rule. */
  nameMismatch: boolean;
}

export function exampleToEpisode(
  ex: ExampleEpisode,
  dir: string,
  summary: ExampleSummary | null,
  line: number,
  overwritten: boolean,
): { episode: Episode; images: RecordedImage[] } {
  const images: RecordedImage[] = [];
  const turns: Turn[] = ex.trace.map((row) => {
    const file = exampleImageFile(dir, ex.task_index, row);
    if (file) images.push({ turn: row.turn, kind: row.image_kind as "view" | "map", path: file.path, trustworthy: !overwritten, nameMismatch: !file.agrees });
    return {
      turn: row.turn,
      status: "ok",
      camera_before: null,
      camera_after: null,
      // Pitch and frame index were not recorded: only what was is kept.
      recorded_camera: { heading_deg: row.heading_deg ?? null, fov_deg: row.fov_deg ?? null },
      action: row.action ?? null,
      pins: [],
      image_kind: row.image_kind ?? "none",
      image_sha256: null,
      feedback: row.feedback ?? null,
      steps_remaining: row.steps_remaining ?? null,
      action_cost: row.action_cost ?? null,
      reward: row.reward ?? null,
      model: { reply: row.reply ?? null },
    } as Turn;
  });
  const name = basename(dir);
  return {
    episode: {
      schema_version: 2,
      episode_id: `${name}-t${String(ex.task_index).padStart(3, "0")}-L${line}`,
      recorded_at: null,
      model_name: summary?.model ?? name,
      task: { split: "eval", index: ex.task_index, country: ex.country ?? null },
      config: { mode: summary?.mode ?? null },
      turns,
      outcome: {
        reward: ex.reward ?? null,
        distance_km: ex.distance_km ?? null,
        parsed_ok: ex.parsed_ok ?? null,
        action_cost: ex.action_cost ?? null,
        turns_used: ex.turns ?? null,
        model_latency_s: ex.latency_s ?? null,
      },
    } as Episode,
    images,
  };
}
