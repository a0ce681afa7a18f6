/**
 * A board as geoeval's report sees it, aggregated while streaming: per arm,
 * task index -> the recomputed reward of each scored attempt, every non-null
 * distance (for the median), and running sums for the behaviour columns.
 * Episodes themselves are never kept, so a 1.3 GB board needs a few MB.
 */
import { GeoreplayError, describeValue, throwIfAborted } from "../../../../replay/io/errors.ts";
import { geoevalReward } from "../rules/reward.ts";
import { FSum } from "../../../../replay/board/pymath.ts";
import { findSweepFiles } from "../../../../replay/formats/sweep-files.ts";
import { readEpisodeLines } from "../../../../replay/board/lines.ts";

/** The behaviour columns that are means over numeric values (bool counts as 0/1, like Python's isinstance int). */
export const MEAN_FIELDS = ["turns_used", "n_looks", "n_moves", "n_pins", "action_cost", "tokens_out"] as const;
export type MeanField = (typeof MEAN_FIELDS)[number];

export interface ArmTally {
  arm: string;
  /** Scored episodes. */
  episodes: number;
  /** Task index -> recomputed reward of each scored attempt, in read order. */
  tasks: Map<number, number[]>;
  /** distance_km of every scored episode that has one. */
  distances: number[];
  means: Record<MeanField, FSum>;
  countryHit: { hits: number; n: number };
  forcedGuess: { hits: number; n: number };
  /** Scored episodes whose stored env reward is exactly 0. */
  envFloor: number;
  /** Scored episodes with no distance (no usable guess). */
  noGuess: number;
}

export interface FileTally {
  file: string;
  /** Rows read (JSON objects). */
  rows: number;
  scored: number;
  unscored: number;
  /** Lines that were not JSON (skipped, as geoeval does). */
  torn_lines: number;
}

/** Where a row is, for messages. */
interface At {
  file: string;
  line: number;
}

export interface Board {
  inputs: string[];
  /** Arms in order of their first scored row (geoeval's tie order). */
  arms: ArmTally[];
  scored: number;
  /** Unscored rows per arm key (`model_name`, "?" when missing, null when null), first-seen order. */
  unscored: Map<string | null, number>;
  /** Of the unscored rows, those the environment failed (an `error` and no `turns`: envs/geoguesser/replay/schema/record.ts's rule). */
  errored: number;
  /** Unscored rows whose model_name is neither a string nor null nor missing (geoeval's note cannot sort those). */
  unsortableUnscored: { at: string; got: string } | null;
  /** First unscored row with model_name null (geoeval's note cannot sort null next to names). */
  firstNullUnscored: string | null;
  files: FileTally[];
  quarantined: string[];
  emptyInputs: string[];
  tornLines: number;
  /** Each line that is not JSON: file, line, and whether it is the file's last (a writer cut off, as verify says). */
  torn: { file: string; line: number; last: boolean }[];
  /** Notes for the reader (stderr): what georeplay left out or skipped, and why. */
  notes: string[];
}

export interface ReadBoardOptions {
  signal?: AbortSignal;
}

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** Python's bool(): empty strings, containers and 0 are false (JS calls [] and {} true, NaN false). */
export function pyTruthy(v: unknown): boolean {
  if (v === null || v === undefined) return false;
  if (typeof v === "boolean") return v;
  if (typeof v === "number") return v !== 0;
  if (typeof v === "string") return v.length > 0;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === "object") return Object.keys(v).length > 0;
  return true;
}

function fail(at: At, field: string, expected: string, got: unknown): never {
  throw new GeoreplayError(`${at.file}:${at.line}: ${field}: expected ${expected}, got ${describeValue(got)}`, "input", [
    { file: at.file, line: at.line, field, message: `expected ${expected}, got ${describeValue(got)}` },
  ]);
}

function newArm(arm: string): ArmTally {
  const means = {} as Record<MeanField, FSum>;
  for (const f of MEAN_FIELDS) means[f] = new FSum();
  return { arm, episodes: 0, tasks: new Map(), distances: [], means, countryHit: { hits: 0, n: 0 }, forcedGuess: { hits: 0, n: 0 }, envFloor: 0, noGuess: 0 };
}

