/**
 * `georeplay verify` on crops runs, through the real CLI (dist/): the sample's eval and train
 * runs verify clean with the counts its README gives, the corrupted copy is caught exactly as
 * corrupted.json lists (nothing else), findings name their kind, and bad input is one line,
 * exit 2, no stack.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIXTURES, runCli, type CliResult } from "../helpers.ts";

const SAMPLE = join(FIXTURES, "crops", "sample");
const json = (r: CliResult) => JSON.parse(r.stdout);
const lines = (f: string) => readFileSync(f, "utf8").split("\n").filter(Boolean);

function expectOneLineError(r: CliResult, text: string | RegExp): void {
  expect(r.code).toBe(2);
  expect(r.stdout).toBe("");
  expect(r.stderr.trim().split("\n")).toHaveLength(1);
  expect(r.stderr).toMatch(text);
  expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
  expect(r.stderr).not.toContain("internal error");
}

describe("verify on the crops sample", () => {
  it("eval: 24 episodes, 183 views and thumbnails match, 87/87 box mappings, 24/24 outcomes, exit 0", () => {
    const r = runCli(["verify", join(SAMPLE, "eval"), "--json"]);
    expect(r.code).toBe(0);
    const j = json(r);
    expect(j).toMatchObject({ env: "crops", episodes: 24, checked: 183, match: 183, mismatch: 0, mismatches: [] });
    expect(j.counts).toEqual({
      thumbnails: { checked: 183, ok: 183 },
      box_mappings: { checked: 87, ok: 87 },
      transitions: { checked: 183, ok: 183 },
      shaping: { checked: 159, ok: 159 },
      outcomes: { checked: 24, ok: 24 },
      advantages: { checked: 0, ok: 0 },
    });
  });

  it("train: 36 rollouts, 267 views and thumbnails, 141/141 mappings, 36/36 outcomes and advantages, 6 groups start alike", () => {
    const r = runCli(["verify", join(SAMPLE, "train", "rollouts.jsonl"), "--dataset", SAMPLE]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("36 episodes · 267 view turns checked · 267 match · 0 mismatch");
    expect(r.stdout).toContain("thumbnails 267/267 · box mappings 141/141 · transitions 267/267 · shaping 231/231 · outcomes 36/36 · advantages 36/36");
    expect(r.stdout).toContain("6 GRPO group(s) of two or more rollouts: every sibling starts from the same first view");
    expect(r.stdout).toContain("every view turn reproduces byte-for-byte");
  });

  it("eval-corrupted: exactly corrupted.json's 2 views and 1 box mapping, nothing else, exit 1", () => {
    const r = runCli(["verify", join(SAMPLE, "eval-corrupted"), "--json"]);
    expect(r.code).toBe(1);
    const j = json(r);
    const listed = JSON.parse(readFileSync(join(SAMPLE, "eval-corrupted", "corrupted.json"), "utf8"));
    const kindOf = (k: string) => (k === "view_hash" ? "view" : k);
    const key = (x: { episode_id: string; turn: number; kind: string; line: number }) => `${x.episode_id}/${x.turn}/${kindOf(x.kind)}/${x.line}`;
    expect(j.mismatches.map(key).sort()).toEqual(listed.map(key).sort());
    for (const c of listed.filter((x: { kind: string }) => x.kind === "view_hash")) {
      const m = j.mismatches.find((x: { episode_id: string }) => x.episode_id === c.episode_id);
      expect([m.recorded, m.rendered]).toEqual([c.recorded, c.true]);
    }
    expect(j).toMatchObject({ checked: 183, match: 181, mismatch: 2 });
    expect(j.counts.box_mappings).toEqual({ checked: 89, ok: 88 });
    expect(j.counts.thumbnails).toEqual({ checked: 183, ok: 183 });
    expect(j.counts.outcomes).toEqual({ checked: 24, ok: 24 });
    // The text report names each finding's kind, place and both hashes.
    const t = runCli(["verify", join(SAMPLE, "eval-corrupted", "episodes.jsonl")]);
    expect(t.code).toBe(1);
    expect(t.stdout).toContain(`MISMATCH view episode 42d863f6a923 turn 4 · task eval/1`);
    expect(t.stdout).toContain(listed[0].true);
    expect(t.stdout).toMatch(/MISMATCH box_mapping episode 0ecee27e99d2 turn 2 .*episodes\.jsonl:11\)/);
    expect(t.stdout).toContain("DRIFT: 2 view, 1 box_mapping");
  });

  it("--shard and --limit split the records; the shards add up", () => {
    const a = json(runCli(["verify", join(SAMPLE, "eval"), "--json", "--shard", "1/2"]));
    const b = json(runCli(["verify", join(SAMPLE, "eval"), "--json", "--shard", "2/2"]));
    expect([a.episodes, b.episodes]).toEqual([12, 12]);
    expect(a.checked + b.checked).toBe(183);
    expect(a.skipped.other_shards).toBe(12);
    const l = json(runCli(["verify", join(SAMPLE, "train"), "--json", "--limit", "5"]));
    expect(l.episodes).toBe(5);
    expect(l.counts.advantages).toEqual({ checked: 5, ok: 5 }); // groups are still read whole
  });
});

describe("verify on altered crops runs", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "georeplay-crops-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** A copy of the sample with the run file's records passed through `edit` (by 0-based index). */
  function altered(name: string, run: string, edit: (records: Record<string, any>[]) => void): string {
    const d = join(dir, name);
    cpSync(SAMPLE, d, { recursive: true });
    const file = join(d, run, run === "train" ? "rollouts.jsonl" : "episodes.jsonl");
    const recs = lines(file).map((l) => JSON.parse(l));
    edit(recs);
    writeFileSync(file, recs.map((r) => JSON.stringify(r)).join("\n") + "\n");
    return d;
  }

  it("a wrong advantage is one `advantage` finding; a sibling with another first view is one `group_start` finding", () => {
    const d = altered("grpo", "train", (recs) => {
      recs[1].outcome.advantage += 1e-9;
      const other = recs.find((r) => r.group_id === recs[0].group_id && r.sibling === 3)!;
      other.turns[0].thumb_sha256 = "0".repeat(64);
    });
    const j = json(runCli(["verify", join(d, "train"), "--json"]));
    const kinds = j.mismatches.map((m: { kind: string; turn: number | null }) => `${m.kind}@${m.turn}`).sort();
    // The altered thumbnail is also a `thumb` finding of its own turn.
    expect(kinds).toEqual(["advantage@null", "group_start@0", "thumb@0"]);
    expect(j.group_starts.failures).toHaveLength(1);
  });

  it("a wrong score is one `outcome` finding; a wrong shaping reward one `shaping` finding; nothing repeats on later turns", () => {
    const d = altered("outcome", "eval", (recs) => {
      recs[0].outcome.score += 0.25;
      recs[2].turns[2].shaping.reward = 0.5;
    });
    const j = json(runCli(["verify", join(d, "eval"), "--json"]));
    expect(j.mismatches.map((m: { kind: string; line: number }) => `${m.kind}:${m.line}`)).toEqual(["outcome:1", "shaping:3", "outcome:3"]);
  });
});

