/**
 * `georeplay verify --json` on a crops run: the report's zod schema, from which its types are
 * inferred and `georeplay schema crops-verify` prints the JSON Schema.
 */
import { z } from "zod";

const count = z.number().int().nonnegative();

export const FINDING_KINDS = ["view", "thumb", "box_mapping", "state", "shaping", "outcome", "advantage", "group_start"] as const;
export const FindingKindSchema = z.enum(FINDING_KINDS);
export type FindingKind = z.infer<typeof FindingKindSchema>;

/** One problem, reported once: where it is and what differs. */
export const FindingSchema = z.object({
  episode_id: z.string(),
  turn: count.nullable().describe("the turn (0 is the reset); null for a finding about the whole record (outcome, advantage, config)"),
  kind: FindingKindSchema.describe(
    "view / thumb: the re-rendered JPEG's sha256 differs; box_mapping: a box's per-mille rectangle maps through view_before elsewhere; state: the action re-applied gives another view, boxes or status; shaping: the turn's hint; outcome: the score, its parts or matches; advantage: a GRPO advantage or reward; group_start: siblings start from different views",
  ),
  message: z.string().describe("for people: what differs (match on the other fields)"),
  file: z.string().describe("the run file, as given or found in the run folder"),
  line: count.describe("1-based line of the record in `file`"),
  recorded: z.string().optional().describe("view / thumb: the recorded sha256"),
  rendered: z.string().optional().describe("view / thumb: the re-rendered sha256"),
});
export type Finding = z.infer<typeof FindingSchema>;

export const CropsMismatchSchema = FindingSchema.extend({ split: z.string(), index: count });
/** A mismatch of the report: a finding with the record's task. */
export type CropsMismatch = z.infer<typeof CropsMismatchSchema>;

export const CheckedCountSchema = z.object({ checked: count, ok: count });
export type CheckedCount = z.infer<typeof CheckedCountSchema>;

export const CropsVerifyReportSchema = z.object({
  env: z.literal("crops"),
  dataset: z.string().describe("the dataset folder read (tasks.jsonl, gt.jsonl, images/)"),
  episodes: count.describe("records checked (after --shard / --limit)"),
  checked: count.describe("view turns checked"),
  match: count.describe("view turns whose re-rendered view reproduces image_sha256"),
  mismatch: count.describe("view turns whose view does not"),
  formats: z.object({ eval: count, train: count }).describe("records checked by kind: eval episodes, GRPO training rollouts"),
  counts: z.object({
    thumbnails: CheckedCountSchema,
    box_mappings: CheckedCountSchema,
    transitions: CheckedCountSchema,
    shaping: CheckedCountSchema,
    outcomes: CheckedCountSchema,
    advantages: CheckedCountSchema,
  }),
  rendered: count.describe("distinct views rendered (identical views are rendered once per run)"),
  mismatches: z.array(CropsMismatchSchema).describe("every finding, of every kind, in input order (a run's group findings after its records)"),
  group_starts: z
    .object({
      compared: count,
      failures: z.array(z.object({ group_id: z.string(), siblings: z.array(z.string()), message: z.string() })),
    })
    .describe("GRPO groups of two or more siblings compared for their first view and thumbnail; siblings as file:line"),
  skipped: z.object({ other_shards: count }),
  shard: z.string().nullable().describe('"i/n" or null'),
});
export type CropsVerifyReport = z.infer<typeof CropsVerifyReportSchema>;
