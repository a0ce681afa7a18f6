/** Every recording the environment writes, through `georeplay verify`: training traces, example-rollout folders, sweeps. */
import { describe, expect, it } from "vitest";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli, FIXTURES, MIXED } from "../helpers.ts";

const TRAIN = join(FIXTURES, "train-rollouts.jsonl");
const EXAMPLE = join(FIXTURES, "example-rollout");
const SWEEP = join(FIXTURES, "sweep");
const replay = ["--tasks", join(MIXED, "tasks.jsonl"), "--panos", join(MIXED, "panos")];

describe("training traces (GRPO rollouts)", () => {
  it("verifies base64-text hashes: 69 of 70 views match, the corrupted one mismatches", () => {
    const r = runCli(["verify", TRAIN, ...replay, "--json"]);
    expect(r.code).toBe(1);
    const rep = JSON.parse(r.stdout);
    expect(rep).toMatchObject({ episodes: 10, checked: 70, match: 69, mismatch: 1, formats: { eval: 0, train: 10, example: 0 } });
    const corrupted: { line: number; turn: number }[] = JSON.parse(readFileSync(join(FIXTURES, "train-rollouts.corrupted.json"), "utf8"));
    expect(rep.mismatches.map((m: any) => ({ line: m.line, turn: m.turn }))).toEqual(corrupted);
    expect(rep.mismatches[0].recorded).toMatch(/^[0-9a-f]{16}$/);
  });

  it("a training hash of the wrong length is a schema error naming the field", () => {
    const dir = mkdtempSync(join(tmpdir(), "georeplay-fmt-"));
    try {
      const row = JSON.parse(readFileSync(TRAIN, "utf8").split("\n")[0]);
      row.turns[0].image_sha256 = "a".repeat(64);
      writeFileSync(join(dir, "rollouts-rank0.jsonl"), JSON.stringify(row) + "\n");
      const r = runCli(["verify", join(dir, "rollouts-rank0.jsonl"), ...replay]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain("rollouts-rank0.jsonl:1: turns[0].image_sha256: expected 16 hex digits (training traces hash the base64 text)");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  it("a training run's folder reads every rank's rollouts*.jsonl in it, in name order, and nothing else", () => {
    const dir = mkdtempSync(join(tmpdir(), "georeplay-fmt-"));
    try {
      const lines = readFileSync(TRAIN, "utf8").split("\n").filter(Boolean);
      writeFileSync(join(dir, "rollouts-rank1.jsonl"), lines.slice(5).join("\n") + "\n");
      writeFileSync(join(dir, "rollouts-rank0.jsonl"), lines.slice(0, 5).join("\n") + "\n");
      writeFileSync(join(dir, "notes.jsonl"), "not a rollout\n");
      const r = runCli(["verify", dir, ...replay, "--json"]);
      expect(r.code, r.stderr).toBe(1);
      const rep = JSON.parse(r.stdout);
      expect(rep).toMatchObject({ episodes: 10, checked: 70, match: 69, mismatch: 1, formats: { eval: 0, train: 10, example: 0 } });
      const corrupted: { line: number }[] = JSON.parse(readFileSync(join(FIXTURES, "train-rollouts.corrupted.json"), "utf8"));
      const rank = (line: number) => (line <= 5 ? { file: "rollouts-rank0.jsonl", line } : { file: "rollouts-rank1.jsonl", line: line - 5 });
      expect(rep.mismatches.map((m: any) => ({ file: m.file.split("/").pop(), line: m.line }))).toEqual(corrupted.map((c) => rank(c.line)));

      const asEval = runCli(["verify", dir, ...replay, "--format", "eval"]);
      expect(asEval.code).toBe(2);
      expect(asEval.stderr).toContain("is a directory; --format eval expects a file");
      const empty = join(dir, "empty");
      mkdirSync(empty);
      const none = runCli(["verify", empty, ...replay, "--format", "train"]);
      expect(none.code).toBe(2);
      expect(none.stderr).toContain("is a directory without rollouts*.jsonl files");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("example-rollout folders", () => {
  it("says there are no hashes and checks every referenced image exists and decodes", () => {
    const r = runCli(["verify", EXAMPLE]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("example-rollout folders carry no hashes (their images are the record): 88 of 88 referenced images exist and decode");
    expect(r.stderr).toContain("a later episode of task 0 overwrote this episode's image files");
  });

  it("a missing or broken image is reported with its turn, exit 2", () => {
    const dir = mkdtempSync(join(tmpdir(), "georeplay-fmt-"));
    try {
      cpSync(EXAMPLE, join(dir, "ex"), { recursive: true });
      unlinkSync(join(dir, "ex", "images", "t004_turn03.jpg"));
      writeFileSync(join(dir, "ex", "images", "t004_turn05.jpg"), "not a jpeg");
      const r = runCli(["verify", join(dir, "ex")]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/turn 3: recorded image .*t004_turn03\.jpg: missing/);
      expect(r.stderr).toMatch(/turn 5: recorded image .*t004_turn05\.jpg: /);
      expect(r.stdout).toContain("86 of 88 referenced images exist and decode");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("pass@k sweeps", () => {
  it("reads every **/episodes.jsonl, skipping _quarantined/", () => {
    const dir = mkdtempSync(join(tmpdir(), "georeplay-fmt-"));
    try {
      cpSync(SWEEP, join(dir, "sweep"), { recursive: true });
      mkdirSync(join(dir, "sweep", "_quarantined", "pass-9", "shard-0"), { recursive: true });
      writeFileSync(join(dir, "sweep", "_quarantined", "pass-9", "shard-0", "episodes.jsonl"), "garbage\n");
      const r = runCli(["verify", join(dir, "sweep"), ...replay, "--json"]);
      const rep = JSON.parse(r.stdout);
      // 3 passes x 10 episodes; each pass carries mixed's two deliberately corrupted hashes.
      expect(rep).toMatchObject({ episodes: 30, checked: 228, match: 222, mismatch: 6, errors: [] });
      expect(r.code).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("format detection", () => {
  it("a file that matches no format says which fields ruled out which format", () => {
    const dir = mkdtempSync(join(tmpdir(), "georeplay-fmt-"));
    try {
      writeFileSync(join(dir, "what.jsonl"), JSON.stringify({ id: 1, frames: [] }) + "\n");
      const r = runCli(["verify", join(dir, "what.jsonl"), ...replay]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain("what.jsonl:1: matches no recording format georeplay reads");
      expect(r.stderr).toContain("GRPO training rollout: missing run, step, turns");
      expect(r.stderr).toContain("example-rollout trace: missing trace, task_index");
      expect(r.stderr).toContain("fields present: id, frames");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("--format overrides detection (a training file read as eval is invalid line by line)", () => {
    const r = runCli(["verify", TRAIN, ...replay, "--format", "eval"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("train-rollouts.jsonl:1: schema_version: expected 2, got nothing (field missing)");
  });

  it("a run with its tasks.jsonl and panos/ beside it needs no flags, and says what it took", () => {
    const r = runCli(["verify", join(MIXED, "episodes.jsonl"), "--json"]);
    expect(JSON.parse(r.stdout)).toMatchObject({ episodes: 10, mismatch: 2 });
    expect(r.stderr).toContain(`georeplay: using --tasks ${join(MIXED, "tasks.jsonl")} and --panos ${join(MIXED, "panos")} (found beside the run`);
  });

  it("example folders need no --tasks/--panos, but replayable inputs do", () => {
    const r = runCli(["verify", TRAIN]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--tasks and --panos are needed to re-render eval and training episodes");
  });
});
