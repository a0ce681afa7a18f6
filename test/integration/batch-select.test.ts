/**
 * Batch selections and shards, through the built CLI (--dry-run plans without rendering):
 * --improved/--regressed pick exactly the tasks report --json's deltas rank first (ties in
 * the report's order), shards cover every selected video exactly once, names are safe.
 */
import { describe, expect, it, beforeAll } from "vitest";
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli, MIXED, FIXTURES } from "../helpers.ts";
import { assignShards } from "../../envs/geoguesser/replay/batch/shard.ts";
import { takeShard } from "../../replay/batch/shard.ts";
import { rankTasksByDelta } from "../../envs/geoguesser/replay/batch/select.ts";
import { uniqueStems, videoStem } from "../../envs/geoguesser/replay/batch/names.ts";
import type { Report } from "../../envs/geoguesser/replay/board/report-schema.ts";

const lines = (text: string) =>
  text
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));

/**
 * A two-arm board from the mixed fixture's real episodes, with outcomes chosen so that
 * ckpt's deltas tie across tasks (straddling the top-3 and bottom-2 cut-offs).
 * distance_km per task: base, ckpt (cost 0 everywhere; the reward is recomputed from them).
 */
const DISTANCES: [number, number][] = [
  [2000, 100], // task 0: the largest delta
  [2000, 900], // task 1: tied ...
  [500, 500], // task 2: delta 0
  [2000, 900], // task 3: ... tied (with 1 and 4)
  [2000, 900], // task 4: tied, falls past --improved 3
  [100, 3000], // task 5: regressed, tied with 6
  [100, 3000], // task 6
];