/** Streams every episode under the inputs into a Board. Throws GeoreplayError (kind input) for rows geoeval cannot read. */
export async function readBoard(inputs: readonly string[], opts: ReadBoardOptions = {}): Promise<Board> {
  const found = findSweepFiles(inputs);
  const board: Board = {
    inputs: [...inputs],
    arms: [],
    scored: 0,
    unscored: new Map(),
    errored: 0,
    unsortableUnscored: null,
    firstNullUnscored: null,
    files: [],
    quarantined: found.quarantined,
    emptyInputs: found.empty,
    tornLines: 0,
    torn: [],
    notes: [],
  };
  const arms = new Map<string, ArmTally>();
  for (const file of found.files) {
    throwIfAborted(opts.signal);
    const tally: FileTally = { file, rows: 0, scored: 0, unscored: 0, torn_lines: 0 };
    board.files.push(tally);
    let lastLine = 0;
    const tornHere: { file: string; line: number; last: boolean }[] = [];
    for await (const item of readEpisodeLines(file, opts.signal)) {
      lastLine = item.line;
      if (item.kind === "torn") {
        tally.torn_lines++;
        board.tornLines++;
        tornHere.push({ file, line: item.line, last: false });
        continue;
      }
      addRow(board, arms, tally, item.value, { file, line: item.line });
    }
    for (const t of tornHere) board.torn.push({ ...t, last: t.line === lastLine });
  }
  if (found.quarantined.length > 0) board.notes.push(`note: left out ${found.quarantined.length} file(s) under ${"_quarantined"}/ (geoeval would pool them)`);
  for (const p of found.empty) board.notes.push(`note: ${p}: no episodes.jsonl found (outside hidden and _quarantined/ folders)`);
  if (board.tornLines > 0) {
    const where = board.files
      .filter((f) => f.torn_lines > 0)
      .map((f) => `${f.file} ${f.torn_lines}`)
      .join(", ");
    board.notes.push(`note: skipped ${board.tornLines} line(s) that are not JSON, as geoeval does (torn writes: ${where})`);
  }
  return board;
}

function addRow(board: Board, arms: Map<string, ArmTally>, tally: FileTally, row: unknown, at: At): void {
  if (!isObject(row)) fail(at, "row", "a JSON object (one episode per line)", row);
  tally.rows++;
  // geoeval: (row.get("outcome") or {}).get("reward") is not None
  const rawOutcome = row.outcome;
  let outcome: Obj;
  if (!pyTruthy(rawOutcome)) outcome = {};
  else if (isObject(rawOutcome)) outcome = rawOutcome;
  else fail(at, "outcome", "an object or null", rawOutcome);
  const reward = outcome.reward;
  if (reward === null || reward === undefined) {
    tally.unscored++;
    if ("error" in row && !("turns" in row)) board.errored++;
    const name = "model_name" in row ? row.model_name : "?";
    if (name !== null && typeof name !== "string") {
      board.unsortableUnscored ??= { at: `${at.file}:${at.line}`, got: describeValue(name) };
    }
    const key = typeof name === "string" || name === null ? name : String(name);
    if (name === null) board.firstNullUnscored ??= `${at.file}:${at.line}`;
    board.unscored.set(key, (board.unscored.get(key) ?? 0) + 1);
    return;
  }
  tally.scored++;
  board.scored++;
  const arm = row.model_name;
  if (typeof arm !== "string") fail(at, "model_name", "a string (the arm)", arm);
  const task = row.task;
  if (!isObject(task)) fail(at, "task", "an object with an index", task);
  const index = task.index;
  if (typeof index !== "number") fail(at, "task.index", "a number (the task)", index);
  const distance = outcome.distance_km;
  if (distance !== null && distance !== undefined && typeof distance !== "number") fail(at, "outcome.distance_km", "a number or null", distance);
  const cost = outcome.action_cost;
  if (cost !== null && cost !== undefined && typeof cost !== "number" && typeof cost !== "boolean") fail(at, "outcome.action_cost", "a number or null", cost);

  let a = arms.get(arm);
  if (!a) {
    a = newArm(arm);
    arms.set(arm, a);
    board.arms.push(a);
  }
  a.episodes++;
  const r = geoevalReward({ distance_km: distance ?? null, action_cost: typeof cost === "boolean" ? Number(cost) : (cost ?? null) });
  const list = a.tasks.get(index);
  if (list) list.push(r);
  else a.tasks.set(index, [r]);
  if (typeof distance === "number") a.distances.push(distance);
  else a.noGuess++;
  for (const f of MEAN_FIELDS) {
    const v = outcome[f];
    if (typeof v === "number") a.means[f].add(v);
    else if (typeof v === "boolean") a.means[f].add(v ? 1 : 0);
  }
  const country = outcome.country_hit;
  if (country !== null && country !== undefined) {
    a.countryHit.n++;
    if (pyTruthy(country)) a.countryHit.hits++;
  }
  const forced = outcome.forced_guess;
  if (forced !== null && forced !== undefined) {
    a.forcedGuess.n++;
    if (pyTruthy(forced)) a.forcedGuess.hits++;
  }
  if (reward === 0 || reward === false) a.envFloor++;
}
