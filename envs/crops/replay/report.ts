/**
 * The crops board: what `geoeval report` gives a GeoGuesser board, for the detection gym. Per
 * model (the arm, `model_name`) and task (`task.split`/`task.index`): the recorded scores of its
 * scored attempts, ranked by mean-of-k; best-of-k (pass@k); and the parts of the score that say
 * why one arm beats another: recall term, precision factor, mean GIoU credit, label accuracy,
 * misses and false alarms per image. Paired deltas against a baseline use geoeval's formulas
 * (replay/board/paired.ts). Streams: only numbers per task are kept.
 */
import { GeoreplayError, describeValue, throwIfAborted } from "../../../replay/io/errors.ts";
import { readEpisodeLines } from "../../../replay/board/lines.ts";
import { findSweepFiles } from "../../../replay/formats/sweep-files.ts";
import { runFiles } from "./inputs.ts";
import { FSum, fmean } from "../../../replay/board/pymath.ts";
import { pairedDelta, type Paired } from "../../../replay/board/paired.ts";

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** Per-episode means over the arm's scored episodes (every one has these in a valid crops outcome). */
const EPISODE_MEANS = ["recall_term", "precision_factor", "n_missed", "n_false_alarms", "n_pred", "n_zooms", "turns_used", "tokens_out"] as const;
type EpisodeMean = (typeof EPISODE_MEANS)[number];
/** Which of them live in `outcome.parts` (the rest are on `outcome`). */
const IN_PARTS = new Set<EpisodeMean>(["recall_term", "precision_factor", "n_missed", "n_false_alarms", "n_pred"]);

interface CropsArmTally {
  arm: string;
  episodes: number;
  /** "split/index" -> scores of its scored attempts, in read order. */
  tasks: Map<string, number[]>;
  means: Record<EpisodeMean, FSum>;
  /** Over every match of every scored episode: GIoU credit and right labels. */
  credit: FSum;
  matches: number;
  labelOk: number;
}

export interface CropsReportArm {
  arm: string;
  episodes: number;
  tasks: number;
  k: number;
  mean_of_k: number;
  best_of_k: number;
  recall_term: number;
  precision_factor: number;
  /** Mean GIoU credit over every match; null when nothing matched. */
  mean_credit: number | null;
  /** Share of matches whose label was right; null when nothing matched. */
  label_accuracy: number | null;
  misses_per_image: number;
  false_alarms_per_image: number;
  boxes_per_image: number;
  zooms: number;
  turns: number;
  tok_out: number;
}

export interface CropsReport {
  env: "crops";
  episodes: number;
  arms: CropsReportArm[];
  paired: { baseline: string; comparisons: (Paired & { arm: string })[]; skipped: { arm: string; shared: number }[] } | null;
  tasks: { task: string; arms: { arm: string; attempts: number; mean: number; best: number; delta: number | null }[] }[];
  /** Records without a score (no outcome, or outcome.score null): counted apart, per arm. */
  unscored: number;
  unscored_by_arm: { arm: string; episodes: number }[];
  files: { file: string; rows: number; scored: number; unscored: number; torn_lines: number }[];
  torn_lines: number;
  /** Every line that is not JSON, named (`last`: the file's last line, cut off while written). */
  torn: { file: string; line: number; last: boolean }[];
}

function fail(file: string, line: number, field: string, expected: string, got: unknown): never {
  const message = `expected ${expected}, got ${describeValue(got)}`;
  throw new GeoreplayError(`${file}:${line}: ${field}: ${message}`, "input", [{ file, line, field, message }]);
}

const num = (o: Obj, key: string, file: string, line: number, field: string): number => {
  const v = o[key];
  if (typeof v !== "number" || !Number.isFinite(v)) fail(file, line, field, "a number", v);
  return v;
};

/** Is this parsed record a crops one? (`env: "crops"`; records without `env` are GeoGuesser's.) */
export const isCropsRecord = (row: unknown): boolean => isObject(row) && row.env === "crops";

