/** `georeplay schema`: the JSON Schemas of what georeplay reads and writes, generated from the zod schemas. */
import { Command, Argument } from "commander";
import { z } from "zod";
import { EpisodeSchema } from "../../replay/schema/episode.ts";
import { TaskRowSchema } from "../../replay/schema/task.ts";
import { TimelineSchema } from "../../replay/timeline/timeline-schema.ts";

const SCHEMAS = {
  episode: { schema: EpisodeSchema, title: "georeplay: eval episode record (schema_version 2), one JSONL line", io: "input" as const },
  task: { schema: TaskRowSchema, title: "georeplay: task index row, one JSONL line", io: "input" as const },
  timeline: { schema: TimelineSchema, title: "georeplay: timeline.json written by `georeplay frames`", io: "output" as const },
};
type Name = keyof typeof SCHEMAS;

export function jsonSchemaOf(name: Name): Record<string, unknown> {
  const { schema, title, io } = SCHEMAS[name];
  // Refinements (e.g. "a hashed view needs camera_after") are not expressible in JSON Schema: they stay in georeplay.
  const js = z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" }) as Record<string, unknown>;
  return { ...js, title };
}

export function registerSchema(program: Command): void {
  program
    .command("schema")
    .summary("print the JSON Schema of episode records, task rows or timeline.json")
    .description(
      "Prints JSON Schema (draft 2020-12) generated from the same zod schemas georeplay validates with,\n" +
        "so producers can validate their recordings on their side. Unknown extra fields are allowed.",
    )
    .addArgument(new Argument("[which]", "which schema").choices(["episode", "task", "timeline", "all"]).default("all"))
    .action((which: Name | "all") => {
      const out = which === "all" ? Object.fromEntries((Object.keys(SCHEMAS) as Name[]).map((n) => [n, jsonSchemaOf(n)])) : jsonSchemaOf(which);
      process.stdout.write(JSON.stringify(out, null, 2) + "\n");
    });
}
