/**
 * A crops run as its page shows it: one list row per episode (the numbers `georeplay report`
 * averages, read from the record's outcome) and one detail (each turn's view and thumbnail by
 * the sha256 of its re-rendered bytes, the boxes, the transcript, the per-box table). Pure: the
 * builder passes what verify saw. Trace text is kept as data; the client shows it as text nodes.
 */
import type { CropsRecordSeen, CropsVerifyReport } from "../../replay/verify.ts";
import { boxTable, type BoxRow } from "./boxes.ts";

/** What the page's header says of verify's run. */
export type VerifySummary = Pick<CropsVerifyReport, "episodes" | "checked" | "match" | "mismatch" | "counts"> & { findings: number };

/** One list row: every field the list shows, filters on and writes to CSV. */
export interface CropsRow {
  /** The page's name for the episode (its address): the episode id, with `~2`, `~3`, ... on a repeat (two runs of one record). */
  key: string;
  id: string;
  arm: string;
  split: string;
  task: number;
  /** task.sample (the attempt); null when the record has none (training rollouts). */
  attempt: number | null;
  image: string;
  score: number;
  recall: number;
  precision: number;
  /** Final boxes (outcome.parts.n_pred), matched, missed objects, false alarms. */
  boxes: number;
  matched: number;
  misses: number;
  falseAlarms: number;
  meanCredit: number | null;
  labelAccuracy: number | null;
  zooms: number;
  turns: number;
  tokensIn: number | null;
  tokensOut: number | null;
  tokens: number | null;
  shapingSum: number;
  endedBy: string | null;
  /** "clean", or the kinds of verify's findings (view, thumb, box_mapping, ...). */
  flags: string[];
  /** The record's file:line. */
  source: string;
  /** Training rollouts: step and advantage (null in eval runs). */
  step: number | null;
  advantage: number | null;
  /** Training rollouts: their GRPO group's mean reward, sample std and zero spread (training.ts; null in eval runs). */
  groupMean: number | null;
  /** Training rollouts: the recorded sibling number in its group (null in eval runs). */
  sibling: number | null;
  groupStd: number | null;
  zeroSpread: boolean | null;
}

export interface CropsTurnView {
  turn: number;
  status: string;
  /** The action as recorded, as JSON text (trace text: shown, never run). */
  action: string;
  reply: string | null;
  reasoning: string | null;
  prompt: string | null;
  feedback: string;
  tokensIn: number | null;
  tokensOut: number | null;
  latency: number | null;
  viewBefore: number[];
  viewAfter: number[];
  boxes: { id: number; label: string; box: number[] }[];
  shaping: { phi_before: number; phi_after: number; reward: number; terminal: boolean } | null;
  /** The view and thumbnail: the recorded hash and the re-rendered one (the image shown is the re-rendered bytes). */
  view: { recorded: string; rendered: string };
  thumb: { recorded: string; rendered: string };
}

export interface CropsFinding {
  turn: number | null;
  kind: string;
  message: string;
  recorded?: string;
  rendered?: string;
}

export interface CropsDetail {
  key: string;
  id: string;
  arm: string;
  split: string;
  task: number;
  attempt: number | null;
  image: { id: string; width: number; height: number; scene: string | null };
  viewSize: number[];
  gt: { id: string; label: string; box: number[] }[];
  turns: CropsTurnView[];
  boxTable: BoxRow[];
  outcome: { score: number; recall: number; precision: number; meanCredit: number | null; labelAccuracy: number | null; endedBy: string | null };
  findings: CropsFinding[];
  config: string;
  source: string;
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Obj) : {});
const numOrNull = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);
const strOrNull = (v: unknown): string | null => (typeof v === "string" ? v : null);