export async function cropsReport(inputs: readonly string[], opts: { baseline?: string; signal?: AbortSignal } = {}): Promise<CropsReport> {
  const found = findSweepFiles(inputs);
  // A training run's folder holds rollouts*.jsonl, not a sweep's episodes.jsonl: read those.
  if (found.empty.length) found.files.push(...runFiles(found.empty));
  const arms = new Map<string, CropsArmTally>();
  const unscored = new Map<string, number>();
  const files: CropsReport["files"] = [];
  const torn: CropsReport["torn"] = [];
  let scored = 0;
  for (const file of found.files) {
    const tally = { file, rows: 0, scored: 0, unscored: 0, torn_lines: 0 };
    files.push(tally);
    let lastLine = 0;
    const tornHere: number[] = [];
    for await (const item of readEpisodeLines(file, opts.signal)) {
      throwIfAborted(opts.signal);
      lastLine = item.line;
      if (item.kind === "torn") {
        tally.torn_lines++;
        tornHere.push(item.line);
        continue;
      }
      const row = item.value;
      const line = item.line;
      if (!isObject(row)) fail(file, line, "row", "a JSON object (one episode per line)", row);
      if (row.env !== "crops") fail(file, line, "env", '"crops" (a crops board reads crops episodes only)', row.env);
      tally.rows++;
      const arm = row.model_name;
      if (typeof arm !== "string") fail(file, line, "model_name", "a string (the arm)", arm);
      const outcome = row.outcome;
      if (!isObject(outcome) || outcome.score === null || outcome.score === undefined) {
        tally.unscored++;
        unscored.set(arm, (unscored.get(arm) ?? 0) + 1);
        continue;
      }
      const score = num(outcome, "score", file, line, "outcome.score");
      const task = row.task;
      if (!isObject(task)) fail(file, line, "task", "an object with split and index", task);
      if (typeof task.split !== "string") fail(file, line, "task.split", "a string", task.split);
      const index = num(task, "index", file, line, "task.index");
      const parts = outcome.parts;
      if (!isObject(parts)) fail(file, line, "outcome.parts", "an object", parts);
      const matches = outcome.matches;
      if (!Array.isArray(matches)) fail(file, line, "outcome.matches", "a list", matches);
      tally.scored++;
      scored++;
      let a = arms.get(arm);
      if (!a) {
        a = {
          arm,
          episodes: 0,
          tasks: new Map(),
          means: Object.fromEntries(EPISODE_MEANS.map((f) => [f, new FSum()])) as CropsArmTally["means"],
          credit: new FSum(),
          matches: 0,
          labelOk: 0,
        };
        arms.set(arm, a);
      }
      a.episodes++;
      const key = `${task.split}/${index}`;
      const list = a.tasks.get(key);
      if (list) list.push(score);
      else a.tasks.set(key, [score]);
      for (const f of EPISODE_MEANS) {
        const inParts = IN_PARTS.has(f);
        a.means[f].add(num(inParts ? parts : outcome, f, file, line, `${inParts ? "outcome.parts" : "outcome"}.${f}`));
      }
      matches.forEach((m, i) => {
        if (!isObject(m)) fail(file, line, `outcome.matches[${i}]`, "an object", m);
        a.credit.add(num(m, "credit", file, line, `outcome.matches[${i}].credit`));
        a.matches++;
        if (m.label_ok === true) a.labelOk++;
      });
    }
    for (const line of tornHere) torn.push({ file, line, last: line === lastLine });
  }
  if (scored === 0) {
    const rows = files.reduce((s, f) => s + f.rows, 0);
    throw new GeoreplayError(`no scored crops episodes under ${inputs.join(", ")} (${files.length} file(s), ${rows} row(s), none with an outcome.score)`);
  }

  const taskMeans = new Map<CropsArmTally, Map<string, number>>();
  for (const a of arms.values()) taskMeans.set(a, new Map([...a.tasks].map(([t, v]) => [t, fmean(v)])));
  const mean = (s: FSum) => s.value() / s.count;
  const rows = [...arms.values()].map((a) => {
    const lists = [...a.tasks.values()];
    const row: CropsReportArm = {
      arm: a.arm,
      episodes: a.episodes,
      tasks: a.tasks.size,
      k: fmean(lists.map((v) => v.length)),
      mean_of_k: fmean(taskMeans.get(a)!.values()),
      best_of_k: fmean(lists.map((v) => Math.max(...v))),
      recall_term: mean(a.means.recall_term),
      precision_factor: mean(a.means.precision_factor),
      mean_credit: a.matches === 0 ? null : a.credit.value() / a.matches,
      label_accuracy: a.matches === 0 ? null : a.labelOk / a.matches,
      misses_per_image: mean(a.means.n_missed),
      false_alarms_per_image: mean(a.means.n_false_alarms),
      boxes_per_image: mean(a.means.n_pred),
      zooms: mean(a.means.n_zooms),
      turns: mean(a.means.turns_used),
      tok_out: mean(a.means.tokens_out),
    };
    return { tally: a, row };
  });
  // Stable: equal means keep first-seen order, as geoeval's ranking does.
  rows.sort((x, y) => y.row.mean_of_k - x.row.mean_of_k);

  const baselineName = opts.baseline;
  const base = baselineName === undefined ? undefined : arms.get(baselineName);
  if (baselineName !== undefined && !base) {
    const names = rows.map((r) => r.row.arm).join(", ");
    throw new GeoreplayError(`--baseline ${baselineName}: no arm of that name on this board (arms: ${names})`, "input", [
      { file: null, line: null, field: "--baseline", message: `no arm named ${baselineName}; arms: ${names}` },
    ]);
  }
  let paired: CropsReport["paired"] = null;
  if (base) {
    const comparisons: (Paired & { arm: string })[] = [];
    const skipped: { arm: string; shared: number }[] = [];
    for (const { tally } of rows) {
      if (tally === base) continue;
      const { shared, paired: p } = pairedDelta(taskMeans.get(tally)!, taskMeans.get(base)!);
      if (p) comparisons.push({ arm: tally.arm, ...p });
      else skipped.push({ arm: tally.arm, shared });
    }
    paired = { baseline: base.arm, comparisons, skipped };
  }

  const keys = new Set<string>();
  for (const a of arms.values()) for (const t of a.tasks.keys()) keys.add(t);
  const order = (t: string) => [t.slice(0, t.lastIndexOf("/")), Number(t.slice(t.lastIndexOf("/") + 1))] as const;
  const tasks = [...keys]
    .sort((x, y) => {
      const [sx, ix] = order(x);
      const [sy, iy] = order(y);
      return sx < sy ? -1 : sx > sy ? 1 : ix - iy;
    })
    .map((task) => ({
      task,
      arms: rows.flatMap(({ tally }) => {
        const v = tally.tasks.get(task);
        if (!v) return [];
        const m = taskMeans.get(tally)!.get(task)!;
        const b = base && tally !== base ? taskMeans.get(base)!.get(task) : undefined;
        return [{ arm: tally.arm, attempts: v.length, mean: m, best: Math.max(...v), delta: b === undefined ? null : m - b }];
      }),
    }));

  return {
    env: "crops",
    episodes: scored,
    arms: rows.map((r) => r.row),
    paired,
    tasks,
    unscored: [...unscored.values()].reduce((s, n) => s + n, 0),
    unscored_by_arm: [...unscored].map(([arm, episodes]) => ({ arm, episodes })).sort((x, y) => (x.arm < y.arm ? -1 : x.arm > y.arm ? 1 : 0)),
    files,
    torn_lines: files.reduce((s, f) => s + f.torn_lines, 0),
    torn,
  };
}
