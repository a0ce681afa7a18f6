/**
 * The environment seam as a user meets it: every command hands a run to the environment its
 * records name (envs/index.ts), an unknown `env` or two environments at once is one line naming
 * the file (exit 2, nothing written), and a command whose pipeline an environment cannot use yet
 * says so by name before any work.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FIXTURES, runCli, type CliResult } from "../helpers.ts";
import { ENV_NAMES, envOfRecord } from "../../envs/index.ts";

const CROPS = join(FIXTURES, "crops", "sample");
const CROPS_EVAL = join(CROPS, "eval", "episodes.jsonl");
const GEO = join(FIXTURES, "mixed");
const GEO_EVAL = join(GEO, "episodes.jsonl");
const geoArgs = ["--tasks", join(GEO, "tasks.jsonl"), "--panos", join(GEO, "panos")];
const tmp = mkdtempSync(join(tmpdir(), "georeplay-env-registry-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function oneLine(r: CliResult, text: string | RegExp): void {
  expect(r.code, r.stdout + r.stderr).toBe(2);
  const lines = r.stderr.trim().split("\n");
  expect(lines, r.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(text);
  expect(r.stderr).not.toMatch(/\n\s+at /);
}

describe("the registry of environments", () => {
  it("knows GeoGuesser and crops; records without env, or with a GeoGuesser server's URL, are GeoGuesser's", () => {
    expect(ENV_NAMES).toEqual(["geoguesser", "crops"]);
    expect(envOfRecord({}, "f", 1)).toBe("geoguesser");
    expect(envOfRecord({ env: "http://geoguess:8000" }, "f", 1)).toBe("geoguesser");
    expect(envOfRecord({ env: "crops" }, "f", 1)).toBe("crops");
    expect(() => envOfRecord({ env: 7 }, "runs/e.jsonl", 3)).toThrow(
      'runs/e.jsonl:3: env: expected one of "geoguesser", "crops" (or no env: a GeoGuesser record), got number 7',
    );
  });

  it("an unknown env is one line naming file, line and field, for every command that reads records (exit 2, nothing written)", () => {
    const file = join(tmp, "unknown.jsonl");
    const rows = readFileSync(CROPS_EVAL, "utf8").split("\n").filter(Boolean);
    writeFileSync(file, [JSON.stringify({ ...JSON.parse(rows[0]), env: "boxes-v2" }), ...rows.slice(1)].join("\n") + "\n");
    const expected = new RegExp(`${file.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}:1: env: expected one of "geoguesser", "crops" .*got string "boxes-v2"`);
    oneLine(runCli(["verify", file]), expected);
    oneLine(runCli(["report", file]), expected);
    oneLine(runCli(["frames", file, "--episode", "#1", "--out", join(tmp, "frames")]), expected);
    oneLine(runCli(["page", file, "-o", join(tmp, "page.html")]), expected);
    expect(existsSync(join(tmp, "frames"))).toBe(false);
    expect(existsSync(join(tmp, "page.html"))).toBe(false);
  });

  it("runs of two environments given together: one line naming both files (exit 2)", () => {
    oneLine(
      runCli(["verify", GEO_EVAL, CROPS_EVAL, ...geoArgs]),
      /episodes\.jsonl: a crops run, but .*mixed\/episodes\.jsonl is a geoguesser run: give one environment's runs at a time/,
    );
    oneLine(runCli(["report", GEO_EVAL, CROPS_EVAL]), /give one environment's runs at a time/);
  });

  it("each environment's runs reach its own commands", () => {
    const crops = runCli(["verify", CROPS_EVAL]);
    expect(crops.code, crops.stderr).toBe(0);
    expect(crops.stdout).toContain("box mappings 87/87");
    const geo = runCli(["verify", GEO_EVAL, ...geoArgs, "--json"]);
    expect(JSON.parse(geo.stdout).checked).toBeGreaterThan(0);
    const board = runCli(["report", CROPS_EVAL, "--json"]);
    expect(board.code, board.stderr).toBe(0);
    expect(JSON.parse(board.stdout).arms.length).toBeGreaterThan(0);
  });

  it("serve reaches crops runs: --once writes exactly the page `georeplay page` writes", () => {
    const served = runCli(["serve", CROPS_EVAL, "--once", "-o", join(tmp, "y.html"), "--no-progress"]);
    expect(served.code, served.stderr).toBe(0);
    const paged = runCli(["page", CROPS_EVAL, "-o", join(tmp, "z.html"), "--no-progress"]);
    expect(paged.code, paged.stderr).toBe(0);
    expect(readFileSync(join(tmp, "y.html")).equals(readFileSync(join(tmp, "z.html")))).toBe(true);
  });
});
