/**
 * `props.json` beside a timeline: the Rollout props with the output size and
 * the text laid out in Node (the lines a native render draws), so Remotion
 * Studio and `npx remotion render --props` show the same lines.
 */
import { join } from "node:path";
import { writeFileAtomic } from "../../../../replay/io/atomic.ts";
import type { Timeline } from "../../replay/timeline/timeline-schema.ts";
import { RolloutPropsSchema } from "../../video/rollout/props.ts";
import { withTextPlan } from "../../../../src/film/shared/text-plan.ts";

export function writeStudioProps(outDir: string, timeline: Timeline, size: { width: number; height: number }): string {
  const props = RolloutPropsSchema.parse({ ...timeline, output: size });
  const planned = withTextPlan({ composition: "Rollout", props });
  const path = join(outDir, "props.json");
  writeFileAtomic(path, JSON.stringify(planned.props) + "\n");
  return path;
}
