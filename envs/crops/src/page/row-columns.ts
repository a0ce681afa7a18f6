/**
 * The crops list rows column by column (browser-safe, pure): the folder form's data/cr-<k>.js
 * files. 10,000 rows as objects repeat their 31 field names on every row (5.9 MB of JSON); as
 * columns each name is written once, and a column of few distinct values (arm, split, image,
 * endedBy, flags, the nulls of an eval run) is a dictionary and an index per row (2.2 MB).
 * Values are kept exactly (the list's numbers equal `report --json`): the round trip gives
 * equal rows. The reader builds each row as one object literal: rows built field by field by
 * name take V8 several times longer (measured ~300 ms against ~50 ms for 10,000).
 */
import type { CropsRow } from "./model.ts";

/** One column: its values in row order, or a dictionary of distinct values and each row's index in it. */
export type RowColumn = { values: unknown[] } | { dict: unknown[]; at: number[] };

export interface RowColumns {
  n: number;
  cols: Record<keyof CropsRow, RowColumn>;
}

/** Every field of a row, in the order the reader builds it. */
export const ROW_FIELDS = [
  "key",
  "id",
  "arm",
  "split",
  "task",
  "attempt",
  "image",
  "score",
  "recall",
  "precision",
  "boxes",
  "matched",
  "misses",
  "falseAlarms",
  "meanCredit",
  "labelAccuracy",
  "zooms",
  "turns",
  "tokensIn",
  "tokensOut",
  "tokens",
  "shapingSum",
  "endedBy",
  "flags",
  "source",
  "step",
  "advantage",
  "groupMean",
  "sibling",
  "groupStd",
  "zeroSpread",
] as const satisfies readonly (keyof CropsRow)[];

/** A dictionary pays when a column has at most this share of distinct values. */
const DICT_SHARE = 0.5;

function column(values: unknown[]): RowColumn {
  const index = new Map<string, number>();
  const dict: unknown[] = [];
  const at: number[] = [];
  for (const v of values) {
    const k = JSON.stringify(v);
    let i = index.get(k);
    if (i === undefined) {
      if (dict.length >= values.length * DICT_SHARE) return { values };
      i = dict.length;
      index.set(k, i);
      dict.push(v);
    }
    at.push(i);
  }
  return { dict, at };
}

export function rowColumns(rows: readonly CropsRow[]): RowColumns {
  const cols = {} as Record<keyof CropsRow, RowColumn>;
  for (const name of ROW_FIELDS) cols[name] = column(rows.map((r) => r[name] ?? null));
  return { n: rows.length, cols };
}

export function rowsOfColumns(c: RowColumns): CropsRow[] {
  const C = c.cols;
  // Each field's value for row i, typed as the row declares it (the writer wrote that field of a CropsRow).
  const g = <K extends keyof CropsRow>(k: K, i: number): CropsRow[K] => {
    const col = C[k];
    return ("values" in col ? col.values[i] : col.dict[col.at[i]]) as CropsRow[K];
  };
  const rows: CropsRow[] = new Array<CropsRow>(c.n);
  for (let i = 0; i < c.n; i++)
    rows[i] = {
      key: g("key", i),
      id: g("id", i),
      arm: g("arm", i),
      split: g("split", i),
      task: g("task", i),
      attempt: g("attempt", i),
      image: g("image", i),
      score: g("score", i),
      recall: g("recall", i),
      precision: g("precision", i),
      boxes: g("boxes", i),
      matched: g("matched", i),
      misses: g("misses", i),
      falseAlarms: g("falseAlarms", i),
      meanCredit: g("meanCredit", i),
      labelAccuracy: g("labelAccuracy", i),
      zooms: g("zooms", i),
      turns: g("turns", i),
      tokensIn: g("tokensIn", i),
      tokensOut: g("tokensOut", i),
      tokens: g("tokens", i),
      shapingSum: g("shapingSum", i),
      endedBy: g("endedBy", i),
      // A list of its own per row: a dictionary's value is shared, and a row's flags are its own.
      flags: [...g("flags", i)],
      source: g("source", i),
      step: g("step", i),
      advantage: g("advantage", i),
      groupMean: g("groupMean", i),
      sibling: g("sibling", i),
      groupStd: g("groupStd", i),
      zeroSpread: g("zeroSpread", i),
    };
  return rows;
}

/** The folder form's row files: data/cr-<k>.js, ROWS_PER_FILE rows each, in list order. */
export const ROWS_KIND = "cr";
export const ROWS_PER_FILE = 2000;
/**
 * Rows the folder form's index.html carries itself: the top of the list as written, what its
 * first screen shows (a 1366x900 window shows ~20) before the row files are read.
 */
export const FIRST_ROWS = 50;
