/**
 * `georeplay report` on crops runs: the numbers are recomputed here from the records with plain
 * arithmetic (means over tasks of per-task means, pooled matches), and the paired section from
 * the per-task differences, so the CLI is checked against the definitions, not against itself.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FIXTURES, runCli } from "../helpers.ts";

const EVAL = join(FIXTURES, "crops", "sample", "eval", "episodes.jsonl");
const rows = readFileSync(EVAL, "utf8")
  .split("\n")
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l));
const tmp = mkdtempSync(join(tmpdir(), "gr-crops-report-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
const byTask = (rs: any[]) => {
  const m = new Map<string, number[]>();
  for (const r of rs) m.set(`${r.task.split}/${r.task.index}`, [...(m.get(`${r.task.split}/${r.task.index}`) ?? []), r.outcome.score]);
  return m;
};

describe("report on a crops run", () => {
  it("reads a training run's folder (its rollouts.jsonl) as it reads the file", () => {
    const dir = join(FIXTURES, "crops", "sample", "train");
    const byFolder = runCli(["report", dir, "--json"]);
    expect(byFolder.stderr).toBe("");
    expect(byFolder.code).toBe(0);
    const byFile = runCli(["report", join(dir, "rollouts.jsonl"), "--json"]);
    const rollouts = readFileSync(join(dir, "rollouts.jsonl"), "utf8")
      .split("\n")
      .filter((l) => l.trim()).length;
    expect(JSON.parse(byFolder.stdout).episodes).toBe(rollouts);
    expect(JSON.parse(byFolder.stdout).arms).toEqual(JSON.parse(byFile.stdout).arms);
  });

  it("ranks by mean-of-k of the recorded score and explains it by the score's parts", () => {
    const r = runCli(["report", EVAL, "--json"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const rep = JSON.parse(r.stdout);
    expect(rep.env).toBe("crops");
    expect(rep.episodes).toBe(rows.length);
    const [arm] = rep.arms;
    const tasks = byTask(rows);
    expect(arm.tasks).toBe(tasks.size);
    expect(arm.k).toBeCloseTo(rows.length / tasks.size, 12);
    expect(arm.mean_of_k).toBeCloseTo(mean([...tasks.values()].map(mean)), 12);
    expect(arm.best_of_k).toBeCloseTo(mean([...tasks.values()].map((v) => Math.max(...v))), 12);
    expect(arm.recall_term).toBeCloseTo(mean(rows.map((x) => x.outcome.parts.recall_term)), 12);
    expect(arm.precision_factor).toBeCloseTo(mean(rows.map((x) => x.outcome.parts.precision_factor)), 12);
    const matches = rows.flatMap((x) => x.outcome.matches);
    expect(matches.length).toBeGreaterThan(10);
    expect(arm.label_accuracy).toBeCloseTo(matches.filter((m) => m.label_ok).length / matches.length, 12);
    expect(arm.mean_credit).toBeCloseTo(mean(matches.map((m) => m.credit)), 12);
    expect(arm.misses_per_image).toBeCloseTo(mean(rows.map((x) => x.outcome.parts.n_missed)), 12);
    expect(arm.false_alarms_per_image).toBeCloseTo(mean(rows.map((x) => x.outcome.parts.n_false_alarms)), 12);
    expect(rep.paired).toBeNull();

    const text = runCli(["report", EVAL]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`${rows.length} episodes over 1 arm(s)`);
    expect(text.stdout).toMatch(/recall +precision +credit +label% +boxes +misses +f\.alarms/);
    expect(text.stdout).toContain(arm.mean_of_k.toFixed(4));
  });

  it("pairs arms against --baseline on shared tasks, with geoeval's delta, SE and verdict", () => {
    // Two arms from one run: attempts 0-2 are "early", 3-5 "late"; an unscored record is counted apart.
    const split = rows.map((x) => ({ ...x, model_name: x.task.sample < 3 ? "early" : "late" }));
    const unscored = { ...rows[0], model_name: "late", episode_id: "ffffffffffff", outcome: null };
    const file = join(tmp, "two-arms.jsonl");
    writeFileSync(file, [...split, unscored].map((x) => JSON.stringify(x)).join("\n") + "\n");
    const r = runCli(["report", file, "--baseline", "early", "--json"]);
    expect(r.code).toBe(0);
    const rep = JSON.parse(r.stdout);
    expect(rep.unscored).toBe(1);
    expect(rep.unscored_by_arm).toEqual([{ arm: "late", episodes: 1 }]);
    const early = byTask(split.filter((x) => x.model_name === "early"));
    const late = byTask(split.filter((x) => x.model_name === "late"));
    const diffs = [...late].map(([t, v]) => mean(v) - mean(early.get(t)!));
    const delta = mean(diffs);
    const se = Math.sqrt(diffs.reduce((s, d) => s + (d - delta) ** 2, 0) / (diffs.length - 1)) / Math.sqrt(diffs.length);
    const [c] = rep.paired.comparisons;
    expect(rep.paired.baseline).toBe("early");
    expect(c.arm).toBe("late");
    expect(c.n).toBe(diffs.length);
    expect(c.delta).toBeCloseTo(delta, 12);
    expect(c.se).toBeCloseTo(se, 12);
    expect(c.better_on).toBe(diffs.filter((d) => d > 0).length);
    expect(c.significant).toBe(Math.abs(delta) > 1.96 * se);
    const text = runCli(["report", file, "--baseline", "early"]);
    expect(text.stdout).toContain("paired against 'early', tasks both arms attempted:");
    expect(text.stdout).toContain(`better on ${c.better_on}/${c.n} tasks`);
    expect(text.stdout).toContain("note: 1 unscored episode(s) counted apart");
  });

  it("names a missing baseline and a bad field by file, line and field (exit 2, one line, nothing on stdout)", () => {
    const missing = runCli(["report", EVAL, "--baseline", "nope"]);
    expect(missing.code).toBe(2);
    expect(missing.stdout).toBe("");
    expect(missing.stderr.trim()).toBe("georeplay: --baseline nope: no arm of that name on this board (arms: scripted-vlm)");
    const bad = join(tmp, "bad.jsonl");
    const broken = { ...rows[1], outcome: { ...rows[1].outcome, score: "high" } };
    writeFileSync(bad, [rows[0], broken].map((x) => JSON.stringify(x)).join("\n") + "\n");
    const r = runCli(["report", bad]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(`georeplay: ${bad}:2: outcome.score: expected a number, got string "high"`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it("names a torn line by file and line and reports the other rows, exit 2 (as verify and GeoGuesser's report)", () => {
    const file = join(tmp, "torn.jsonl");
    writeFileSync(file, rows.map((x) => JSON.stringify(x)).join("\n") + "\n" + JSON.stringify(rows[0]).slice(0, 80));
    const r = runCli(["report", file, "--json"]);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).episodes).toBe(rows.length);
    expect(r.stderr).toContain(`${file}:${rows.length + 1}: not valid JSON, skipped (the last line looks truncated: was the file still being written?)`);
  });
});
