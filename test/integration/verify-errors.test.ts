/**
 * Bad input to `georeplay verify`: each case gets a specific message naming
 * file, line and field, the right exit code, no stack trace, and the good
 * episodes around it are still checked.
 */
import { describe, expect, it, beforeEach, afterEach } from "vitest";
import { mkdtempSync, rmSync, readFileSync, writeFileSync, cpSync, truncateSync, statSync, unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli, TRIESTE } from "../helpers.ts";

let dir: string;
const ep = () => JSON.parse(readFileSync(join(TRIESTE, "episodes.jsonl"), "utf8").split("\n")[0]);
const task = () => JSON.parse(readFileSync(join(TRIESTE, "tasks.jsonl"), "utf8").split("\n")[0]);
const write = (name: string, lines: unknown[]) =>
  writeFileSync(join(dir, name), lines.map((l) => (typeof l === "string" ? l : JSON.stringify(l))).join("\n") + "\n");
const verify = (...more: string[]) =>
  runCli(["verify", join(dir, "episodes.jsonl"), "--tasks", join(dir, "tasks.jsonl"), "--panos", join(dir, "panos"), ...more]);

function expectClean(r: ReturnType<typeof runCli>) {
  expect(r.stderr + r.stdout).not.toMatch(/\n\s+at .*\(/); // no stack trace
  expect(r.stderr).not.toContain("internal error");
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "georeplay-err-"));
  cpSync(join(TRIESTE, "panos"), join(dir, "panos"), { recursive: true });
  write("tasks.jsonl", [task()]);
  write("episodes.jsonl", [ep()]);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("verify on bad input", () => {
  it("malformed JSON line: names the line, still checks the good episode, exit 2", () => {
    write("episodes.jsonl", [ep(), '{"schema_version": 2, "episode_id": ']);
    const r = verify();
    expect(r.stderr).toContain("episodes.jsonl:2: not valid JSON");
    expect(r.stderr).toContain("looks truncated");
    expect(r.stdout).toContain("8 view turns checked · 8 match");
    expect(r.code).toBe(2);
    expectClean(r);
  });

  it("wrong types: names file, line, field path, expected and got", () => {
    const e = ep();
    e.turns[1].camera_after.fov_deg = "wide";
    write("episodes.jsonl", [e]);
    const r = verify();
    expect(r.stderr).toContain('episodes.jsonl:1: turns[1].camera_after.fov_deg: expected number, got string "wide"');
    expect(r.code).toBe(2);
    expectClean(r);
  });

  it("unknown split with a task directory", () => {
    const e = ep();
    e.task.split = "nosuch";
    write("episodes.jsonl", [e]);
    write("eval.jsonl", [task()]);
    const r = runCli(["verify", join(dir, "episodes.jsonl"), "--tasks", dir, "--panos", join(dir, "panos")]);
    expect(r.stderr).toContain('unknown split "nosuch"');
    expect(r.code).toBe(2);
    expectClean(r);
  });

  it("a task directory resolves <split>.jsonl", () => {
    write("eval.jsonl", [task()]);
    unlinkSync(join(dir, "tasks.jsonl"));
    const r = runCli(["verify", join(dir, "episodes.jsonl"), "--tasks", dir, "--panos", join(dir, "panos")]);
    expect(r.stdout).toContain("8 match · 0 mismatch");
    expect(r.code).toBe(0);
  });

  it("task index not found", () => {
    const e = ep();
    e.task.index = 999;
    write("episodes.jsonl", [e]);
    const r = verify();
    expect(r.stderr).toMatch(/episodes\.jsonl:1: episode 90a9d3eba5ce: task eval\/999 not found in .*tasks\.jsonl/);
    expect(r.code).toBe(2);
  });

  it("--tasks path that does not exist", () => {
    const r = runCli(["verify", join(dir, "episodes.jsonl"), "--tasks", join(dir, "nope.jsonl"), "--panos", join(dir, "panos")]);
    expect(r.stderr).toContain("--tasks");
    expect(r.stderr).toContain("no such file");
    expect(r.code).toBe(2);
    expectClean(r);
  });

  it("frame index out of range", () => {
    const e = ep();
    e.turns[2].camera_after.frame_index = 500;
    write("episodes.jsonl", [e]);
    const r = verify();
    expect(r.stderr).toContain("turns[2] (turn 2): camera_after.frame_index 500 is out of range");
    expect(r.stdout).toContain("7 view turns checked · 7 match");
    expect(r.code).toBe(2);
  });

  it("negative frame index is a schema error", () => {
    const e = ep();
    e.turns[2].camera_after.frame_index = -1;
    write("episodes.jsonl", [e]);
    const r = verify();
    expect(r.stderr).toContain("turns[2].camera_after.frame_index: expected >= 0, got number -1");
    expect(r.code).toBe(2);
  });

  it("missing panorama", () => {
    const t = task();
    unlinkSync(join(dir, "panos", `${t.frames[23].image_id}.jpg`));
    const r = verify();
    expect(r.stderr).toMatch(new RegExp(`panorama .*${t.frames[23].image_id}\\.jpg: no such file`));
    expect(r.stdout).toContain("7 view turns checked · 7 match"); // the other views still run
    expect(r.code).toBe(2);
  });

  it("truncated panorama", () => {
    const t = task();
    const p = join(dir, "panos", `${t.frames[12].image_id}.jpg`);
    truncateSync(p, Math.floor(statSync(p).size / 2));
    const r = verify();
    expect(r.stderr).toMatch(/truncated or corrupt JPEG/);
    expect(r.code).toBe(2);
    expectClean(r);
  });

  it("image id with ../ is refused, never used as a path", () => {
    const t = task();
    t.frames[12].image_id = "../../etc/passwd";
    write("tasks.jsonl", [t]);
    const r = verify();
    expect(r.stderr).toContain('image id "../../etc/passwd" is not a plain id');
    expect(r.code).toBe(2);
  });

  it("empty episodes file", () => {
    writeFileSync(join(dir, "episodes.jsonl"), "");
    const r = verify();
    expect(r.stderr).toContain("episodes.jsonl: no episode records (the file is empty or only blank lines)");
    expect(r.code).toBe(2);
    expectClean(r);
  });

  it("errored episode rows are reported and skipped, not fatal", () => {
    write("episodes.jsonl", [
      ep(),
      {
        schema_version: 2,
        episode_id: "deadbeef0001",
        model_name: "m",
        task: { split: "eval", index: 40 },
        config: {},
        error: "EnvError: reset failed",
        traceback: "Traceback...",
      },
    ]);
    const r = verify();
    expect(r.stderr).toContain("episode deadbeef0001 errored in the environment");
    expect(r.stdout).toContain("8 match · 0 mismatch");
    expect(r.code).toBe(0);
  });
});
