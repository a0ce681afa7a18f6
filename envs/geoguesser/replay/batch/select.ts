/**
 * Which videos a batch renders (pure): several episodes by id or #n, every
 * replayable episode, or the N tasks a checkpoint improved (regressed) most
 * against a baseline, each as a two-up video. The task ranking reads the very
 * numbers `georeplay report --json` prints (tasks[].arms[].delta, from
 * boardReport), sorted stably, so ties keep the report's order (task index
 * ascending).
 */
import { GeoreplayError } from "../../../../replay/io/errors.ts";
import type { Report } from "../board/report-schema.ts";
import { pickVersusAttempt, type Attempt } from "../frames/versus.ts";
import { videoStem, uniqueStems } from "./names.ts";

/** One replayable episode of the inputs; `ordinal` is its 1-based #n, as `verify` and `--episode #n` count. */
export interface Candidate extends Attempt {
  ordinal: number;
}

export type Selection =
  | { by: "episodes"; wanted: string[] }
  | { by: "all" }
  | { by: "delta"; direction: "improved" | "regressed"; count: number; arm: string; baseline: string; pass?: number };

/** A task chosen by its paired delta. */
export interface RankedTask {
  index: number;
  delta: number;
}

export interface SelectedVideo {
  kind: "rollout" | "compare";
  /** File name without extension, unique within the batch and safe as a path segment. */
  stem: string;
  /** Side A (and B for two-up), as found in the inputs. */
  sides: Candidate[];
  /** Two-up from a board: the task and its delta. */
  task: RankedTask | null;
  /** Why this video cannot be rendered (reported as an input failure; the others go on). */
  problem: string | null;
}

/**
 * The tasks with the largest (improved) or smallest (regressed) delta of `arm`,
 * from report.tasks[].arms[].delta (the report's baseline). Stable: equal deltas
 * keep the report's order, task index ascending.
 */
export function rankTasksByDelta(report: Report, arm: string, direction: "improved" | "regressed"): RankedTask[] {
  const rows: RankedTask[] = [];
  for (const t of report.tasks) {
    const d = t.arms.find((a) => a.arm === arm)?.delta;
    if (d !== null && d !== undefined) rows.push({ index: t.index, delta: d });
  }
  const sign = direction === "improved" ? -1 : 1;
  return rows
    .map((r, i) => ({ r, i }))
    .sort((x, y) => sign * (x.r.delta - y.r.delta) || x.i - y.i)
    .map((x) => x.r);
}

/** How a candidate is named to findEpisode: its id, or #n when an earlier record has the same id. */
export function episodeRef(c: Candidate, all: Candidate[]): string {
  const first = all.find((t) => t.episodeId === c.episodeId);
  return first === c ? c.episodeId : `#${c.ordinal}`;
}

function findWanted(cands: Candidate[], wanted: string): Candidate {
  const ord = /^#(\d+)$/.exec(wanted.trim());
  if (ord) {
    const n = Number(ord[1]);
    if (n === 0) throw new GeoreplayError(`--episode ${wanted}: ordinals start at #1`);
    const c = cands[n - 1];
    if (!c) throw new GeoreplayError(`--episode ${wanted}: the inputs have ${cands.length} replayable episode(s)`);
    return c;
  }
  const c = cands.find((t) => t.episodeId === wanted);
  if (!c) throw new GeoreplayError(`--episode ${JSON.stringify(wanted)}: not found among the ${cands.length} replayable episode(s) of the inputs`);
  return c;
}

/** The lowest pass (task.sample; a recorded one before none), input order breaking ties. */
function lowestPass(list: Candidate[]): Candidate {
  return [...list].sort((x, y) => (x.sample ?? Number.MAX_SAFE_INTEGER) - (y.sample ?? Number.MAX_SAFE_INTEGER) || x.ordinal - y.ordinal)[0];
}

/**
 * The two sides of a board video at one task: A is the baseline's attempt
 * (`pass` if given, else its lowest pass), B the arm's attempt at A's task and
 * pass (else the arm's lowest pass; pickVersusAttempt, as `--versus-arm`).
 */
export function boardSides(cands: Candidate[], task: number, baseline: string, arm: string, pass?: number): Candidate[] {
  const mine = cands.filter((c) => c.index === task && c.arm === baseline);
  if (mine.length === 0) throw new GeoreplayError(`task #${task}: no replayable attempt by the baseline ${JSON.stringify(baseline)}`);
  let a: Candidate | undefined;
  if (pass !== undefined) {
    a = mine.find((c) => c.sample === pass);
    if (!a) throw new GeoreplayError(`task #${task}: the baseline ${JSON.stringify(baseline)} has no pass ${pass} (--pass)`);
  } else a = lowestPass(mine);
  const b = pickVersusAttempt(cands, a, { arm, pass });
  return [a, b as Candidate];
}

/** Resolves a selection to videos, in render order. `report` is needed for `by: "delta"`. */
export function selectVideos(cands: Candidate[], sel: Selection, report?: Report): SelectedVideo[] {
  const out: Omit<SelectedVideo, "stem">[] = [];
  if (sel.by === "all") {
    for (const c of cands) out.push({ kind: "rollout", sides: [c], task: null, problem: null });
  } else if (sel.by === "episodes") {
    for (const w of sel.wanted) out.push({ kind: "rollout", sides: [findWanted(cands, w)], task: null, problem: null });
  } else {
    if (!report) throw new GeoreplayError("--improved/--regressed need the board report");
    if (sel.arm === sel.baseline) throw new GeoreplayError(`--arm and --baseline are both ${JSON.stringify(sel.arm)}: name two arms`);
    const arms = report.arms.map((a) => a.arm);
    for (const [flag, name] of [
      ["--arm", sel.arm],
      ["--baseline", sel.baseline],
    ] as const) {
      if (!arms.includes(name))
        throw new GeoreplayError(`${flag} ${JSON.stringify(name)}: no scored episode by that arm; arms: ${arms.map((a) => JSON.stringify(a)).join(", ")}`);
    }
    for (const task of rankTasksByDelta(report, sel.arm, sel.direction).slice(0, sel.count)) {
      try {
        out.push({ kind: "compare", sides: boardSides(cands, task.index, sel.baseline, sel.arm, sel.pass), task, problem: null });
      } catch (e) {
        if (!(e instanceof GeoreplayError)) throw e;
        // Still a video of the selection (named by its task), reported as an input failure.
        out.push({ kind: "compare", sides: [], task, problem: e.message });
      }
    }
  }
  const stems = uniqueStems(
    out.map((v) =>
      v.kind === "rollout"
        ? videoStem({ kind: "rollout", episodeId: v.sides[0].episodeId })
        : videoStem({
            kind: "compare",
            split: v.sides[0]?.split ?? "task",
            index: v.task?.index ?? v.sides[0].index,
            a: v.sides[0]?.arm ?? (sel.by === "delta" ? sel.baseline : "a"),
            b: v.sides[1]?.arm ?? (sel.by === "delta" ? sel.arm : "b"),
          }),
    ),
  );
  return out.map((v, i) => ({ ...v, stem: stems[i] }));
}
