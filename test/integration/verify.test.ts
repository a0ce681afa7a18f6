/** `georeplay verify` end to end on the recorded runs with known answers, through the built CLI. */
import { describe, expect, it, beforeAll } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { runCli, TRIESTE, MIXED } from "../helpers.ts";
import { verifyRun } from "../../envs/geoguesser/replay/verify/verify.ts";

const args = (dir: string, ...more: string[]) => [
  "verify",
  join(dir, "episodes.jsonl"),
  "--tasks",
  join(dir, "tasks.jsonl"),
  "--panos",
  join(dir, "panos"),
  ...more,
];

describe("georeplay verify", () => {
  it("trieste: 8 views match, exit 0", () => {
    const r = runCli(args(TRIESTE));
    expect(r.stderr).toBe("");
    expect(r.stdout).toContain("1 episodes · 8 view turns checked · 8 match · 0 mismatch");
    expect(r.stdout).toContain("every view turn reproduces byte-for-byte");
    expect(r.code).toBe(0);
  });

  describe("mixed", () => {
    let text: ReturnType<typeof runCli>;
    let json: ReturnType<typeof runCli>;
    beforeAll(() => {
      text = runCli(args(MIXED));
      json = runCli(args(MIXED, "--json"));
    });
    const corrupted: { episode_id: string; turn: number }[] = JSON.parse(readFileSync(join(MIXED, "corrupted.json"), "utf8"));

    it("reports 74 match and exactly the corrupted turns, exit 1", () => {
      expect(text.stdout).toContain("10 episodes · 76 view turns checked · 74 match · 2 mismatch");
      for (const c of corrupted) expect(text.stdout).toMatch(new RegExp(`MISMATCH episode ${c.episode_id} turn ${c.turn} `));
      expect(text.code).toBe(1);
    });

    it("--json lists the mismatches with camera and both hashes, and counts the resolved boundary view", () => {
      expect(json.code).toBe(1);
      const r = JSON.parse(json.stdout);
      expect(r).toMatchObject({ episodes: 10, checked: 76, match: 74, mismatch: 2, errors: [] });
      expect(r.resolved).toBeGreaterThanOrEqual(1);
      expect(r.mismatches.map((m: any) => ({ episode_id: m.episode_id, turn: m.turn }))).toEqual(expect.arrayContaining(corrupted));
      expect(r.mismatches).toHaveLength(2);
      for (const m of r.mismatches) {
        expect(m.recorded).toMatch(/^[0-9a-f]{64}$/);
        expect(m.rendered).toMatch(/^[0-9a-f]{64}$/);
        expect(m.recorded).not.toBe(m.rendered);
        expect(m.camera).toHaveProperty("fov_deg");
        expect(m.split).toBe("eval");
      }
      // Map turns are counted exactly: every turn of the replayable episodes that returned a map.
      const maps = readFileSync(join(MIXED, "episodes.jsonl"), "utf8")
        .split("\n")
        .filter((l) => l.trim())
        .map((l) => JSON.parse(l))
        .filter((e) => Array.isArray(e.turns))
        .reduce((n: number, e: any) => n + e.turns.filter((t: any) => t.image_kind === "map").length, 0);
      expect(maps).toBeGreaterThan(0);
      expect(r.skipped.map_turns).toBe(maps);
    });
  });

  it("the exact-boundary view (1ae5a0c90017 turn 6: heading 0, pitch 5, fov 100) is resolved, not a mismatch", async () => {
    const seen: { status: string; turn: number }[] = [];
    const report = await verifyRun({
      episodes: [join(MIXED, "episodes.jsonl")],
      tasks: join(MIXED, "tasks.jsonl"),
      panos: join(MIXED, "panos"),
      jobs: 1,
      episodeFilter: (e) => e.episode_id === "1ae5a0c90017",
      onEpisode: (v) => void seen.push(...v.views.map((x) => ({ status: x.status, turn: x.turn }))),
    });
    expect(seen.find((s) => s.turn === 6)?.status).toBe("resolved");
    expect(report.mismatch).toBe(0);
  });

  it("shards partition the run deterministically and add up to the whole", () => {
    const parts = [1, 2, 3].map((i) => JSON.parse(runCli(args(MIXED, "--json", "--shard", `${i}/3`)).stdout));
    expect(parts.reduce((n, p) => n + p.episodes, 0)).toBe(10);
    expect(parts.reduce((n, p) => n + p.checked, 0)).toBe(76);
    expect(parts.reduce((n, p) => n + p.mismatch, 0)).toBe(2);
    const again = JSON.parse(runCli(args(MIXED, "--json", "--shard", "2/3")).stdout);
    expect(again).toEqual(parts[1]);
  });

  it("--limit stops after n episodes; --jobs 1 and 2 give the same report", () => {
    const one = JSON.parse(runCli(args(MIXED, "--json", "--jobs", "1", "--limit", "3")).stdout);
    const two = JSON.parse(runCli(args(MIXED, "--json", "--jobs", "2", "--limit", "3")).stdout);
    expect(one.episodes).toBe(3);
    expect(one).toEqual(two);
  });

  it("rejects a bad --shard with a message", () => {
    const r = runCli(args(TRIESTE, "--shard", "4/3"));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--shard 4/3: i must be between 1 and n");
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});

describe("the default thread count", () => {
  it("is one core fewer than the machine has for a small run, and a worker per core for a big one", async () => {
    const { defaultJobs, SMALL_RUN_BYTES } = await import("../../replay/verify/jobs.ts");
    const { availableParallelism } = await import("node:os");
    const cores = availableParallelism();
    expect(defaultJobs(0)).toBe(Math.max(1, cores - 1));
    expect(defaultJobs(SMALL_RUN_BYTES - 1)).toBe(Math.max(1, cores - 1));
    expect(defaultJobs(SMALL_RUN_BYTES)).toBe(cores);
    // The CLI says which, in its help, for this machine.
    const help = runCli(["verify", "--help"]).stdout.replace(/\s+/g, " ");
    expect(help).toContain(`(default: ${Math.max(1, cores - 1)} for a run under 64 MB of records, ${cores} above)`);
  });
});
