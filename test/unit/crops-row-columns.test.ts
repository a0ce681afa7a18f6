/**
 * The crops list rows as columns (the folder form's data/cr-<k>.js): the round trip gives the
 * same rows, value for value (full-precision floats, nulls, repeats), every field of a row is
 * written, few distinct values become a dictionary, and each row gets its own flags list.
 */
import { describe, expect, it } from "vitest";
import type { CropsRow } from "../../envs/crops/src/page/model.ts";
import { ROW_FIELDS, rowColumns, rowsOfColumns } from "../../envs/crops/src/page/row-columns.ts";

const row = (i: number): CropsRow => ({
  key: i === 7 ? "ep-3~2" : `ep-${i}`,
  id: i === 7 ? "ep-3" : `ep-${i}`,
  arm: i % 3 ? "arm-a" : "arm-b",
  split: "eval",
  task: i % 5,
  attempt: i % 4 === 0 ? null : i % 4,
  image: `scene-${i % 5}`,
  score: i / 3 + 0.1 + 0.2,
  recall: Math.sqrt(i + 2),
  precision: i % 2 ? 1 : 0.5,
  boxes: i % 6,
  matched: i % 4,
  misses: i % 3,
  falseAlarms: i % 2,
  meanCredit: i % 5 === 0 ? null : 1 / (i + 1),
  labelAccuracy: i % 2 ? 1 : null,
  zooms: i % 3,
  turns: 4 + (i % 4),
  tokensIn: 1000 + i * 17,
  tokensOut: 30 + i,
  tokens: 1030 + i * 18,
  shapingSum: -(i + 1) / 7,
  endedBy: i % 2 ? "answer" : null,
  flags: i % 4 === 1 ? ["view", "thumb"] : ["clean"],
  source: `runs/x/episodes.jsonl:${i + 1}`,
  step: null,
  advantage: i % 2 ? -0.25 * i : null,
  groupMean: null,
  sibling: null,
  groupStd: null,
  zeroSpread: i % 2 ? false : null,
});

const rows = Array.from({ length: 40 }, (_, i) => row(i));

describe("crops rows as columns", () => {
  it("gives back equal rows, every value exact, through JSON", () => {
    const back = rowsOfColumns(JSON.parse(JSON.stringify(rowColumns(rows))));
    expect(back).toEqual(rows);
    expect(back[10].score).toBe(10 / 3 + 0.1 + 0.2);
    expect(back[0].attempt).toBeNull();
  });

  it("writes every field of a row, and each name once", () => {
    expect([...ROW_FIELDS].sort()).toEqual(Object.keys(rows[0]).sort());
    const text = JSON.stringify(rowColumns(rows));
    expect(text.split('"falseAlarms"').length - 1).toBe(1);
    // Forty rows as objects repeat every name forty times.
    expect(text.length).toBeLessThan(JSON.stringify(rows).length / 2);
  });

  it("keeps a column of few values as a dictionary, and one of many as its values", () => {
    const c = rowColumns(rows).cols;
    expect(c.arm).toEqual({ dict: ["arm-b", "arm-a"], at: rows.map((r) => (r.arm === "arm-b" ? 0 : 1)) });
    expect(c.step).toEqual({ dict: [null], at: rows.map(() => 0) });
    expect("values" in c.score && c.score.values).toEqual(rows.map((r) => r.score));
    expect("values" in c.source).toBe(true);
  });

  it("gives each row its own flags list", () => {
    const back = rowsOfColumns(rowColumns(rows));
    back[0].flags.push("changed");
    expect(back[4].flags).toEqual(["clean"]);
  });

  it("reads no rows from no rows", () => {
    expect(rowsOfColumns(rowColumns([]))).toEqual([]);
  });
});
