import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { inputsBeside } from "../../envs/geoguesser/replay/tasks/inputs-beside.ts";

const root = mkdtempSync(join(tmpdir(), "georeplay-beside-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function tree(files: string[]): string {
  const d = mkdtempSync(join(root, "t-"));
  for (const f of files) {
    if (f.endsWith("/")) mkdirSync(join(d, f), { recursive: true });
    else {
      mkdirSync(join(d, f, ".."), { recursive: true });
      writeFileSync(join(d, f), "");
    }
  }
  return d;
}

describe("--tasks and --panos found beside the run", () => {
  it("takes the run folder's tasks.jsonl and panos/", () => {
    const d = tree(["run/episodes.jsonl", "run/tasks.jsonl", "run/panos/"]);
    const b = inputsBeside([join(d, "run/episodes.jsonl")], {});
    expect(b).toEqual({ tasks: join(d, "run/tasks.jsonl"), panos: join(d, "run/panos"), found: ["tasks", "panos"] });
  });

  it("looks one folder up (a board's arms under one tasks/ and panos/), and reads a folder input as the run folder", () => {
    const d = tree(["board/base/episodes.jsonl", "board/tasks/", "board/panos/"]);
    expect(inputsBeside([join(d, "board/base/episodes.jsonl")], {})).toMatchObject({ tasks: join(d, "board/tasks"), panos: join(d, "board/panos") });
    expect(inputsBeside([join(d, "board")], {})).toMatchObject({ tasks: join(d, "board/tasks"), panos: join(d, "board/panos") });
  });

  it("never replaces a flag that is given, and fills only the other", () => {
    const d = tree(["run/episodes.jsonl", "run/tasks.jsonl", "run/panos/"]);
    const b = inputsBeside([join(d, "run/episodes.jsonl")], { tasks: "/elsewhere/tasks.jsonl" });
    expect(b).toEqual({ tasks: "/elsewhere/tasks.jsonl", panos: join(d, "run/panos"), found: ["panos"] });
    expect(inputsBeside([join(d, "run/episodes.jsonl")], { tasks: "a", panos: "b" })).toEqual({ tasks: "a", panos: "b", found: [] });
  });

  it("does not pair a task index from one folder with panoramas from another", () => {
    const d = tree(["up/run/episodes.jsonl", "up/run/tasks.jsonl", "up/panos/"]);
    expect(inputsBeside([join(d, "up/run/episodes.jsonl")], {}).found).toEqual([]);
  });

  it("finds nothing when nothing is there, or the input does not exist (its own error comes later)", () => {
    const d = tree(["run/episodes.jsonl"]);
    expect(inputsBeside([join(d, "run/episodes.jsonl")], {}).found).toEqual([]);
    expect(inputsBeside([join(d, "missing.jsonl")], {}).found).toEqual([]);
  });
});
