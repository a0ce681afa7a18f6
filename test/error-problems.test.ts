/**
 * `GeoreplayError.problems` names real places (file, line, field) wherever
 * the problem has one, so the README's example (`${p.file}:${p.line}: ...`)
 * prints locations, not `?:?:`.
 */
import { describe, expect, it, beforeAll, afterAll } from "vitest";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { verify, generateFrames, report, GeoreplayError } from "../src/index.ts";
import { problemsOf } from "../replay/io/errors.ts";
import { MIXED, FIXTURES } from "./helpers.ts";

let dir: string;
beforeAll(() => (dir = mkdtempSync(join(tmpdir(), "georeplay-problems-"))));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const replay = { tasks: join(MIXED, "tasks.jsonl"), panos: join(MIXED, "panos") };

/** What the call threw, as the README's example prints it. */
async function caught(call: Promise<unknown>): Promise<{ error: GeoreplayError; printed: string[] }> {
  const e = await call.then(
    () => null,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(GeoreplayError);
  const error = e as GeoreplayError;
  return { error, printed: error.problems.map((p) => `${p.file ?? "?"}:${p.line ?? "?"}: ${p.message}`) };
}

describe("GeoreplayError.problems", () => {
  it("an input that does not exist: its path", async () => {
    const missing = join(dir, "nope.jsonl");
    const { error } = await caught(verify({ episodes: [missing], ...replay }));
    expect(error.problems).toEqual([{ file: missing, line: null, field: null, message: `${missing}: no such file` }]);
  });

  it("a file that matches no recording format: the file and line 1", async () => {
    const odd = join(dir, "odd.jsonl");
    writeFileSync(odd, '{"hello": 1}\n');
    const { error, printed } = await caught(verify({ episodes: [odd], ...replay }));
    expect(error.problems).toHaveLength(1);
    expect(error.problems[0]).toMatchObject({ line: 1 });
    expect(error.problems[0].file).toMatch(/odd\.jsonl$/);
    expect(printed[0]).not.toMatch(/^\?/);
  });

  it("a --tasks path that does not exist: that path", async () => {
    const tasks = join(dir, "no-tasks");
    const { error } = await caught(verify({ episodes: [join(MIXED, "episodes.jsonl")], tasks, panos: replay.panos }));
    expect(error.problems[0]).toMatchObject({ file: tasks, line: null });
  });

  it("a drifted view refused by frames: the episode's file and line, kind drift", async () => {
    const { error } = await caught(generateFrames({ episodes: [join(MIXED, "episodes.jsonl")], episode: "0ec192c0f90d", ...replay, out: join(dir, "f") }));
    expect(error.kind).toBe("drift");
    expect(error.problems[0]).toMatchObject({ file: join(MIXED, "episodes.jsonl"), line: 2 });
  });

  it("an invalid board record: file, line and field", async () => {
    const { error, printed } = await caught(report([join(FIXTURES, "boards", "crash-noindex")]));
    expect(error.problems[0].file).toMatch(/crash-noindex\/episodes\.jsonl$/);
    expect(error.problems[0].line).toBeGreaterThan(0);
    expect(error.problems[0].field).not.toBeNull();
    expect(printed[0]).not.toMatch(/\?/);
  });

  it("reads every located line of a message, with its field when one is at fault", () => {
    const text = "a.jsonl:3: turns[2].camera_after.fov_deg: expected a number, got null\nb.jsonl:9: episode x: missing";
    expect(problemsOf(text)).toEqual([
      { file: "a.jsonl", line: 3, field: "turns[2].camera_after.fov_deg", message: "a.jsonl:3: turns[2].camera_after.fov_deg: expected a number, got null" },
      { file: "b.jsonl", line: 9, field: null, message: "b.jsonl:9: episode x: missing" },
    ]);
    expect(problemsOf("--panos /p: not a directory")).toEqual([{ file: "/p", line: null, field: null, message: "--panos /p: not a directory" }]);
    expect(problemsOf("--shard 5/4: i must be between 1 and n")).toEqual([
      { file: null, line: null, field: null, message: "--shard 5/4: i must be between 1 and n" },
    ]);
  });
});
