/** `georeplay schema`: the JSON Schemas of what georeplay reads and writes, generated from the zod schemas. */
import { Command, Argument } from "commander";
import type { SchemaName } from "../../envs/schemas.ts";

// The schemas (and everything they import: zod, the video props) load only when this command runs:
// every other command starts without them.
export function registerSchema(program: Command): void {
  program
    .command("schema")
    .summary("print the JSON Schema of episode records, task rows, timeline.json, report --json, groups --json or a crops run's verify --json")
    .description(
      "Prints JSON Schema (draft 2020-12) generated from the same zod schemas georeplay validates with,\n" +
        "so producers can validate their recordings on their side. Unknown extra fields are allowed.\n" +
        "`report` is the output of `georeplay report --json`, `groups` of `georeplay groups --json`,\n" +
        "`crops-verify` of `georeplay verify --json` on a crops run (none of the three is part of `all`).",
    )
    .addArgument(new Argument("[which]", "which schema").choices(["episode", "task", "timeline", "report", "groups", "crops-verify", "all"]).default("all"))
    .action(async (which: SchemaName | "all") => {
      const { ALL_SCHEMAS, jsonSchemaOf } = await import("../../envs/schemas.ts");
      const out = which === "all" ? Object.fromEntries(ALL_SCHEMAS.map((n) => [n, jsonSchemaOf(n)])) : jsonSchemaOf(which);
      process.stdout.write(JSON.stringify(out, null, 2) + "\n");
    });
}
