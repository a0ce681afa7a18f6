/**
 * `georeplay page` on crops runs as a command: the exit codes (0 clean, 1 findings, 2 bad input
 * with nothing written and one line naming what), --json, and the help's words.
 */
import { describe, expect, it, afterAll } from "vitest";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FIXTURES, runCli } from "../helpers.ts";

const SAMPLE = join(FIXTURES, "crops", "sample");
const EVAL = join(SAMPLE, "eval", "episodes.jsonl");
const dir = mkdtempSync(join(tmpdir(), "georeplay-page-crops-cli-"));

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("georeplay page on crops runs", () => {
  it("exits 1 on a run with findings and says so; --json gives the counts", () => {
    const out = join(dir, "corrupted.html");
    const r = runCli(["page", join(SAMPLE, "eval-corrupted"), "--dataset", SAMPLE, "--no-progress", "--json", "-o", out]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("3 finding(s) (2 view(s) do not match their recorded hash); the page shows each one\n");
    const j = JSON.parse(r.stdout);
    expect(j).toMatchObject({ env: "crops", form: "file", files: 1, episodes: 24, arms: 1, views: 183, match: 181, mismatch: 2, findings: 3 });
    expect(existsSync(out)).toBe(true);
  }, 120_000);

  it("bad input is one line, exit 2, nothing written", () => {
    const cases: [string[], RegExp][] = [
      [["--dataset", dir], /^georeplay: --dataset .*: no tasks\.jsonl in this folder/],
      [["--baseline", "nobody"], /^georeplay: --baseline nobody: no arm of that name on this board \(arms: scripted-vlm\)\n$/],
    ];
    for (const [args, message] of cases) {
      const out = join(dir, "bad.html");
      const r = runCli(["page", EVAL, "--no-progress", ...args, "-o", out]);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(existsSync(out)).toBe(false);
    }
    // A record that is not a crops record's shape: file, line and field.
    const broken = join(dir, "broken", "episodes.jsonl");
    mkdirSync(join(dir, "broken"));
    writeFileSync(broken, JSON.stringify({ schema_version: 1, env: "crops", episode_id: "x", task: { split: "eval", index: 0, image_id: "sk-coins" } }) + "\n");
    const r = runCli(["page", broken, "--dataset", SAMPLE, "--no-progress", "-o", join(dir, "broken.html")]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^georeplay: .*broken\/episodes\.jsonl:1: config: expected object, got/);
    expect(existsSync(join(dir, "broken.html"))).toBe(false);
  }, 120_000);

  it("refuses a folder georeplay did not write, before any work", () => {
    const mine = join(dir, "mine");
    mkdirSync(mine);
    writeFileSync(join(mine, "notes.txt"), "keep\n");
    const r = runCli(["page", EVAL, "--no-progress", "-o", mine + "/"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/holds files georeplay did not write/);
  });

  it("--help says what a crops page shows", () => {
    const help = runCli(["page", "--help"]).stdout.replace(/\s+/g, " ");
    expect(help).toContain('Crops runs (records with env "crops", the detection gym) get their own page');
    expect(help).toContain("--dataset <dir>");
  });
});
