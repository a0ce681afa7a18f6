/** The --json outputs: one parseable object on stdout, stable fields (docs/json-reports.md). */
import { describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli, TRIESTE } from "../helpers.ts";

describe("--json reports", () => {
  it("frames --json: one object with the documented fields; a rerun reports reuse", () => {
    const out = mkdtempSync(join(tmpdir(), "georeplay-json-"));
    try {
      const args = [
        "frames",
        join(TRIESTE, "episodes.jsonl"),
        "--episode",
        "#1",
        "--tasks",
        join(TRIESTE, "tasks.jsonl"),
        "--panos",
        join(TRIESTE, "panos"),
        "--out",
        out,
        "--fps",
        "10",
        "--json",
      ];
      const first = runCli(args);
      expect(first.code, first.stderr).toBe(0);
      const a = JSON.parse(first.stdout);
      expect(Object.keys(a)).toEqual([
        "episode_id",
        "format",
        "source",
        "verified",
        "views",
        "out",
        "timeline",
        "props",
        "frame_files",
        "segments",
        "total_frames",
        "fps",
        "seconds",
      ]);
      expect(a).toMatchObject({
        episode_id: "90a9d3eba5ce",
        format: "eval",
        source: "replay",
        verified: true,
        views: { checked: 8, match: 8, mismatch: 0 },
        fps: 10,
      });
      expect(a.frame_files.reused).toBe(0);
      const b = JSON.parse(runCli(args).stdout);
      expect(b.frame_files.reused).toBe(b.frame_files.total);
      expect({ ...b, frame_files: null }).toEqual({ ...a, frame_files: null });
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it("frames --json on a drifted episode prints nothing on stdout and exits 1", () => {
    const r = runCli([
      "frames",
      join(TRIESTE, "..", "mixed", "episodes.jsonl"),
      "--episode",
      "0ec192c0f90d",
      "--tasks",
      join(TRIESTE, "..", "mixed", "tasks.jsonl"),
      "--panos",
      join(TRIESTE, "..", "mixed", "panos"),
      "--out",
      join(tmpdir(), "georeplay-json-drift"),
      "--json",
    ]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("turn 5");
  });
});
