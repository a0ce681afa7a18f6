/**
 * Error paths follow one rule (issue 51, item 9), by real CLI runs: exit 2, one
 * line naming what is wrong, no output file. `report --baseline NAME` with no
 * such arm names the arms, as `page` does; a torn last line in `report` is
 * named by file and line as `verify` names it (the report of the other rows
 * printed, exit 2). An output place that cannot be written fails before any
 * work for render, frames and page alike (before the episode is even looked
 * up); a missing folder that can be made is made and said so, and removed
 * again when the command then fails.
 */
import { describe, expect, it, beforeAll, afterAll } from "vitest";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FIXTURES, TRIESTE, runCli, type CliResult } from "../helpers.ts";

const dir = mkdtempSync(join(tmpdir(), "georeplay-error-paths-"));
const BOARDS = join(FIXTURES, "boards");
const inputs = [join(TRIESTE, "episodes.jsonl"), "--tasks", join(TRIESTE, "tasks.jsonl"), "--panos", join(TRIESTE, "panos"), "--no-progress"];
const afile = join(dir, "a-file");
/** A folder nothing can be written in: read-only for a user; root writes anywhere a mode allows, so /sys (sysfs) for root. */
let readOnly: string;

beforeAll(() => {
  writeFileSync(afile, "not a folder\n");
  if (process.getuid?.() === 0 && existsSync("/sys/kernel")) readOnly = "/sys/kernel";
  else {
    readOnly = join(dir, "read-only");
    mkdirSync(readOnly);
    chmodSync(readOnly, 0o555);
  }
});
afterAll(() => {
  if (readOnly.startsWith(dir)) chmodSync(readOnly, 0o755);
  rmSync(dir, { recursive: true, force: true });
});

/** Exit 2, exactly one line on stderr (no stack, no progress), nothing on stdout. */
function expectOneLine(r: CliResult, message: string) {
  expect(r.stderr).toBe(`georeplay: ${message}\n`);
  expect(r.stdout).toBe("");
  expect(r.code).toBe(2);
}

describe("report", () => {
  it("--baseline NAME with no such arm: exit 2 naming the arms, as page does; nothing printed", () => {
    const r = runCli(["report", join(BOARDS, "nobase"), "--baseline", "sonnet-9"]);
    const arms = (JSON.parse(runCli(["report", join(BOARDS, "nobase"), "--json"]).stdout) as { arms: { arm: string }[] }).arms.map((a) => a.arm);
    expect(arms.length).toBeGreaterThan(1);
    expectOneLine(r, `--baseline sonnet-9: no arm of that name on this board (arms: ${arms.join(", ")})`);
    // geoeval's default (base) absent is no mistake: no paired section, exit 0.
    expect(runCli(["report", join(BOARDS, "nobase")]).code).toBe(0);
  });

  it("a torn last line: named by file and line as verify names it, the other rows reported, exit 2", () => {
    const ok = (i: number) => JSON.stringify({ model_name: "a", task: { index: i }, outcome: { reward: 0.5, distance_km: 100 * (i + 1) } });
    mkdirSync(join(dir, "torn"));
    const file = join(dir, "torn", "episodes.jsonl");
    writeFileSync(join(dir, "whole.jsonl"), [ok(0), ok(1)].join("\n") + "\n");
    writeFileSync(file, [ok(0), ok(1), '{"model_name": "a", "task": {"ind'].join("\n"));
    const r = runCli(["report", join(dir, "torn")]);
    // verify's words for such a line (test/verify-errors.test.ts): "<file>:<line>: not valid JSON … (the last line looks truncated: …)".
    expect(r.stderr).toContain(`${file}:3: not valid JSON, skipped (the last line looks truncated: was the file still being written?)\n`);
    expect(r.stderr).toContain("1 line(s) that are not JSON kept georeplay from reading every row: the report is of the others (exit 2)");
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stdout).toBe(runCli(["report", join(dir, "whole.jsonl")]).stdout);
    expect(r.code).toBe(2);
  });
});

