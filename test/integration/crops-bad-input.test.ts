/**
 * Bad crops input named in one line (file, line, field), exit 2, no stack trace, nothing written,
 * for the commands whose other tests do not cover the case: `frames` (a task missing from
 * tasks.jsonl, an inverted box, a view outside the image, an unknown env) and `report` (an unknown
 * env on the first record). verify's cases are in crops-verify.test.ts, groups' in crops-groups.test.ts.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIXTURES, runCli, type CliResult } from "../helpers.ts";

const SAMPLE = join(FIXTURES, "crops", "sample");
const lines = (f: string) => readFileSync(f, "utf8").split("\n").filter(Boolean);

function expectOneLineError(r: CliResult, text: RegExp): void {
  expect(r.code, r.stdout + r.stderr).toBe(2);
  expect(r.stdout).toBe("");
  expect(r.stderr.trim().split("\n")).toHaveLength(1);
  expect(r.stderr).toMatch(text);
  expect(r.stderr).not.toMatch(/\n\s+at /);
  expect(r.stderr).not.toContain("internal error");
}

let dir: string;
let n = 0;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "georeplay-crops-badin-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A copy of the sample with eval record `index` (0-based) passed through `edit`. */
function withRecord(index: number, edit: (r: Record<string, any>) => void): string {
  const d = join(dir, `c${n++}`);
  cpSync(SAMPLE, d, { recursive: true });
  const f = join(d, "eval", "episodes.jsonl");
  const ls = lines(f);
  const r = JSON.parse(ls[index]);
  edit(r);
  ls[index] = JSON.stringify(r);
  writeFileSync(f, ls.join("\n") + "\n");
  return d;
}

/** `frames` on the 3rd record of the copy's eval run: the error, and no output folder. */
function frames3(d: string): CliResult {
  const out = join(d, "film");
  const r = runCli(["frames", join(d, "eval"), "--episode", "#3", "--out", out, "--no-progress"]);
  expect(existsSync(out)).toBe(false);
  return r;
}

describe("frames on bad crops input", () => {
  it("tasks.jsonl without the episode's task", () => {
    const d = withRecord(2, (r) => (r.task.index = 9));
    expectOneLineError(frames3(d), /eval\/episodes\.jsonl:3: task: expected a row of .*tasks\.jsonl with split "eval" and task_index 9, got none/);
  });

  it("a box with x0 >= x1", () => {
    const d = withRecord(2, (r) => {
      const t = r.turns.find((x: { boxes: unknown[] }) => x.boxes.length);
      t.boxes[0].box[2] = t.boxes[0].box[0];
    });
    expectOneLineError(frames3(d), /eval\/episodes\.jsonl:3: turns\[\d+\]\.boxes\[0\]\.box: expected \[x0, y0, x1, y1\] with x0 < x1 and y0 < y1, got \[/);
  });

  it("a view outside the image", () => {
    const d = withRecord(2, (r) => (r.turns[1].view_after[2] = 10000.0));
    expectOneLineError(frames3(d), /eval\/episodes\.jsonl:3: turns\[1\]\.view_after: expected a view inside the 512x512 image, got \[0, 0, 10000, 512\]/);
  });

  it("an unknown env", () => {
    const d = withRecord(0, (r) => (r.env = "boxes-v2"));
    expectOneLineError(
      frames3(d),
      /eval\/episodes\.jsonl:1: env: expected one of "geoguesser", "crops" \(or no env: a GeoGuesser record\), got string "boxes-v2"/,
    );
  });
});

describe("report on bad crops input", () => {
  it("an unknown env on the first record is named, not read as a GeoGuesser run", () => {
    const d = withRecord(0, (r) => (r.env = "boxes-v2"));
    expectOneLineError(
      runCli(["report", join(d, "eval")]),
      /eval\/episodes\.jsonl:1: env: expected one of "geoguesser", "crops" \(or no env: a GeoGuesser record\), got string "boxes-v2"/,
    );
  });

  it("an unknown env on a later record", () => {
    const d = withRecord(5, (r) => (r.env = "boxes-v2"));
    expectOneLineError(runCli(["report", join(d, "eval")]), /eval\/episodes\.jsonl:6: env: expected "crops".*got string "boxes-v2"/);
  });
});
