/**
 * One rule finds a sweep's files for every command (replay/formats/sweep-files.ts,
 * geoeval's glob): what `verify` and the page's episode rows read is what the
 * board's tables read, with symlinked, hidden, quarantined and deep folders.
 */
import { describe, expect, it, beforeAll, afterAll } from "vitest";
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findSweepFiles } from "../../replay/formats/sweep-files.ts";
import { resolveInputs } from "../../replay/formats/inputs.ts";
import { FIXTURES } from "../helpers.ts";

const EPISODES = join(FIXTURES, "sweep", "pass-0", "shard-0", "episodes.jsonl");
let dir: string;
let root: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "georeplay-sweepfiles-"));
  root = join(dir, "sweep");
  const put = (...parts: string[]) => {
    mkdirSync(join(root, ...parts), { recursive: true });
    cpSync(EPISODES, join(root, ...parts, "episodes.jsonl"));
  };
  put("pass-0");
  put(".hidden-pass"); // geoeval's glob skips hidden folders
  put("_quarantined", "bad-pass"); // left out (and counted)
  put(...Array.from({ length: 11 }, (_, i) => `d${i}`)); // deeper than any fixed limit
  mkdirSync(join(dir, "elsewhere", "pass-9"), { recursive: true });
  cpSync(EPISODES, join(dir, "elsewhere", "pass-9", "episodes.jsonl"));
  symlinkSync(join(dir, "elsewhere"), join(root, "linked")); // followed, as glob does
  symlinkSync(root, join(root, "pass-0", "loop")); // a link back up the tree: visited once
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a sweep's files", () => {
  it("follows symlinks, goes any depth, skips hidden folders and _quarantined/, stops at loops", () => {
    const found = findSweepFiles([root]);
    const rel = (f: string) => f.slice(root.length + 1);
    expect(found.files.map(rel).sort()).toEqual(
      ["pass-0/episodes.jsonl", "linked/pass-9/episodes.jsonl", `${Array.from({ length: 11 }, (_, i) => `d${i}`).join("/")}/episodes.jsonl`].sort(),
    );
    expect(found.quarantined.map(rel)).toEqual(["_quarantined/bad-pass/episodes.jsonl"]);
  });

  it("verify and pages read exactly the files the board's tables read, in the same order", async () => {
    const sources = await resolveInputs([root]);
    expect(sources.map((s) => s.file)).toEqual(findSweepFiles([root]).files);
    expect(sources.every((s) => s.format === "eval" && s.sweep === root)).toBe(true);
  });
});
