/** `georeplay schema`: JSON Schemas a producer can validate with, checked with an independent validator (ajv). */
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { runCli, MIXED, TRIESTE } from "../helpers.ts";

const schemaOf = (which: string) => JSON.parse(runCli(["schema", which]).stdout);
const jsonl = (f: string) =>
  readFileSync(f, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));

describe("georeplay schema", () => {
  const ajv = new Ajv2020({ strict: false, allErrors: true });

  it("the episode schema accepts every recorded episode and rejects a broken one", () => {
    const validate = ajv.compile(schemaOf("episode"));
    for (const e of [...jsonl(join(TRIESTE, "episodes.jsonl")), ...jsonl(join(MIXED, "episodes.jsonl"))]) {
      expect(validate(e), JSON.stringify(validate.errors)).toBe(true);
    }
    const bad = jsonl(join(TRIESTE, "episodes.jsonl"))[0];
    bad.turns[1].camera_after.fov_deg = "wide";
    expect(validate(bad)).toBe(false);
    expect(JSON.stringify(validate.errors)).toContain("/turns/1/camera_after/fov_deg");
  });

  it("the task schema accepts the task index rows", () => {
    const validate = ajv.compile(schemaOf("task"));
    for (const t of jsonl(join(MIXED, "tasks.jsonl"))) expect(validate(t), JSON.stringify(validate.errors)).toBe(true);
  });

  it("prints all three by default, with titles", () => {
    const all = JSON.parse(runCli(["schema"]).stdout);
    expect(Object.keys(all)).toEqual(["episode", "task", "timeline"]);
    for (const s of Object.values(all) as { title: string; $schema: string }[]) {
      expect(s.title).toMatch(/^georeplay: /);
      expect(s.$schema).toContain("2020-12");
    }
  });

  it("rejects an unknown schema name", () => {
    const r = runCli(["schema", "bogus"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("'bogus' is invalid");
  });
});