describe("an output place that cannot be written fails before any work (the episode is not even looked up)", () => {
  // '#9': the Trieste run has one episode, so a command that did any work would stop at "episode #9 not found" instead.
  const cases = () => [
    { where: "under a file", out: join(afile, "clip.mp4"), why: `${afile} is a file, so nothing can be written under it` },
    { where: "a read-only folder", out: join(readOnly, "clip.mp4"), why: `cannot write in ${readOnly}: permission denied` },
    {
      where: "a missing folder that cannot be made",
      out: join(readOnly, "georeplay-missing", "clip.mp4"),
      why: `cannot write in ${join(readOnly, "georeplay-missing")}: permission denied`,
    },
  ];

  it("render -o FILE, -o DIR/", () => {
    for (const c of cases()) {
      const r = runCli(["render", ...inputs, "--episode", "#9", "-o", c.out]);
      expectOneLine(r, `-o ${c.out}: ${c.why}`);
      expect(existsSync(c.out), c.where).toBe(false);
    }
    const folder = join(afile, "videos") + "/";
    expectOneLine(runCli(["render", ...inputs, "--all", "-o", folder]), `-o ${folder}: ${afile} is a file, so nothing can be written under it`);
  });

  it("frames --out DIR and page -o FILE, -o DIR/ by the same rule", () => {
    for (const c of cases()) {
      const out = c.out.replace(/clip\.mp4$/, "frames");
      expectOneLine(runCli(["frames", ...inputs, "--episode", "#9", "--out", out]), `--out ${out}: ${c.why}`);
      expect(existsSync(out)).toBe(false);
      for (const page of [c.out.replace(/clip\.mp4$/, "page.html"), c.out.replace(/clip\.mp4$/, "page/")]) {
        const p = runCli(["page", join(dir, "no-such-run.jsonl"), "-o", page]);
        expectOneLine(p, `-o ${page}: ${c.why}`);
      }
    }
  });
});

describe("a missing folder is made and said so, by every command; a failure removes it again", () => {
  it("page -o new/sub/page.html and -o new2/sub/ (the folder form): made, said, written", () => {
    const file = join(dir, "new", "sub", "page.html");
    const r = runCli(["page", ...inputs, "-o", file]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`note: -o ${file}: created the folder ${join(dir, "new", "sub")} (it did not exist)\n`);
    expect(existsSync(file)).toBe(true);
    const folder = join(dir, "new2", "sub") + "/";
    const f = runCli(["page", ...inputs, "-o", folder]);
    expect(f.code, f.stderr).toBe(0);
    expect(f.stderr).toContain(`note: -o ${folder}: created the folder ${join(dir, "new2")} (it did not exist)\n`);
    expect(existsSync(join(folder, "index.html"))).toBe(true);
  });

  it("frames --out new/frames: the folder on the way made and said (the output folder itself is the output), written", () => {
    const out = join(dir, "new3", "frames");
    const r = runCli(["frames", ...inputs, "--episode", "#1", "--out", out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe(`note: --out ${out}: created the folder ${join(dir, "new3")} (it did not exist)\n`);
    expect(existsSync(join(out, "timeline.json"))).toBe(true);
  });

  it("render -o new/a/clip.mp4 of an episode that is not there: the folder made is said, then removed with the failure", () => {
    const out = join(dir, "new4", "a", "clip.mp4");
    const r = runCli(["render", ...inputs, "--episode", "#9", "-o", out]);
    expect(r.code).toBe(2);
    expect(r.stderr.split("\n")).toEqual([
      `note: -o ${out}: created the folder ${join(dir, "new4", "a")} (it did not exist)`,
      expect.stringMatching(/^georeplay: episode #9 not found in /),
      "",
    ]);
    expect(existsSync(join(dir, "new4"))).toBe(false);
    expect(readdirSync(dir)).not.toContain("new4");
  });
});
