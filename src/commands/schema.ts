/** `georeplay schema`: the JSON Schemas of what georeplay reads and writes, generated from the zod schemas. */
import { Command, Argument } from "commander";
import { z } from "zod";
import { EpisodeSchema } from "../../replay/schema/episode.ts";
import { TaskRowSchema } from "../../replay/schema/task.ts";
import { TimelineSchema } from "../../replay/timeline/timeline-schema.ts";
import { ReportSchema } from "../../replay/board/report-schema.ts";

const SCHEMAS = {
  episode: { schema: EpisodeSchema, title: "georeplay: eval episode record (schema_version 2), one JSONL line", io: "input" as const },
  task: { schema: TaskRowSchema, title: "georeplay: task index row, one JSONL line", io: "input" as const },
  timeline: { schema: TimelineSchema, title: "georeplay: timeline.json written by `georeplay frames`", io: "output" as const },
  report: { schema: ReportSchema, title: "georeplay: `georeplay report --json` output", io: "output" as const },
};
type Name = keyof typeof SCHEMAS;
const ALL: Name[] = ["episode", "task", "timeline"];

export function jsonSchemaOf(name: Name): Record<string, unknown> {
  const { schema, title, io } = SCHEMAS[name];
  // Refinements (e.g. "a hashed view needs camera_after") are not expressible in JSON Schema: they stay in georeplay.
  const js = z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" }) as Record<string, unknown>;
  return { ...js, title };
}

export function registerSchema(program: Command): void {
  program
    .command("schema")
    .summary("print the JSON Schema of episode records, task rows, timeline.json or report --json")
    .description(
      "Prints JSON Schema (draft 2020-12) generated from the same zod schemas georeplay validates with,\n" +
        "so producers can validate their recordings on their side. Unknown extra fields are allowed.\n" +
        "`report` is the output of `georeplay report --json` (not part of `all`).",
    )
    .addArgument(new Argument("[which]", "which schema").choices(["episode", "task", "timeline", "report", "all"]).default("all"))
    .action((which: Name | "all") => {
      // `all` keeps its historical three (its consumers match on the keys); `report` is asked for by name.
      const out = which === "all" ? Object.fromEntries(ALL.map((n) => [n, jsonSchemaOf(n)])) : jsonSchemaOf(which);
      process.stdout.write(JSON.stringify(out, null, 2) + "\n");
    });
}
