/**
 * The crops list's fields: what the filter expression reads and the CSV writes, one list
 * (names as `georeplay report --json` and the record's outcome name them). Pure.
 */
import type { RowField } from "../../../../../src/page/client/state/field-expr.ts";
import type { CsvColumn } from "../../../../../src/page/client/state/csv-table.ts";
import type { CropsRow } from "../model.ts";

export const CROPS_FIELDS: RowField<CropsRow>[] = [
  { name: "id", type: "text", help: "episode id", get: (r) => r.id },
  { name: "model", type: "text", help: "model_name (the arm)", get: (r) => r.arm },
  { name: "arm", type: "text", help: "same as model", get: (r) => r.arm },
  { name: "split", type: "text", help: "task split", get: (r) => r.split },
  { name: "task", type: "number", help: "task index", get: (r) => r.task },
  { name: "attempt", type: "number", help: "attempt (task.sample)", get: (r) => r.attempt },
  { name: "image", type: "text", help: "the image id", get: (r) => r.image },
  { name: "score", type: "number", help: "the recorded score (recall x precision)", get: (r) => r.score },
  { name: "recall", type: "number", help: "recall term", get: (r) => r.recall },
  { name: "precision", type: "number", help: "precision factor", get: (r) => r.precision },
  { name: "boxes", type: "number", help: "final boxes (n_pred)", get: (r) => r.boxes },
  { name: "matched", type: "number", help: "boxes matched to an object", get: (r) => r.matched },
  { name: "misses", type: "number", help: "objects no box matched", get: (r) => r.misses },
  { name: "false_alarms", type: "number", help: "boxes that matched nothing", get: (r) => r.falseAlarms },
  { name: "credit", type: "number", help: "mean GIoU credit of a match (null: none)", get: (r) => r.meanCredit },
  { name: "label_accuracy", type: "number", help: "share of matches with the right label", get: (r) => r.labelAccuracy },
  { name: "zooms", type: "number", help: "zoom, zoom-out, pan and reset turns", get: (r) => r.zooms },
  { name: "turns", type: "number", help: "turns used", get: (r) => r.turns },
  { name: "tokens", type: "number", help: "tokens in + out", get: (r) => r.tokens },
  { name: "tokens_in", type: "number", help: "input tokens", get: (r) => r.tokensIn },
  { name: "tokens_out", type: "number", help: "output tokens", get: (r) => r.tokensOut },
  { name: "shaping", type: "number", help: "sum of the shaping hints", get: (r) => r.shapingSum },
  { name: "ended_by", type: "text", help: "done or turn_limit", get: (r) => r.endedBy },
  { name: "step", type: "number", help: "training step (null in eval runs)", get: (r) => r.step },
  { name: "advantage", type: "number", help: "GRPO advantage as recorded, r - mean (null in eval runs)", get: (r) => r.advantage },
  { name: "group_mean", type: "number", help: "its GRPO group's mean score (null in eval runs)", get: (r) => r.groupMean },
  { name: "group_std", type: "number", help: "its GRPO group's sample std (null in eval runs)", get: (r) => r.groupStd },
  { name: "zero_spread", type: "bool", help: "its GRPO group has no spread (null in eval runs)", get: (r) => r.zeroSpread },
  { name: "status", type: "list", help: "clean, or verify's finding kinds (view, thumb, box_mapping, ...)", get: (r) => r.flags },
  { name: "source", type: "text", help: "the record's file:line", get: (r) => r.source },
];

export const CROPS_CSV: CsvColumn<CropsRow>[] = [
  { name: "episode_id", get: (r) => r.id },
  { name: "arm", get: (r) => r.arm },
  { name: "split", get: (r) => r.split },
  { name: "task", get: (r) => r.task },
  { name: "attempt", get: (r) => r.attempt },
  { name: "image", get: (r) => r.image },
  { name: "score", get: (r) => r.score },
  { name: "recall_term", get: (r) => r.recall },
  { name: "precision_factor", get: (r) => r.precision },
  { name: "boxes", get: (r) => r.boxes },
  { name: "matched", get: (r) => r.matched },
  { name: "misses", get: (r) => r.misses },
  { name: "false_alarms", get: (r) => r.falseAlarms },
  { name: "mean_credit", get: (r) => r.meanCredit },
  { name: "label_accuracy", get: (r) => r.labelAccuracy },
  { name: "zooms", get: (r) => r.zooms },
  { name: "turns", get: (r) => r.turns },
  { name: "tokens_in", get: (r) => r.tokensIn },
  { name: "tokens_out", get: (r) => r.tokensOut },
  { name: "tokens", get: (r) => r.tokens },
  { name: "shaping_sum", get: (r) => r.shapingSum },
  { name: "step", get: (r) => r.step },
  { name: "group_mean", get: (r) => r.groupMean },
  { name: "group_std", get: (r) => r.groupStd },
  { name: "advantage", get: (r) => r.advantage },
  { name: "zero_spread", get: (r) => r.zeroSpread },
  { name: "status", get: (r) => r.flags.join(" ") },
  { name: "source", get: (r) => r.source },
];

export interface CropsColumn {
  key: keyof CropsRow;
  head: string;
  digits: number | null;
}

/** The list's columns: header, the row's field, digits (null: text). */
export const CROPS_COLUMNS: CropsColumn[] = [
  { key: "id", head: "episode", digits: null },
  { key: "arm", head: "model", digits: null },
  { key: "task", head: "task", digits: null },
  { key: "attempt", head: "att.", digits: null },
  { key: "score", head: "score", digits: 3 },
  { key: "recall", head: "recall", digits: 3 },
  { key: "precision", head: "prec.", digits: 2 },
  { key: "boxes", head: "boxes", digits: 0 },
  { key: "misses", head: "misses", digits: 0 },
  { key: "falseAlarms", head: "f.a.", digits: 0 },
  { key: "zooms", head: "zooms", digits: 0 },
  { key: "tokens", head: "tokens", digits: 0 },
];

/** A training run's list adds its GRPO columns (the filter's step, group_mean, group_std, advantage, zero_spread). */
export const CROPS_TRAIN_COLUMNS: CropsColumn[] = [
  { key: "step", head: "step", digits: 0 },
  { key: "groupMean", head: "group mean", digits: 3 },
  { key: "groupStd", head: "group std", digits: 3 },
  { key: "advantage", head: "advantage", digits: 3 },
  { key: "zeroSpread", head: "zero spread", digits: null },
];

export const cropsColumns = (rows: readonly CropsRow[]): CropsColumn[] =>
  rows.some((r) => r.step !== null) ? [...CROPS_COLUMNS, ...CROPS_TRAIN_COLUMNS] : CROPS_COLUMNS;
