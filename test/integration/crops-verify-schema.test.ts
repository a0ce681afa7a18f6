/**
 * `georeplay schema crops-verify` publishes the JSON Schema of a crops run's `verify --json`
 * report; the sample's three reports (clean eval, clean train, the corrupted copy's findings)
 * validate against it and against the zod schema the report's types come from.
 */
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { FIXTURES, runCli } from "../helpers.ts";
import { CropsVerifyReportSchema } from "../../envs/crops/replay/verify-schema.ts";

const SAMPLE = join(FIXTURES, "crops", "sample");

describe("the crops verify report's JSON Schema", () => {
  const s = runCli(["schema", "crops-verify"]);
  const schema = JSON.parse(s.stdout);
  const validate = new Ajv2020({ strict: false, allErrors: true }).compile(schema);

  it("is printed by `georeplay schema crops-verify` (draft 2020-12, titled, kinds enumerated)", () => {
    expect(s.code, s.stderr).toBe(0);
    expect(schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    expect(schema.title).toBe("georeplay: `georeplay verify --json` output on a crops run");
    expect(schema.properties.mismatches.items.properties.kind.enum).toEqual([
      "view",
      "thumb",
      "box_mapping",
      "state",
      "shaping",
      "outcome",
      "advantage",
      "group_start",
    ]);
  });

  it.each([
    ["eval", 0, 0],
    ["train", 0, 0],
    ["eval-corrupted", 1, 3],
  ])("the sample's %s report validates (exit %i, %i findings)", (run, code, findings) => {
    const r = runCli(["verify", join(SAMPLE, run), "--dataset", SAMPLE, "--json", "--no-progress"]);
    expect(r.code, r.stderr).toBe(code);
    const report = JSON.parse(r.stdout);
    expect(report.mismatches).toHaveLength(findings);
    expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
    expect(CropsVerifyReportSchema.strict().safeParse(report).success).toBe(true);
  });

  it("rejects a report with an unknown finding kind (the schema is not vacuous)", () => {
    const r = JSON.parse(runCli(["verify", join(SAMPLE, "eval-corrupted"), "--dataset", SAMPLE, "--json", "--no-progress"]).stdout);
    r.mismatches[0].kind = "colour";
    expect(validate(r)).toBe(false);
  });
});
