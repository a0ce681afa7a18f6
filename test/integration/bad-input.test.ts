/** Runs the bad-input corpus (test/bad-input/cases.ts) through the real CLI. */
import { describe, expect, it } from "vitest";
import { cpSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli, TRIESTE } from "../helpers.ts";
import { CASES, type CaseDir } from "../bad-input/cases.ts";

function freshCopy(): CaseDir {
  const dir = mkdtempSync(join(tmpdir(), "georeplay-bad-"));
  const c = { dir, episodes: join(dir, "episodes.jsonl"), tasks: join(dir, "eval.jsonl"), panos: join(dir, "panos") };
  cpSync(join(TRIESTE, "panos"), c.panos, { recursive: true });
  cpSync(join(TRIESTE, "tasks.jsonl"), c.tasks);
  cpSync(join(TRIESTE, "episodes.jsonl"), c.episodes);
  return c;
}

describe("bad-input corpus", () => {
  it("has at least 30 cases", () => expect(CASES.length).toBeGreaterThanOrEqual(30));

  it.each(CASES.map((c) => [c.name, c] as const))("%s", async (_name, bad) => {
    const c = freshCopy();
    try {
      await bad.setup(c);
      const r = runCli(bad.args ? bad.args(c) : ["verify", c.episodes, "--tasks", c.tasks, "--panos", c.panos]);
      expect(r.code, r.stderr + r.stdout).toBe(bad.exit);
      for (const m of bad.message) {
        if (typeof m === "string") expect(r.stderr).toContain(m);
        else expect(r.stderr).toMatch(m);
      }
      if (bad.stillChecked) expect(r.stdout).toContain(bad.stillChecked);
      // Never a stack trace, never an internal error.
      expect(r.stderr + r.stdout).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
      expect(r.stderr).not.toContain("internal error");
    } finally {
      rmSync(c.dir, { recursive: true, force: true });
    }
  });
});

describe("bad-input corpus through page: the same message, exit 2, and nothing written at -o", () => {
  const fatal = CASES.filter((c) => c.exit === 2 && !c.args);
  it.each(fatal.map((c) => [c.name, c] as const))("%s", async (_name, bad) => {
    const c = freshCopy();
    try {
      await bad.setup(c);
      const out = join(c.dir, "out", "run.html");
      const r = runCli(["page", c.episodes, "--tasks", c.tasks, "--panos", c.panos, "-o", out]);
      expect(r.code, r.stderr + r.stdout).toBe(2);
      for (const m of bad.message) {
        if (typeof m === "string") expect(r.stderr).toContain(m.replace(/^(skipped|warning): /, ""));
        else expect(r.stderr).toMatch(m);
      }
      expect(existsSync(out)).toBe(false);
      expect(r.stderr + r.stdout).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
    } finally {
      rmSync(c.dir, { recursive: true, force: true });
    }
  });
});
