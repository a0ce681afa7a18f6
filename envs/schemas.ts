/** The JSON Schemas `georeplay schema` prints, generated from the zod schemas georeplay validates with. */
import { z } from "zod";
import { EpisodeSchema } from "./geoguesser/replay/schema/episode.ts";
import { TaskRowSchema } from "./geoguesser/replay/schema/task.ts";
import { TimelineSchema } from "./geoguesser/replay/timeline/timeline-schema.ts";
import { ReportSchema } from "./geoguesser/replay/board/report-schema.ts";
import { GroupsReportSchema } from "../replay/groups/groups-schema.ts";
import { CropsVerifyReportSchema } from "./crops/replay/verify-schema.ts";

const SCHEMAS = {
  episode: { schema: EpisodeSchema, title: "georeplay: eval episode record (schema_version 2), one JSONL line", io: "input" as const },
  task: { schema: TaskRowSchema, title: "georeplay: task index row, one JSONL line", io: "input" as const },
  timeline: { schema: TimelineSchema, title: "georeplay: timeline.json written by `georeplay frames`", io: "output" as const },
  report: { schema: ReportSchema, title: "georeplay: `georeplay report --json` output", io: "output" as const },
  groups: { schema: GroupsReportSchema, title: "georeplay: `georeplay groups --json` output", io: "output" as const },
  "crops-verify": { schema: CropsVerifyReportSchema, title: "georeplay: `georeplay verify --json` output on a crops run", io: "output" as const },
};
export type SchemaName = keyof typeof SCHEMAS;
/** What `schema all` prints: its historical three (consumers match on the keys); `report`, `groups` and `crops-verify` are asked for by name. */
export const ALL_SCHEMAS: SchemaName[] = ["episode", "task", "timeline"];

export function jsonSchemaOf(name: SchemaName): Record<string, unknown> {
  const { schema, title, io } = SCHEMAS[name];
  // Refinements (e.g. "a hashed view needs camera_after") are not expressible in JSON Schema: they stay in georeplay.
  const js = z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" }) as Record<string, unknown>;
  return { ...js, title };
}
