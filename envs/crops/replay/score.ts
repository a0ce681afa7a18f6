/**
 * Scoring and shaping: GIoU credit, greedy matching, the score's parts, the framing
 * potential and the per-turn shaping hint. Float64 in the contract's order ("Scoring",
 * "Shaping"), so every number equals the gym's exactly.
 */
import { labelOk } from "./labels.ts";

export interface LabelledBox {
  id: number;
  label: string;
  box: readonly number[];
}
export interface GtObject {
  id: string;
  label: string;
  box: readonly number[];
}

export const MATCH_MIN_CREDIT = 0.4;
export const WRONG_LABEL_FACTOR = 0.5;
export const GAMMA = 0.99;
export const BETA_VIEW = 0.2;
export const FILL_TARGET = 0.05;

export function giou(a: readonly number[], b: readonly number[]): number {
  const iw = Math.min(a[2], b[2]) - Math.max(a[0], b[0]);
  const ih = Math.min(a[3], b[3]) - Math.max(a[1], b[1]);
  const inter = iw > 0 && ih > 0 ? iw * ih : 0;
  const areaA = (a[2] - a[0]) * (a[3] - a[1]);
  const areaB = (b[2] - b[0]) * (b[3] - b[1]);
  const union = areaA + areaB - inter;
  const cw = Math.max(a[2], b[2]) - Math.min(a[0], b[0]);
  const ch = Math.max(a[3], b[3]) - Math.min(a[1], b[1]);
  const c = cw * ch;
  return inter / union - (c - union) / c;
}

export const creditOf = (g: number): number => (g + 1.0) / 2.0;

export interface Match {
  pred: number;
  gt: string;
  giou: number;
  credit: number;
  label_ok: boolean;
}
export interface Score {
  score: number;
  parts: {
    recall_term: number;
    precision_factor: number;
    mean_credit: number | null;
    label_accuracy: number | null;
    n_gt: number;
    n_pred: number;
    n_matched: number;
    n_missed: number;
    n_false_alarms: number;
  };
  matches: Match[];
  misses: string[];
  false_alarms: number[];
}

/** Greedy matching by credit (ties: lower box id, then earlier gt), sums in box-id order. */
export function scoreBoxes(boxes: readonly LabelledBox[], gt: readonly GtObject[]): Score {
  const preds = [...boxes].sort((a, b) => a.id - b.id);
  const pairs: { credit: number; pid: number; j: number; giou: number }[] = [];
  for (const p of preds) {
    gt.forEach((g, j) => {
      const gi = giou(p.box, g.box);
      const credit = creditOf(gi);
      if (credit >= MATCH_MIN_CREDIT) pairs.push({ credit, pid: p.id, j, giou: gi });
    });
  }
  pairs.sort((a, b) => b.credit - a.credit || a.pid - b.pid || a.j - b.j);
  const usedP = new Set<number>();
  const usedG = new Set<number>();
  const taken: typeof pairs = [];
  for (const pr of pairs) {
    if (usedP.has(pr.pid) || usedG.has(pr.j)) continue;
    usedP.add(pr.pid);
    usedG.add(pr.j);
    taken.push(pr);
  }
  taken.sort((a, b) => a.pid - b.pid || a.j - b.j);
  const labelOf = new Map(preds.map((p) => [p.id, p.label]));
  const matches: Match[] = [];
  let sumQ = 0;
  let sumC = 0;
  let nLab = 0;
  for (const m of taken) {
    const ok = labelOk(labelOf.get(m.pid)!, gt[m.j].label);
    sumQ += ok ? m.credit : m.credit * WRONG_LABEL_FACTOR;
    sumC += m.credit;
    nLab += ok ? 1 : 0;
    matches.push({ pred: m.pid, gt: gt[m.j].id, giou: m.giou, credit: m.credit, label_ok: ok });
  }
  const nGt = gt.length;
  const nPred = preds.length;
  const nTp = taken.length;
  const nFa = nPred - nTp;
  const recall = nGt === 0 && nPred === 0 ? 1.0 : sumQ / (nGt + nFa);
  const precision = nPred ? nTp / nPred : 1.0;
  return {
    score: recall * precision,
    parts: {
      recall_term: recall,
      precision_factor: precision,
      mean_credit: nTp ? sumC / nTp : null,
      label_accuracy: nTp ? nLab / nTp : null,
      n_gt: nGt,
      n_pred: nPred,
      n_matched: nTp,
      n_missed: nGt - nTp,
      n_false_alarms: nFa,
    },
    matches,
    misses: gt.filter((_, j) => !usedG.has(j)).map((g) => g.id),
    false_alarms: preds.filter((p) => !usedP.has(p.id)).map((p) => p.id),
  };
}

/** The best framing of a ground-truth object not matched yet (0 if none). */
export function framing(view: readonly number[], gt: readonly GtObject[], found: ReadonlySet<string>): number {
  const va = (view[2] - view[0]) * (view[3] - view[1]);
  let best = 0;
  for (const g of gt) {
    if (found.has(g.id)) continue;
    const b = g.box;
    const ga = (b[2] - b[0]) * (b[3] - b[1]);
    const iw = Math.min(b[2], view[2]) - Math.max(b[0], view[0]);
    const ih = Math.min(b[3], view[3]) - Math.max(b[1], view[1]);
    const inter = iw > 0 && ih > 0 ? iw * ih : 0;
    const f = (inter / ga) * Math.min(1.0, ga / va / FILL_TARGET);
    if (f > best) best = f;
  }
  return best;
}

/** Phi(s) = score(boxes) + 0.2 * framing(view). */
export function potential(view: readonly number[], boxes: readonly LabelledBox[], gt: readonly GtObject[]): number {
  const s = scoreBoxes(boxes, gt);
  return s.score + BETA_VIEW * framing(view, gt, new Set(s.matches.map((m) => m.gt)));
}

export interface Shaping {
  phi_before: number;
  phi_after: number;
  reward: number;
  terminal: boolean;
}

/** F = gamma * Phi(s') - Phi(s), with Phi(s') = 0 on the turn that ends the episode. */
export function shaping(
  before: { view: readonly number[]; boxes: readonly LabelledBox[] },
  after: { view: readonly number[]; boxes: readonly LabelledBox[] },
  gt: readonly GtObject[],
  terminal: boolean,
): Shaping {
  const phiBefore = potential(before.view, before.boxes, gt);
  const phiAfter = terminal ? 0.0 : potential(after.view, after.boxes, gt);
  return { phi_before: phiBefore, phi_after: phiAfter, reward: GAMMA * phiAfter - phiBefore, terminal };
}

/** GRPO: mean = (((0 + r0) + r1) + ...) / n over siblings in order; advantage_i = r_i - mean. */
export function groupAdvantages(rewards: readonly number[]): { mean: number; advantages: number[] } {
  let total = 0.0;
  for (const r of rewards) total += r;
  const mean = total / rewards.length;
  return { mean, advantages: rewards.map((r) => r - mean) };
}
