/**
 * One record's rule checks, pure and synchronous: each turn's transition re-applied to the
 * RECORDED state before it (so one bad turn is reported once, not on every later turn), the
 * box mapping, the shaping hint, and the outcome recomputed from the boxes and ground truth.
 * The pixels (view and thumbnail hashes) are checked by the caller.
 */
import { applyAction, type CropsState } from "./actions.ts";
import { wholeView, type Rect } from "./geometry.ts";
import { parseReply } from "./pyjson.ts";
import { scoreBoxes, shaping, type GtObject, type LabelledBox } from "./score.ts";
import type { CropsRecord, CropsTurn } from "./schema.ts";
import type { Finding, FindingKind } from "./verify-schema.ts";

export type { Finding, FindingKind };

export interface RecordCounts {
  box_mappings: number;
  box_mappings_ok: number;
  transitions: number;
  transitions_ok: number;
  shaping: number;
  shaping_ok: number;
  outcomes: number;
  outcomes_ok: number;
}

/** Structural equality of JSON values (numbers compared exactly, key order ignored). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((v, i) => jsonEqual(v, bb[i]));
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return (
    ka.length === kb.length &&
    ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
  );
}

const sameRect = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((v, i) => v === b[i]);
const sameBoxes = (a: readonly LabelledBox[], b: readonly LabelledBox[]) =>
  a.length === b.length && a.every((x, i) => x.id === b[i].id && x.label === b[i].label && sameRect(x.box, b[i].box));
const fmt = (r: readonly number[]) => `[${r.join(", ")}]`;

export interface RecordContext {
  file: string;
  line: number;
  iw: number;
  ih: number;
  /** The view size that follows from the image size. */
  size: [number, number];
  gt: readonly GtObject[];
}

/** Checks every rule of one record; returns the findings (in turn order) and adds to `counts`. */
export function checkRecord(rec: CropsRecord, ctx: RecordContext, counts: RecordCounts): Finding[] {
  const out: Finding[] = [];
  const find = (turn: number | null, kind: FindingKind, message: string) =>
    out.push({ episode_id: rec.episode_id, turn, kind, message, file: ctx.file, line: ctx.line });
  const { iw, ih, gt } = ctx;
  const [W, H] = ctx.size;
  const turns = rec.turns;
  const maxTurns = rec.config.max_turns;
  let nextId = 1;
  let shapingSum = 0.0;
  for (let ti = 0; ti < turns.length; ti++) {
    const tr = turns[ti];
    const last = ti === turns.length - 1;
    if (ti === 0) {
      const whole = wholeView(iw, ih);
      counts.transitions++;
      if (tr.turn === 0 && sameRect(tr.view_before, whole) && sameRect(tr.view_after, whole) && tr.boxes.length === 0) counts.transitions_ok++;
      else find(tr.turn, "state", "turn 0 is not the reset state (whole image, no boxes)");
      continue;
    }
    const prev = turns[ti - 1];
    const before: CropsState = { view: [...prev.view_after] as Rect, boxes: prev.boxes, nextId };
    const problems: string[] = [];
    if (!sameRect(tr.view_before, before.view)) problems.push(`view_before ${fmt(tr.view_before)} is not the previous view_after ${fmt(before.view)}`);
    let floatKeys: ReadonlySet<string> = new Set();
    if (tr.model && tr.status !== "provider_error") {
      const parsed = parseReply(tr.model.reply);
      if (!jsonEqual(parsed?.action ?? null, tr.action ?? null)) problems.push("the reply does not parse to the recorded action");
      else if (parsed) floatKeys = parsed.floatKeys;
    }
    let expectView: readonly number[] = before.view;
    let expectBoxes: readonly LabelledBox[] = before.boxes;
    const status = tr.status;
    if (status === "ok") {
      const r = applyAction(before, tr.action, iw, ih, W, H, floatKeys);
      if (!r.ok) problems.push(`recorded ok but the gym says invalid: ${r.message}`);
      else {
        const boxes = r.state.boxes;
        if (r.mapped) {
          counts.box_mappings++;
          const rm = tr.mapped_box;
          if (rm && rm.id === r.mapped.id && jsonEqual(rm.box_view, r.mapped.box_view) && sameRect(rm.box, r.mapped.box)) counts.box_mappings_ok++;
          else {
            find(
              tr.turn,
              "box_mapping",
              `box ${r.mapped.id}: ${fmt(r.mapped.box_view)} per-mille of view ${fmt(before.view)} maps to ${fmt(r.mapped.box)}, recorded ${rm ? fmt(rm.box) : "no mapped_box"}`,
            );
            // Go on from what was recorded, so the rest of the episode is judged on its own.
            if (rm && rm.id === r.mapped.id) for (const b of boxes) if (b.id === rm.id) b.box = rm.box as Rect;
          }
        } else if (tr.mapped_box) problems.push("mapped_box on a turn that maps no box");
        expectView = r.state.view;
        expectBoxes = boxes;
        nextId = r.state.nextId;
        if (!tr.feedback.startsWith(r.feedback)) problems.push(`feedback ${JSON.stringify(tr.feedback)} does not start with ${JSON.stringify(r.feedback)}`);
      }
    } else if (status.startsWith("invalid_action: ")) {
      const r = applyAction(before, tr.action, iw, ih, W, H, floatKeys);
      if (r.ok) problems.push("recorded invalid but the gym accepts the action");
      else if (status !== `invalid_action: ${r.message}`)
        problems.push(`status ${JSON.stringify(status)}, the gym says ${JSON.stringify(`invalid_action: ${r.message}`)}`);
    } else if (status !== "unparseable" && status !== "provider_error") problems.push(`unknown status ${JSON.stringify(status)}`);
    if (status !== "ok" && tr.mapped_box) problems.push("mapped_box on a turn that changed nothing");
    if (!sameRect(tr.view_after, expectView)) problems.push(`view_after ${fmt(tr.view_after)}, the action gives ${fmt(expectView)}`);
    if (!sameBoxes(tr.boxes, expectBoxes)) problems.push("boxes are not the previous boxes with this action applied");
    const wantDone = (status === "ok" && isDone(tr)) || tr.turn === maxTurns;
    if (tr.done !== last || wantDone !== last || tr.turns_left !== maxTurns - tr.turn || tr.turn !== ti)
      problems.push("turn numbering, done or turns_left inconsistent");
    counts.transitions++;
    if (problems.length) find(tr.turn, "state", problems.join("; "));
    else counts.transitions_ok++;
    // Shaping, from the recorded states before and after.
    const sh = tr.shaping;
    const want = shaping({ view: prev.view_after, boxes: prev.boxes }, { view: tr.view_after, boxes: tr.boxes }, gt, last);
    counts.shaping++;
    if (sh && sh.phi_before === want.phi_before && sh.phi_after === want.phi_after && sh.reward === want.reward && sh.terminal === want.terminal)
      counts.shaping_ok++;
    else
      find(
        tr.turn,
        "shaping",
        `recorded ${sh ? `phi ${sh.phi_before} -> ${sh.phi_after}, reward ${sh.reward}` : "no shaping"}; recomputed phi ${want.phi_before} -> ${want.phi_after}, reward ${want.reward}`,
      );
    shapingSum += sh ? sh.reward : 0;
  }
  checkOutcome(rec, gt, shapingSum, counts, (m) => find(null, "outcome", m));
  return out;
}

