/**
 * A crops episode's video props from its record, its frames timeline and its ground truth
 * (pure): the trace pane's entries, each turn's HUD numbers, and the score card's data. The
 * record's outcome is shown as recorded (verify recomputes it; the card says where each number
 * comes from).
 */
import type { TraceEntry } from "../../../../replay/trace/trace-entry.ts";
import { numOrNull, toolCall } from "../../../../replay/trace/tool-call.ts";
import type { CropsRecord, CropsTurn } from "../../replay/schema.ts";
import type { CropsTimeline } from "../../replay/frames-timeline.ts";
import type { GtObject } from "../../replay/score.ts";
import { actionName } from "../../replay/frames-plan.ts";
import { CARD_S, CropsVideoPropsSchema, type CropsCard, type CropsHud, type CropsVideoProps } from "../../video/props.ts";
import type { Size } from "../../../../src/film/size.ts";

interface ModelBlock {
  reply?: string | null;
  reasoning?: unknown;
  tokens?: { input?: unknown; output?: unknown };
  latency_s?: unknown;
  errors?: unknown;
}

/** The trace pane's entry for a turn: the reasoning (when the model kept it apart) above the reply, the action as a call, the gym's feedback. */
export function cropsTraceEntry(t: CropsTurn): TraceEntry {
  const m = (t.model ?? null) as ModelBlock | null;
  const reasoning = typeof m?.reasoning === "string" && m.reasoning.trim() ? m.reasoning : null;
  const reply = typeof m?.reply === "string" ? m.reply : null;
  const action = t.action !== null && typeof t.action === "object" && !Array.isArray(t.action) ? (t.action as Record<string, unknown>) : null;
  const errors = Array.isArray(m?.errors) ? m.errors.map((e) => (typeof e === "string" ? e : (JSON.stringify(e) ?? String(e)))) : [];
  return {
    turn: t.turn,
    status: t.status,
    failed: t.status !== "ok",
    actionName: actionName(t),
    toolCall: t.status === "unparseable" || t.status === "provider_error" ? null : toolCall(action),
    reply: reasoning && reply !== null ? `${reasoning}\n\n${reply}` : (reply ?? reasoning),
    reasoning,
    feedback: t.feedback,
    tokensIn: numOrNull(m?.tokens?.input),
    tokensOut: numOrNull(m?.tokens?.output),
    latencyS: numOrNull(m?.latency_s),
    errors,
  };
}

/** Each turn's HUD: the running shaping sum is summed from 0.0 in turn order, as the gym's shaping_sum. */
export function cropsHud(rec: CropsRecord): CropsHud[] {
  let sum = 0.0;
  return rec.turns.map((t) => {
    const shaping = t.shaping?.reward ?? null;
    if (shaping !== null) sum += shaping;
    return {
      turn: t.turn,
      action: actionName(t),
      status: t.status,
      failed: t.status !== "ok",
      boxes: t.boxes.length,
      turnsLeft: t.turns_left,
      shaping,
      shapingSum: sum,
    };
  });
}

export function cropsCard(rec: CropsRecord, timeline: CropsTimeline, gt: readonly GtObject[], image: string): CropsCard {
  const o = rec.outcome;
  const matches = o.matches.flatMap((m) => {
    const x = m as { pred?: unknown; gt?: unknown; giou?: unknown; credit?: unknown; label_ok?: unknown };
    return typeof x.pred === "number" && typeof x.gt === "string" && typeof x.giou === "number" && typeof x.credit === "number"
      ? [{ pred: x.pred, gt: x.gt, giou: x.giou, credit: x.credit, labelOk: x.label_ok === true }]
      : [];
  });
  let sumQ = 0.0;
  for (const m of [...matches].sort((a, b) => a.pred - b.pred)) sumQ += m.labelOk ? m.credit : m.credit * 0.5;
  const rect = (b: readonly number[]) => [b[0], b[1], b[2], b[3]] as [number, number, number, number];
  return {
    image,
    gt: gt.map((g) => ({ id: g.id, label: g.label, box: rect(g.box) })),
    boxes: rec.turns.at(-1)!.boxes.map((b) => ({ id: String(b.id), label: b.label, box: rect(b.box) })),
    matches,
    misses: timeline.outcome.misses,
    falseAlarms: timeline.outcome.falseAlarms,
    score: o.score,
    sumQ,
    recallTerm: o.parts.recall_term,
    precisionFactor: o.parts.precision_factor,
    meanCredit: o.parts.mean_credit,
    labelAccuracy: o.parts.label_accuracy,
    shapingSum: o.shaping_sum,
    endedBy: timeline.outcome.endedBy,
    turnsUsed: timeline.outcome.turnsUsed,
  };
}

export interface CropsFiles {
  /** The timeline's folder, relative to the video's folder. */
  dir: string;
  /** Per turn, the thumbnail files (relative to `dir`). */
  thumbs: string[];
  /** The whole image (relative to `dir`). */
  image: string;
}

export function cropsVideoProps(rec: CropsRecord, timeline: CropsTimeline, gt: readonly GtObject[], files: CropsFiles, size?: Size): CropsVideoProps {
  return CropsVideoPropsSchema.parse({
    timeline,
    dir: files.dir,
    trace: rec.turns.filter((t) => t.turn > 0).map(cropsTraceEntry),
    hud: cropsHud(rec),
    thumbs: files.thumbs,
    thumbSize: rec.config.thumb_size,
    maxTurns: rec.config.max_turns,
    card: cropsCard(rec, timeline, gt, files.image),
    cardFrames: Math.round(CARD_S * timeline.fps),
    output: size ?? { width: 1280, height: 720 },
  } satisfies CropsVideoProps);
}
