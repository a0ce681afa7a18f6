/**
 * The crops page's per-box table (envs/crops/src/page/boxes.ts) on the contract's worked examples
 * (crops-trace-format.md "Score with a false alarm", "Score with wrong labels"), and the list's
 * filter expression and CSV over crops rows.
 */
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { boxTable } from "../../envs/crops/src/page/boxes.ts";
import { compileFieldExpr, FieldExprError } from "../../src/page/client/state/field-expr.ts";
import { csvTable } from "../../src/page/client/state/csv-table.ts";
import { CROPS_CSV, CROPS_FIELDS } from "../../envs/crops/src/page/client/fields.ts";
import type { CropsRow } from "../../envs/crops/src/page/model.ts";

const SAMPLE = join(import.meta.dirname, "..", "fixtures", "crops", "sample");
const lines = (f: string) =>
  readFileSync(f, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
const episodes = lines(join(SAMPLE, "eval", "episodes.jsonl"));
const gtOf = (image: string) => lines(join(SAMPLE, "gt.jsonl")).find((g) => g.image_id === image).objects;
const tableOf = (id: string) => {
  const e = episodes.find((x) => x.episode_id === id);
  return boxTable(e.turns[e.turns.length - 1].boxes, gtOf(e.task.image_id), e.outcome);
};

describe("the per-box table", () => {
  it("a false alarm beside an object another box took is a duplicate (episode bd92d1fa6bce: box 3 'bus' on g1)", () => {
    const t = tableOf("bd92d1fa6bce");
    expect(t.map((r) => [r.box, r.gt, r.error])).toEqual([
      [1, "g3", "localisation"],
      [2, "g2", "correct"],
      [3, "g1", "duplicate"],
      [4, "g1", "correct"],
    ]);
    // The contract's numbers: recorded GIoU and credit for matches; the duplicate's GIoU with g1.
    expect(t[0].giou).toBe(0.43344339625369577);
    expect(t[0].credit).toBe(0.7167216981268478);
    expect(t[2].giou).toBe(-0.16734063275092778);
    expect(t[2].credit).toBeNull();
  });

  it("a match with the wrong label is a classification error (episode 9fed5938e88a)", () => {
    expect(tableOf("9fed5938e88a").map((r) => [r.box, r.label, r.gt, r.labelOk, r.error])).toEqual([
      [1, "yellow car", "g3", true, "correct"],
      [2, "truck", "g2", false, "classification"],
      [3, "balloon", "g1", false, "classification"],
    ]);
  });

  it("lists every missed object after the boxes, and a box near nothing as background", () => {
    const t = tableOf("bfe66350fb08");
    expect(t.filter((r) => r.error === "missed").map((r) => r.gt)).toEqual(["g3", "g4", "g5"]);
    const far = boxTable([{ id: 1, label: "car", box: [0, 0, 5, 5] }], [{ id: "g1", label: "car", box: [400, 400, 500, 500] }], {
      matches: [],
      misses: ["g1"],
      false_alarms: [1],
    });
    expect(far.map((r) => [r.box, r.gt, r.error])).toEqual([
      [1, null, "background"],
      [null, "g1", "missed"],
    ]);
  });
});

const row = (over: Partial<CropsRow>): CropsRow => ({
  key: "a",
  id: "a",
  arm: "m",
  split: "eval",
  task: 0,
  attempt: 0,
  image: "img",
  score: 0.5,
  recall: 0.5,
  precision: 1,
  boxes: 2,
  matched: 2,
  misses: 1,
  falseAlarms: 0,
  meanCredit: 0.8,
  labelAccuracy: 1,
  zooms: 1,
  turns: 4,
  tokensIn: 100,
  tokensOut: 20,
  tokens: 120,
  shapingSum: 0,
  endedBy: "done",
  flags: ["clean"],
  source: "x.jsonl:1",
  step: null,
  advantage: null,
  groupMean: null,
  sibling: null,
  groupStd: null,
  zeroSpread: null,
  ...over,
});

describe("the crops list's expression and CSV", () => {
  it("filters on the crops fields and names a mistake's position", () => {
    const rows = [row({ id: "a" }), row({ id: "b", misses: 3, precision: 0.5, flags: ["view"] }), row({ id: "c", falseAlarms: 2 })];
    const ids = (src: string) => rows.filter(compileFieldExpr(src, CROPS_FIELDS)).map((r) => r.id);
    expect(ids("misses >= 2 or false_alarms > 0")).toEqual(["b", "c"]);
    expect(ids('status == "view"')).toEqual(["b"]);
    expect(ids("not (precision < 1) and tokens = 120")).toEqual(["a", "c"]);
    expect(() => compileFieldExpr("misses >= two", CROPS_FIELDS)).toThrow(FieldExprError);
    expect(() => compileFieldExpr("km > 3", CROPS_FIELDS)).toThrow(/^unknown field "km": the fields are id, model/);
    expect(() => compileFieldExpr("misses >= two", CROPS_FIELDS)).toThrow(expect.objectContaining({ at: 10 }));
  });

  it("writes the rows as CSV, a formula-like text cell made inert", () => {
    const csv = csvTable(CROPS_CSV, [row({ id: "=cmd", arm: 'a,"b"' })]);
    const [head, line] = csv.split("\r\n");
    expect(head.split(",").slice(0, 3)).toEqual(["episode_id", "arm", "split"]);
    expect(line.startsWith(`'=cmd,"a,""b""",eval,0,0,img,0.5,0.5,1,2,2,1,0,`)).toBe(true);
  });
});
