/**
 * Verify checks a window of episodes at a time: every view of one panorama
 * file in the window goes to the pool as one task, so the panorama is
 * decoded once for the run (the mixed fixture fits in one window), and the
 * report is the same as checking episode by episode.
 */
import { describe, expect, it } from "vitest";
import { join } from "node:path";
import { verifyRun } from "../../envs/geoguesser/replay/verify/verify.ts";
import { createPool, type JobPool } from "../../envs/geoguesser/replay/verify/pool.ts";
import type { PoolTask } from "../../envs/geoguesser/replay/verify/job-runner.ts";
import { MIXED } from "../helpers.ts";

const args = { episodes: [join(MIXED, "episodes.jsonl")], tasks: join(MIXED, "tasks.jsonl"), panos: join(MIXED, "panos") };

/** A pool that records the check tasks it is given. */
function recording(): { pool: JobPool; checks: { path: string; views: number }[] } {
  const inner = createPool({ jobs: 1, panos: args.panos });
  const checks: { path: string; views: number }[] = [];
  const pool: JobPool = {
    run(task: PoolTask) {
      if (task.kind === "check") checks.push({ path: task.path, views: task.jobs.length });
      return inner.run(task);
    },
    close: () => inner.close(),
    workers: inner.workers,
  };
  return { pool, checks };
}

describe("verify in windows", () => {
  it("sends each panorama file to the pool once per run, with all of its views", async () => {
    const { pool, checks } = recording();
    let rendered = 0;
    try {
      const r = await verifyRun({ ...args, pool, onStats: (s) => (rendered = s.rendered) });
      expect(r).toMatchObject({ episodes: 10, checked: 76, match: 74, mismatch: 2 });
      const paths = checks.map((c) => c.path);
      expect(new Set(paths).size).toBe(paths.length);
      expect(checks.reduce((n, c) => n + c.views, 0)).toBe(rendered);
      // Largest group first: the pool never ends the window on a long task.
      const sizes = checks.map((c) => c.views);
      expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
    } finally {
      await pool.close();
    }
  });

  it("gives the same report as a pool of its own, with images kept (the narrow window)", async () => {
    const a = await verifyRun({ ...args, jobs: 1 });
    const b = await verifyRun({ ...args, jobs: 1, keepImages: true });
    expect(b).toEqual(a);
  });
});