function makeBoard(): string {
  const dir = mkdtempSync(join(tmpdir(), "georeplay-batch-board-"));
  const src = readFileSync(join(MIXED, "episodes.jsonl"), "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l))
    .filter((e) => Array.isArray(e.turns));
  for (const [arm, side] of [
    ["base", 0],
    ["ckpt", 1],
  ] as const) {
    mkdirSync(join(dir, arm));
    const rows = DISTANCES.map((d, index) => {
      const e = structuredClone(src[(index + side) % src.length]);
      e.episode_id = `${arm}-${index}`;
      e.model_name = arm;
      e.task = { ...e.task, index, sample: 0 };
      e.outcome = { ...e.outcome, distance_km: d[side], action_cost: 0, reward: 0.5 };
      return JSON.stringify(e);
    });
    writeFileSync(join(dir, arm, "episodes.jsonl"), rows.join("\n") + "\n");
  }
  return dir;
}

describe("batch selection by paired delta", () => {
  let board: string;
  let report: Report;
  beforeAll(() => {
    board = makeBoard();
    const r = runCli(["report", join(board, "base"), join(board, "ckpt"), "--baseline", "base", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    report = JSON.parse(r.stdout);
  });

  /** The README's former jq: map each task to ckpt's delta, drop nulls, sort (stable) by -delta. */
  const expected = (dir: "improved" | "regressed", n: number) =>
    report.tasks
      .map((t) => ({ index: t.index, delta: t.arms.find((a) => a.arm === "ckpt")?.delta ?? null }))
      .filter((t) => t.delta !== null)
      .sort((a, b) => (dir === "improved" ? b.delta! - a.delta! : a.delta! - b.delta!))
      .slice(0, n);

  const plan = (...sel: string[]) => {
    const r = runCli([
      "render",
      join(board, "base"),
      join(board, "ckpt"),
      ...sel,
      "--arm",
      "ckpt",
      "--baseline",
      "base",
      "--dry-run",
      "--json",
      "-o",
      join(board, "out/"),
    ]);
    expect(r.code, r.stderr).toBe(0);
    return lines(r.stdout).filter((l) => l.type === "plan");
  };

  it("the fixture really has ties across the cut-offs", () => {
    const d = expected("improved", 7).map((t) => t.delta);
    expect(d[1]).toBe(d[2]);
    expect(d[2]).toBe(d[3]);
    const r = expected("regressed", 2).map((t) => t.delta);
    expect(r[0]).toBe(r[1]);
  });

  it("--improved 3 picks report --json's top three deltas, ties in the report's order", () => {
    const got = plan("--improved", "3");
    const want = expected("improved", 3);
    expect(got.map((p) => p.task)).toEqual(want.map((t) => ({ index: t.index, delta: t.delta })));
    expect(got.map((p) => p.task.index)).toEqual([0, 1, 3]);
    // Two-up: the baseline's attempt (A) beside the arm's (B) at that task, named split-index-A-vs-B.
    for (const p of got) {
      expect(p.kind).toBe("compare");
      expect(p.arms).toEqual(["base", "ckpt"]);
      expect(p.episode_ids).toEqual([`base-${p.task.index}`, `ckpt-${p.task.index}`]);
      expect(p.file).toBe(`eval-${p.task.index}-base-vs-ckpt.mp4`);
    }
  });

  it("--regressed 2 picks the two smallest deltas, tied, in task order", () => {
    const got = plan("--regressed", "2");
    expect(got.map((p) => p.task.index)).toEqual(expected("regressed", 2).map((t) => t.index));
    expect(got.map((p) => p.task.index)).toEqual([5, 6]);
  });

  it("rankTasksByDelta is report order for equal deltas", () => {
    expect(rankTasksByDelta(report, "ckpt", "improved").map((t) => t.index)).toEqual(expected("improved", 99).map((t) => t.index));
  });

  it("an unknown arm is an input error listing the arms", () => {
    const r = runCli(["render", join(board, "base"), join(board, "ckpt"), "--improved", "2", "--arm", "nope", "--dry-run", "-o", join(board, "o/")]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--arm "nope"');
    expect(r.stderr).toContain('"ckpt"');
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});

describe("batch shards", () => {
  const args = (...more: string[]) => [
    "render",
    join(MIXED, "episodes.jsonl"),
    "--all",
    "--fps",
    "6",
    "--tasks",
    join(MIXED, "tasks.jsonl"),
    "--panos",
    join(MIXED, "panos"),
    "--dry-run",
    "--json",
    "-o",
    "/tmp/unused/",
    ...more,
  ];

  it("shards 1/3, 2/3, 3/3 together plan each selected video exactly once, balanced by frames", () => {
    const all = lines(runCli(args()).stdout).filter((l) => l.type === "plan");
    expect(all).toHaveLength(10);
    const shards = [1, 2, 3].map((i) => lines(runCli(args("--shard", `${i}/3`)).stdout).filter((l) => l.type === "plan"));
    const files = shards.flat().map((p) => p.file);
    expect([...files].sort()).toEqual(all.map((p) => p.file).sort());
    expect(new Set(files).size).toBe(files.length);
    const loads = shards.map((s) => s.reduce((n, p) => n + p.frames, 0));
    const longest = Math.max(...all.map((p) => p.frames));
    expect(Math.max(...loads) - Math.min(...loads)).toBeLessThanOrEqual(longest);
    // The same split every time (and on every machine: it depends on names and frame counts only).
    expect(lines(runCli(args("--shard", "2/3")).stdout).filter((l) => l.type === "plan")).toEqual(shards[1]);
  });

  it("assignShards: every item once, deterministic, greedy by frames", () => {
    const items = Array.from({ length: 25 }, (_, i) => ({ stem: `v${i}`, frames: ((i * 37) % 11) * 100 + 50 }));
    const a = assignShards(items, 4);
    expect(a).toEqual(assignShards(items, 4));
    expect(new Set(a)).toEqual(new Set([0, 1, 2, 3]));
    const loads = [0, 1, 2, 3].map((s) => items.filter((_, i) => a[i] === s).reduce((n, it) => n + it.frames, 0));
    expect(Math.max(...loads) - Math.min(...loads)).toBeLessThanOrEqual(1050);
    // Input order does not matter.
    const rev = [...items].reverse();
    const b = assignShards(rev, 4);
    expect(rev.map((it, i) => [it.stem, b[i]]).sort()).toEqual(items.map((it, i) => [it.stem, a[i]]).sort());
  });

  it("takeShard: each shard's items in input order, every item in exactly one; no shard is all of them", () => {
    const items = Array.from({ length: 9 }, (_, i) => ({ stem: `v${i}`, frames: (i % 4) * 10 + 5 }));
    const a = assignShards(items, 3);
    const parts = [1, 2, 3].map((index) => takeShard(items, { index, count: 3 }));
    for (const [k, p] of parts.entries()) {
      expect(p.shards).toEqual(a);
      expect(p.mine).toEqual(items.filter((_, i) => a[i] === k));
    }
    expect(parts.flatMap((p) => p.mine.map((it) => it.stem)).sort()).toEqual(items.map((it) => it.stem).sort());
    expect(takeShard(items, null)).toEqual({ shards: items.map(() => 0), mine: items });
  });
});

describe("batch names", () => {
  it("trace text never becomes a path", () => {
    expect(videoStem({ kind: "compare", split: "../eval", index: 3, a: "Zürich/模型", b: "..\\ckpt 200" })).toBe("eval-3-Z-rich-vs-ckpt-200");
    expect(videoStem({ kind: "rollout", episodeId: "../../etc/passwd" })).toBe("etc-passwd");
    expect(uniqueStems(["a", "A", "a", "b"])).toEqual(["a", "A-2", "a-3", "b"]);
  });

  it("the sample board's arms fixture names its two-up videos by task and arms", () => {
    const arms = join(FIXTURES, "arms");
    const r = runCli(["render", join(arms, "base"), join(arms, "ckpt200"), "--improved", "1", "--arm", "ckpt200", "--dry-run", "--json", "-o", "/tmp/unused/"]);
    expect(r.code, r.stderr).toBe(0);
    expect(lines(r.stdout)[0]).toMatchObject({ file: "eval-1-base-vs-ckpt200.mp4", episode_ids: ["b9b50c59f425", "5e3f5bd32061"], passes: [0, 1] });
  });
});
