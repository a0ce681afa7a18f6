/**
 * The crops records as zod schemas (types derived from them): the episode and the training
 * rollout (`env: "crops"`), the task index row and the ground-truth row. Only what a verifier
 * re-derives is strict; informational parts (model block, prompt, feedback text) are loose.
 * Contract: crops-trace-format.md "Files", "Episode record", "Training rollout record".
 */
import { z } from "zod";
import { describeValue, GeoreplayError } from "../../../replay/io/errors.ts";

const finite = () => z.number().refine(Number.isFinite, { message: "expected a finite number" });
const int = () => z.number().int();
const hex64 = () => z.string().regex(/^[0-9a-f]{64}$/, { message: "expected 64 lowercase hex digits (sha256)" });

/** [x0, y0, x1, y1] with x0 < x1 and y0 < y1. */
export const RectSchema = z
  .tuple([finite(), finite(), finite(), finite()])
  .refine((b) => b[0] < b[2] && b[1] < b[3], { message: "expected [x0, y0, x1, y1] with x0 < x1 and y0 < y1" });

export const BoxSchema = z.looseObject({ id: int().min(1), label: z.string(), box: RectSchema });
export type CropsBox = z.infer<typeof BoxSchema>;

export const ShapingSchema = z.looseObject({ phi_before: z.number(), phi_after: z.number(), reward: z.number(), terminal: z.boolean() });

export const TurnSchema = z.looseObject({
  turn: int().nonnegative(),
  status: z.string(),
  action: z.unknown(),
  view_before: RectSchema,
  view_after: RectSchema,
  boxes: z.array(BoxSchema),
  mapped_box: z.looseObject({ id: int(), box_view: z.array(z.unknown()), box: RectSchema }).optional(),
  image_sha256: hex64(),
  thumb_sha256: hex64(),
  feedback: z.string(),
  turns_left: int(),
  done: z.boolean(),
  shaping: ShapingSchema.nullable(),
  model: z.looseObject({ reply: z.string().nullish() }).nullish(),
});
export type CropsTurn = z.infer<typeof TurnSchema>;

const nullableNumber = () => z.number().nullable();

export const OutcomeSchema = z.looseObject({
  score: z.number(),
  parts: z.looseObject({ recall_term: z.number(), precision_factor: z.number(), mean_credit: nullableNumber(), label_accuracy: nullableNumber() }),
  matches: z.array(z.unknown()),
  misses: z.array(z.unknown()),
  false_alarms: z.array(z.unknown()),
  shaping_sum: z.number(),
  reward: z.number().optional(),
  advantage: z.number().optional(),
});

export const CropsRecordSchema = z.looseObject({
  schema_version: z.literal(1),
  env: z.literal("crops"),
  env_version: z.string().optional(),
  episode_id: z.string().min(1),
  task: z.looseObject({ split: z.string().min(1), index: int().nonnegative(), image_id: z.string().min(1) }),
  config: z.looseObject({ max_turns: int().min(1), view_size: z.tuple([int(), int()]), thumb_size: z.tuple([int(), int()]) }),
  turns: z.array(TurnSchema).min(1),
  outcome: OutcomeSchema,
  // Training rollouts only.
  run: z.string().optional(),
  step: int().nonnegative().optional(),
  group_id: z.string().min(1).optional(),
  sibling: int().nonnegative().optional(),
});
export type CropsRecord = z.infer<typeof CropsRecordSchema>;

export const CropsTaskSchema = z.looseObject({
  task_index: int().nonnegative(),
  split: z.string().min(1),
  image_id: z.string().min(1),
  file: z.string().min(1),
  width: int().min(1),
  height: int().min(1),
});
export type CropsTask = z.infer<typeof CropsTaskSchema>;

export const GtRowSchema = z.looseObject({
  image_id: z.string().min(1),
  width: int().min(1),
  height: int().min(1),
  objects: z.array(z.looseObject({ id: z.string(), label: z.string(), box: RectSchema })),
});
export type GtRow = z.infer<typeof GtRowSchema>;

function fieldOf(path: readonly PropertyKey[]): string {
  let out = "";
  for (const p of path) out += typeof p === "number" ? `[${p}]` : out === "" ? String(p) : `.${String(p)}`;
  return out || "(record)";
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let cur = root;
  for (const p of path) cur = cur !== null && typeof cur === "object" ? (cur as Record<PropertyKey, unknown>)[p as string] : undefined;
  return cur;
}

function expected(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case "invalid_type":
      return `expected ${issue.expected === "int" ? "an integer" : issue.expected}`;
    case "invalid_value":
      return `expected ${issue.values.map((v) => JSON.stringify(v)).join(" or ")}`;
    case "too_small":
      return `expected ${issue.origin === "array" ? `at least ${issue.minimum} items` : `>= ${issue.minimum}`}`;
    case "too_big":
      return `expected ${issue.origin === "array" ? `at most ${issue.maximum} items` : `<= ${issue.maximum}`}`;
    default:
      return issue.message.startsWith("expected") ? issue.message : `expected ${issue.message}`;
  }
}

/** Parses `value` or throws the one-line input error `file:line: field: expected X, got Y`. */
export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, file: string, line: number): z.infer<S> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const got = valueAt(value, issue.path);
  // A short list of numbers (a box, a view) reads best as itself.
  const shown = Array.isArray(got) && got.length <= 4 && got.every((v) => typeof v === "number") ? `[${got.join(", ")}]` : describeValue(got);
  throw new GeoreplayError(`${file}:${line}: ${fieldOf(issue.path)}: ${expected(issue)}, got ${shown}`);
}