const isDone = (tr: CropsTurn) => typeof tr.action === "object" && tr.action !== null && (tr.action as { action?: unknown }).action === "done";

function checkOutcome(rec: CropsRecord, gt: readonly GtObject[], shapingSum: number, counts: RecordCounts, fail: (m: string) => void): void {
  const o = rec.outcome as CropsRecord["outcome"] & Record<string, unknown>;
  const turns = rec.turns;
  const s = scoreBoxes(turns[turns.length - 1].boxes, gt);
  const rest = turns.slice(1);
  const acts = rest.filter((t) => t.status === "ok").map((t) => (t.action as { action?: unknown }).action);
  const count = (pred: (t: CropsTurn) => boolean) => rest.filter(pred).length;
  const lastTurn = turns[turns.length - 1];
  const expected: Record<string, unknown> = {
    score: s.score,
    parts: s.parts,
    matches: s.matches,
    misses: s.misses,
    false_alarms: s.false_alarms,
    shaping_sum: shapingSum,
    ended_by: lastTurn.status === "ok" && isDone(lastTurn) ? "done" : "turn_limit",
    turns_used: lastTurn.turn,
    turns_ok: count((t) => t.status === "ok"),
    turns_invalid: count((t) => t.status.startsWith("invalid_action")),
    turns_unparseable: count((t) => t.status === "unparseable"),
    turns_provider_error: count((t) => t.status === "provider_error"),
    n_zooms: acts.filter((a) => a === "zoom" || a === "zoom_out" || a === "reset_view" || a === "pan").length,
    n_boxes_drawn: acts.filter((a) => a === "box").length,
    n_adjusts: acts.filter((a) => a === "adjust").length,
    n_removes: acts.filter((a) => a === "remove").length,
    n_final_boxes: lastTurn.boxes.length,
  };
  counts.outcomes++;
  const wrong = Object.keys(expected).filter((k) => !jsonEqual(o[k], expected[k]));
  if (!wrong.length) {
    counts.outcomes_ok++;
    return;
  }
  const detail = wrong
    .slice(0, 3)
    .map((k) => (typeof expected[k] === "object" ? `${k} differs` : `${k} recorded ${JSON.stringify(o[k])}, recomputed ${JSON.stringify(expected[k])}`));
  fail(`${detail.join("; ")}${wrong.length > 3 ? ` (and ${wrong.length - 3} more)` : ""}`);
}