describe("bad crops input: one line naming file, line and field, exit 2", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "georeplay-crops-bad-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let n = 0;
  const copy = () => {
    const d = join(dir, `c${n++}`);
    cpSync(SAMPLE, d, { recursive: true });
    return d;
  };
  const editRecord = (d: string, index: number, edit: (r: Record<string, any>) => void) => {
    const f = join(d, "eval", "episodes.jsonl");
    const ls = lines(f);
    const r = JSON.parse(ls[index]);
    edit(r);
    ls[index] = JSON.stringify(r);
    writeFileSync(f, ls.join("\n") + "\n");
  };

  it("a missing image file", () => {
    const d = copy();
    unlinkSync(join(d, "images", "sk-coins.png"));
    expectOneLineError(
      runCli(["verify", join(d, "eval")]),
      /eval\/episodes\.jsonl:7: task\.image_id: expected the image .*sk-coins\.png \(.*tasks\.jsonl:2\), got no such file/,
    );
  });

  it("tasks.jsonl without the episode's task", () => {
    const d = copy();
    writeFileSync(
      join(d, "tasks.jsonl"),
      lines(join(d, "tasks.jsonl"))
        .filter((l) => !l.startsWith('{"task_index": 1, "split": "eval"'))
        .join("\n") + "\n",
    );
    expectOneLineError(
      runCli(["verify", join(d, "eval")]),
      /eval\/episodes\.jsonl:7: task: expected a row of .*tasks\.jsonl with split "eval" and task_index 1, got none/,
    );
  });

  it("a box with x0 >= x1", () => {
    const d = copy();
    editRecord(d, 2, (r) => (r.turns[2].boxes[0].box[2] = r.turns[2].boxes[0].box[0]));
    expectOneLineError(
      runCli(["verify", join(d, "eval")]),
      /eval\/episodes\.jsonl:3: turns\[2\]\.boxes\[0\]\.box: expected \[x0, y0, x1, y1\] with x0 < x1 and y0 < y1, got \[/,
    );
  });

  it("a view outside the image", () => {
    const d = copy();
    editRecord(d, 3, (r) => (r.turns[1].view_after[2] = 10000.0));
    expectOneLineError(
      runCli(["verify", join(d, "eval")]),
      /eval\/episodes\.jsonl:4: turns\[1\]\.view_after: expected a view inside the 512x512 image, got \[0, 0, 10000, 512\]/,
    );
  });

  it("an unknown env value (first record, or a later one)", () => {
    const d = copy();
    editRecord(d, 0, (r) => (r.env = "boxes-v2"));
    expectOneLineError(
      runCli(["verify", join(d, "eval")]),
      /eval\/episodes\.jsonl:1: env: expected one of "geoguesser", "crops" \(or no env: a GeoGuesser record\), got string "boxes-v2"/,
    );
    const e = copy();
    editRecord(e, 5, (r) => (r.env = "boxes-v2"));
    expectOneLineError(runCli(["verify", join(e, "eval")]), /eval\/episodes\.jsonl:6: env: expected "crops"/);
  });

  it("a dataset folder without tasks.jsonl", () => {
    expectOneLineError(runCli(["verify", join(SAMPLE, "eval"), "--dataset", join(SAMPLE, "images")]), /--dataset .*images: no tasks\.jsonl in this folder/);
  });
});
