/**
 * `georeplay groups` on crops rollouts, through the real CLI (dist/): groups by the recorded
 * group_id, checks every recorded advantage against r - mean (a difference is a finding naming
 * file:line, exit 1), and refuses a record of an unknown env in one line (exit 2).
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIXTURES, runCli } from "../helpers.ts";

const SAMPLE = join(FIXTURES, "crops", "sample");
const TRAIN = join(SAMPLE, "train");
const lines = (f: string) => readFileSync(f, "utf8").split("\n").filter(Boolean);

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "georeplay-crops-groups-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A copy of the sample's train run with its records passed through `edit`; returns the rollouts file. */
function altered(name: string, edit: (records: Record<string, any>[]) => void): string {
  const d = join(dir, name);
  cpSync(TRAIN, d, { recursive: true });
  const file = join(d, "rollouts.jsonl");
  const recs = lines(file).map((l) => JSON.parse(l));
  edit(recs);
  writeFileSync(file, recs.map((r) => JSON.stringify(r)).join("\n") + "\n");
  return file;
}

describe("groups on crops rollouts", () => {
  it("groups by the recorded group_id; every recorded advantage equals r - mean; exit 0", () => {
    const r = runCli(["groups", TRAIN]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("run train · 3 steps · 6 groups · 36 rollouts");
    expect(r.stdout).toContain("recorded advantages: 36/36 equal r - mean exactly");
    const j = JSON.parse(runCli(["groups", TRAIN, "--json"]).stdout);
    expect(j.recorded_advantages).toEqual({ checked: 36, ok: 36, findings: [] });
    const recs = lines(join(TRAIN, "rollouts.jsonl")).map((l) => JSON.parse(l));
    expect(j.groups.map((g: { group_id: string }) => g.group_id).sort()).toEqual([...new Set(recs.map((x) => x.group_id))].sort());
    // The format's worked example: group train/step-000/train-000's mean and advantages.
    const g0 = j.groups.find((g: { group_id: string }) => g.group_id === "train/step-000/train-000");
    expect(g0.mean).toBe(0.6340274742171667);
  });

  it("one altered advantage is one finding naming file:line, recorded and recomputed; exit 1", () => {
    let line = 0;
    let recomputed = 0;
    const file = altered("one", (recs) => {
      const i = recs.findIndex((x) => x.sibling === 2);
      line = i + 1;
      recomputed = recs[i].outcome.advantage;
      recs[i].outcome.advantage += 1e-9;
    });
    const r = runCli(["groups", file]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toContain("recorded advantages: 35/36 equal r - mean exactly");
    const mismatch = r.stdout.split("\n").filter((l) => l.startsWith("MISMATCH"));
    expect(mismatch).toHaveLength(1);
    expect(mismatch[0]).toMatch(
      new RegExp(`^MISMATCH advantage group train/step-000/train-\\d{3} sibling 2: recorded .* recomputed ${recomputed}.*\\(${file}:${line}\\)$`),
    );
    expect(r.stdout).toContain("DRIFT: 1 recorded advantage(s) differ");

    const j = runCli(["groups", file, "--json"]);
    expect(j.code).toBe(1);
    const report = JSON.parse(j.stdout);
    expect(report.recorded_advantages.checked).toBe(36);
    expect(report.recorded_advantages.findings).toEqual([
      expect.objectContaining({ file, line, sibling: 2, recorded: recomputed + 1e-9, recomputed, group_id: expect.stringMatching(/^train\/step-000\//) }),
    ]);
    // The report still validates against the published schema.
    const schema = JSON.parse(runCli(["schema", "groups"]).stdout);
    const validate = new Ajv2020({ strict: false, allErrors: true }).compile(schema);
    expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
  });

  it("rollouts that record no advantage are not checked (GeoGuesser's runs): no line, zeros, exit 0", () => {
    const file = altered("none", (recs) => recs.forEach((x) => delete x.outcome.advantage));
    const r = runCli(["groups", file]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain("recorded advantages");
    expect(JSON.parse(runCli(["groups", file, "--json"]).stdout).recorded_advantages).toEqual({ checked: 0, ok: 0, findings: [] });
  });

  it("a record of an unknown env: one line naming file, line and field, exit 2, nothing on stdout", () => {
    const file = altered("env", (recs) => (recs[4].env = "boxes-v2"));
    const r = runCli(["groups", file]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain(`${file}:5: env: expected one of "geoguesser", "crops" (or no env: a GeoGuesser record), got string "boxes-v2"`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