export function cropsRowOf(s: CropsRecordSeen, key: string = s.rec.episode_id): CropsRow {
  const { rec } = s;
  const o = obj(rec.outcome);
  const parts = rec.outcome.parts;
  const p = obj(parts);
  const tokensIn = numOrNull(o.tokens_in);
  const tokensOut = numOrNull(o.tokens_out);
  const kinds = [...new Set(s.findings.map((f) => f.kind))];
  return {
    key,
    id: rec.episode_id,
    arm: strOrNull(obj(rec).model_name) ?? "(unknown)",
    split: rec.task.split,
    task: rec.task.index,
    attempt: numOrNull(obj(rec.task).sample),
    image: rec.task.image_id,
    score: rec.outcome.score,
    recall: parts.recall_term,
    precision: parts.precision_factor,
    boxes: numOrNull(p.n_pred) ?? 0,
    matched: numOrNull(p.n_matched) ?? rec.outcome.matches.length,
    misses: numOrNull(p.n_missed) ?? rec.outcome.misses.length,
    falseAlarms: numOrNull(p.n_false_alarms) ?? rec.outcome.false_alarms.length,
    meanCredit: parts.mean_credit,
    labelAccuracy: parts.label_accuracy,
    zooms: numOrNull(o.n_zooms) ?? 0,
    turns: numOrNull(o.turns_used) ?? rec.turns.length,
    tokensIn,
    tokensOut,
    tokens: tokensIn === null && tokensOut === null ? null : (tokensIn ?? 0) + (tokensOut ?? 0),
    shapingSum: rec.outcome.shaping_sum,
    endedBy: strOrNull(o.ended_by),
    flags: kinds.length ? kinds : ["clean"],
    source: `${s.file}:${s.line}`,
    step: rec.step ?? null,
    advantage: numOrNull(o.advantage),
    groupMean: null,
    sibling: rec.sibling ?? null,
    groupStd: null,
    zeroSpread: null,
  };
}

export function cropsDetailOf(s: CropsRecordSeen, row: CropsRow): CropsDetail {
  const { rec } = s;
  const turns = rec.turns.map((t, i): CropsTurnView => {
    const m = obj(t.model);
    const tok = obj(m.tokens);
    return {
      turn: t.turn,
      status: t.status,
      action: JSON.stringify(t.action),
      reply: strOrNull(m.reply),
      reasoning: strOrNull(m.reasoning),
      prompt: strOrNull(obj(t).prompt),
      feedback: t.feedback,
      tokensIn: numOrNull(tok.input),
      tokensOut: numOrNull(tok.output),
      latency: numOrNull(m.latency_s),
      viewBefore: [...t.view_before],
      viewAfter: [...t.view_after],
      boxes: t.boxes.map((b) => ({ id: b.id, label: b.label, box: [...b.box] })),
      shaping: t.shaping ? { phi_before: t.shaping.phi_before, phi_after: t.shaping.phi_after, reward: t.shaping.reward, terminal: t.shaping.terminal } : null,
      view: { recorded: t.image_sha256, rendered: s.rendered[i].view },
      thumb: { recorded: t.thumb_sha256, rendered: s.rendered[i].thumb },
    };
  });
  const last = rec.turns[rec.turns.length - 1];
  return {
    key: row.key,
    id: row.id,
    arm: row.arm,
    split: row.split,
    task: row.task,
    attempt: row.attempt,
    image: { id: s.task.image_id, width: s.task.width, height: s.task.height, scene: strOrNull(obj(s.task).scene) },
    viewSize: [...rec.config.view_size],
    gt: s.gt.map((g) => ({ id: g.id, label: g.label, box: [...g.box] })),
    turns,
    boxTable: boxTable(last.boxes, s.gt, rec.outcome),
    outcome: {
      score: row.score,
      recall: row.recall,
      precision: row.precision,
      meanCredit: row.meanCredit,
      labelAccuracy: row.labelAccuracy,
      endedBy: row.endedBy,
    },
    findings: s.findings.map((f) => ({
      turn: f.turn,
      kind: f.kind,
      message: f.message,
      ...(f.recorded !== undefined ? { recorded: f.recorded } : {}),
      ...(f.rendered !== undefined ? { rendered: f.rendered } : {}),
    })),
    config: JSON.stringify(rec.config, null, 1),
    source: row.source,
  };
}
