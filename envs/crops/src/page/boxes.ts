/**
 * The per-box table of an episode: each final box with the object the gym matched it to, its
 * GIoU and credit, and what kind of error it is; then each missed object. The matches, misses
 * and false alarms are the recorded outcome's (verify checks them against the boxes and
 * gt.jsonl); only the error type is derived here, TIDE-style:
 *   correct         matched, label right, GIoU >= 0.5
 *   localisation    matched, label right, GIoU < 0.5 (the box is loose or off)
 *   classification  matched, label wrong (its credit counted half)
 *   duplicate       unmatched, but it would match an object another box already took
 *   background      unmatched, near no object (credit < 0.4 with every one)
 *   missed          an object no box matched
 */
import { creditOf, giou, MATCH_MIN_CREDIT, type GtObject } from "../../replay/score.ts";

/** GIoU below this on a right-label match is a localisation error. */
export const LOCALISATION_GIOU = 0.5;

export type BoxError = "correct" | "localisation" | "classification" | "duplicate" | "background" | "missed";

export interface BoxRow {
  /** The box id; null on a missed object's row. */
  box: number | null;
  label: string | null;
  rect: number[] | null;
  /** The matched object (a duplicate: the object it would have matched; a missed row: the object). */
  gt: string | null;
  gtLabel: string | null;
  /** GIoU with that object (recorded for matches). */
  giou: number | null;
  /** Credit earned (matches only, as recorded: before the wrong-label halving). */
  credit: number | null;
  labelOk: boolean | null;
  error: BoxError;
}

interface RecordedMatch {
  pred: number;
  gt: string;
  giou: number;
  credit: number;
  label_ok: boolean;
}

const isMatch = (m: unknown): m is RecordedMatch => {
  const o = m as Partial<RecordedMatch> | null;
  return !!o && typeof o.pred === "number" && typeof o.gt === "string" && typeof o.giou === "number" && typeof o.credit === "number";
};

export function boxTable(
  finalBoxes: readonly { id: number; label: string; box: readonly number[] }[],
  gt: readonly GtObject[],
  outcome: { matches: readonly unknown[]; misses: readonly unknown[]; false_alarms: readonly unknown[] },
): BoxRow[] {
  const byGt = new Map(gt.map((g) => [g.id, g]));
  const matches = new Map(outcome.matches.filter(isMatch).map((m) => [m.pred, m]));
  const rows: BoxRow[] = [];
  for (const b of [...finalBoxes].sort((x, y) => x.id - y.id)) {
    const m = matches.get(b.id);
    if (m) {
      const error: BoxError = !m.label_ok ? "classification" : m.giou < LOCALISATION_GIOU ? "localisation" : "correct";
      rows.push({
        box: b.id,
        label: b.label,
        rect: [...b.box],
        gt: m.gt,
        gtLabel: byGt.get(m.gt)?.label ?? null,
        giou: m.giou,
        credit: m.credit,
        labelOk: m.label_ok,
        error,
      });
      continue;
    }
    // Unmatched: the object it comes closest to, and whether that was close enough to match had it been free.
    let best: { g: GtObject; giou: number } | null = null;
    for (const g of gt) {
      const v = giou(b.box, g.box);
      if (best === null || v > best.giou) best = { g, giou: v };
    }
    const dup = best !== null && creditOf(best.giou) >= MATCH_MIN_CREDIT;
    rows.push({
      box: b.id,
      label: b.label,
      rect: [...b.box],
      gt: dup ? best!.g.id : null,
      gtLabel: dup ? best!.g.label : null,
      giou: best ? best.giou : null,
      credit: null,
      labelOk: null,
      error: dup ? "duplicate" : "background",
    });
  }
  for (const id of outcome.misses) {
    const g = byGt.get(String(id));
    rows.push({ box: null, label: null, rect: null, gt: String(id), gtLabel: g?.label ?? null, giou: null, credit: null, labelOk: null, error: "missed" });
  }
  return rows;
}
