/**
 * GRPO training traces (`rollouts*.jsonl`): one finished rollout per line.
 * No replies, reasoning, tokens or prompts; actions in wire form
 * (`{"op": "look", ...}`); hashes are the first 16 hex digits of sha256 over
 * the base64 text of the image bytes. Converted into the internal episode
 * model so nothing downstream asks which format a run came from.
 */
import { z } from "zod";
import { basename } from "node:path";
import { CameraSchema, LatLonSchema, type Episode, type Turn } from "../schema/episode.ts";

const num = () => z.number().nullish();

export const TrainTurnSchema = z
  .looseObject({
    turn: z.number().int().nonnegative(),
    action: z.looseObject({ op: z.string() }).nullish(),
    camera_before: CameraSchema.nullish(),
    camera_after: CameraSchema.nullish(),
    image_sha256: z.string().nullish(),
    image_kind: z.enum(["view", "map", "none"]).nullish(),
    feedback: z.string().nullish(),
    pins: z.array(LatLonSchema).nullish(),
    steps_remaining: z.number().int().nullish(),
    moved_meters: num(),
    action_cost: num(),
  })
  .superRefine((t, ctx) => {
    if (t.image_kind === "view" && t.image_sha256 != null) {
      if (!t.camera_after) ctx.addIssue({ code: "custom", path: ["camera_after"], message: "a view turn with a hash needs camera_after" });
      if (!/^[0-9a-fA-F]{16}$/.test(t.image_sha256)) {
        ctx.addIssue({
          code: "custom",
          path: ["image_sha256"],
          message: `expected 16 hex digits (training traces hash the base64 text), got ${JSON.stringify(t.image_sha256.slice(0, 70))}`,
        });
      }
    }
  });

export const TrainRolloutSchema = z.looseObject({
  run: z.string(),
  step: z.number().int().nonnegative(),
  model: z.string().nullish(),
  env: z.string().nullish(),
  task: z.looseObject({ split: z.string().min(1), index: z.number().int().nonnegative() }),
  /** Optional: a recorded GRPO group id (not in the environment's format today); where present it defines the group. */
  group_id: z.string().min(1).nullish(),
  outcome: z
    .looseObject({
      reward: num(),
      distance_km: num(),
      action_cost: num(),
      turns_used: num(),
      guessed: z.boolean().nullish(),
      max_turns: num(),
    })
    .nullish(),
  turns: z.array(TrainTurnSchema),
});
export type TrainRollout = z.infer<typeof TrainRolloutSchema>;

/** Wire op names back to the eval harness's action names. */
const ACTION_NAMES: Record<string, string> = { pin: "place_pin", guess: "submit_guess" };

/** Training-run facts a page groups by (GRPO group = run, step, split, index). */
export interface TrainInfo {
  run: string;
  step: number;
  /** The recorded group id, when the rollout carries one. */
  groupId: string | null;
  env: string | null;
  guessed: boolean | null;
  maxTurns: number | null;
}

/** The internal episode model for one rollout. `file`/`line` name it, since rollouts carry no id. */
export function trainToEpisode(r: TrainRollout, file: string, line: number): Episode {
  const turns: Turn[] = r.turns.map((t) => {
    const { op, ...rest } = t.action ?? { op: "none" };
    return {
      ...t,
      status: "ok", // training traces record only steps that reached the environment
      action: t.action ? { action: ACTION_NAMES[op] ?? op, ...rest } : null,
      pins: t.pins ?? [],
      image_sha256: t.image_sha256 ? t.image_sha256.toLowerCase() : null,
    } as Turn;
  });
  const o = r.outcome ?? {};
  const train: TrainInfo = {
    run: r.run,
    step: r.step,
    groupId: r.group_id ?? null,
    env: r.env ?? null,
    guessed: o.guessed ?? null,
    maxTurns: o.max_turns ?? null,
  };
  return {
    schema_version: 2,
    episode_id: `${basename(file).replace(/\.jsonl$/, "")}-L${line}`,
    recorded_at: null,
    model_name: r.model ?? "unknown model",
    task: { split: r.task.split, index: r.task.index, sample: null },
    config: { mode: "agentic", max_turns: o.max_turns ?? null },
    turns,
    outcome: {
      reward: o.reward ?? null,
      train_reward: o.reward ?? null,
      distance_km: o.distance_km ?? null,
      action_cost: o.action_cost ?? null,
      turns_used: o.turns_used ?? null,
      parsed_ok: o.guessed ?? null,
    },
    train,
  } as Episode;
}
