/**
 * From a Board to geoeval's report numbers (../shared/docs/geoeval-report.md
 * §2-§4): ranking, pass@k table, behaviour table, paired comparison against
 * a baseline. Every mean is Python's fmean, every SD Python's exact one.
 */
import { GeoreplayError } from "../../../../replay/io/errors.ts";
import type { ArmTally, Board } from "./board.ts";
import { fmean, median } from "../../../../replay/board/pymath.ts";
import { pairedDelta } from "../../../../replay/board/paired.ts";
import { pyStrCompare } from "../../../../replay/board/pyformat.ts";
import type { PairedComparison, Report, ReportArm } from "./report-schema.ts";

export interface BoardReportOptions {
  /** Arm to pair against; geoeval's default is "base". */
  baseline?: string;
  /** geoeval 4df3d4d4: population SD in the paired section (and, in print, no dropped note, no no_guess%). */
  legacy?: boolean;
}

const nullIfNaN = (x: number): number | null => (Number.isNaN(x) ? null : x);
const pct = (hits: number, n: number): number => (n === 0 ? Number.NaN : (100.0 * hits) / n);

/** geoeval's "within" columns: percent of the distances (scored episodes that have one) at most `km`; NaN when none. Pages use it too. */
export const withinPct = (distances: readonly number[], km: number): number => pct(distances.filter((v) => v <= km).length, distances.length);

function armRow(a: ArmTally, taskMeans: Map<number, number>): ReportArm {
  const lists = [...a.tasks.values()];
  const d = a.distances;
  const mean = (f: keyof ArmTally["means"]) => (a.means[f].count === 0 ? null : a.means[f].value() / a.means[f].count);
  return {
    arm: a.arm,
    episodes: a.episodes,
    tasks: a.tasks.size,
    k: fmean(lists.map((v) => v.length)),
    mean_of_k: fmean(taskMeans.values()),
    best_of_k: fmean(lists.map((v) => Math.max(...v))),
    median_km: nullIfNaN(median(d)),
    turns: mean("turns_used"),
    looks: mean("n_looks"),
    moves: mean("n_moves"),
    pins: mean("n_pins"),
    cost: mean("action_cost"),
    country_pct: nullIfNaN(pct(a.countryHit.hits, a.countryHit.n)),
    within_200km_pct: nullIfNaN(withinPct(d, 200)),
    within_750km_pct: nullIfNaN(withinPct(d, 750)),
    env_floor_pct: pct(a.envFloor, a.episodes),
    no_guess_pct: pct(a.noGuess, a.episodes),
    forced_pct: nullIfNaN(pct(a.forcedGuess.hits, a.forcedGuess.n)),
    tok_out: mean("tokens_out"),
  };
}

/** The report object (`--json`). Throws GeoreplayError where geoeval would stop (no scored episode, an unsortable dropped note). */
export function boardReport(board: Board, opts: BoardReportOptions = {}): Report {
  const baseline = opts.baseline ?? "base";
  const legacy = opts.legacy ?? false;
  if (board.scored === 0) {
    const rows = board.files.reduce((s, f) => s + f.rows, 0);
    throw new GeoreplayError(
      `no scored episodes under ${board.inputs.join(", ")} (${board.files.length} file(s), ${rows} row(s), none with an outcome.reward)`,
    );
  }
  const dropped = [...board.unscored.entries()];
  if (!legacy && dropped.length > 1) {
    // geoeval sorts the note's arm keys: a null or non-string key beside others is a TypeError there.
    if (board.unsortableUnscored) {
      throw new GeoreplayError(
        `${board.unsortableUnscored.at}: model_name: expected a string or null on an unscored row, got ${board.unsortableUnscored.got} (geoeval's dropped note cannot sort it)`,
      );
    }
    if (board.firstNullUnscored && dropped.some(([k]) => k !== null)) {
      throw new GeoreplayError(
        `${board.firstNullUnscored}: model_name: expected a string, got null on an unscored row beside named arms (geoeval's dropped note cannot sort null with names)`,
      );
    }
  }
  dropped.sort(([a], [b]) => (a === null ? (b === null ? 0 : 1) : b === null ? -1 : pyStrCompare(a, b)));

  const taskMeans = new Map<ArmTally, Map<number, number>>();
  for (const a of board.arms) taskMeans.set(a, new Map([...a.tasks].map(([t, v]) => [t, fmean(v)])));
  const rows = board.arms.map((a) => ({ tally: a, row: armRow(a, taskMeans.get(a)!) }));
  // Stable: equal means keep first-seen order, as Python's sorted does.
  rows.sort((x, y) => y.row.mean_of_k - x.row.mean_of_k);

  const base = board.arms.find((a) => a.arm === baseline);
  let paired: Report["paired"] = null;
  if (base) {
    const baseMeans = taskMeans.get(base)!;
    const comparisons: PairedComparison[] = [];
    const skipped: { arm: string; shared: number }[] = [];
    for (const { tally } of rows) {
      if (tally === base) continue;
      const { shared, paired: p } = pairedDelta(taskMeans.get(tally)!, baseMeans, legacy);
      if (p) comparisons.push({ arm: tally.arm, ...p });
      else skipped.push({ arm: tally.arm, shared });
    }
    paired = { baseline, comparisons, skipped };
  }

  const indexes = new Set<number>();
  for (const a of board.arms) for (const t of a.tasks.keys()) indexes.add(t);
  const tasks = [...indexes]
    .sort((a, b) => a - b)
    .map((index) => ({
      index,
      arms: rows.flatMap(({ tally }) => {
        const v = tally.tasks.get(index);
        if (!v) return [];
        const mean = taskMeans.get(tally)!.get(index)!;
        const b = base && tally !== base ? taskMeans.get(base)!.get(index) : undefined;
        return [{ arm: tally.arm, attempts: v.length, mean, best: Math.max(...v), delta: b === undefined ? null : mean - b }];
      }),
    }));

  return {
    layout: legacy ? "legacy" : "current",
    geoeval_version: legacy ? "4df3d4d4" : "12e04618",
    episodes: board.scored,
    arms: rows.map((r) => r.row),
    paired,
    tasks,
    dropped_unscored: dropped.reduce((s, [, n]) => s + n, 0),
    dropped_by_arm: dropped.map(([arm, episodes]) => ({ arm, episodes })),
    dropped_errored: board.errored,
    files: board.files.map((f) => ({ ...f })),
    torn_lines: board.tornLines,
    quarantined_files: [...board.quarantined],
  };
}
