/**
 * georeplay's public API: `import { verify } from "georeplay"`.
 *
 * Importing this module has no side effects: no signal handlers, no
 * environment or global library settings, and nothing heavy is loaded until
 * a call needs it (renderMp4 loads the painter and encoder, buildPage the page writer).
 * Long calls take an AbortSignal (`signal`), and every failure a caller can
 * act on is a GeoreplayError with a `kind` ("input" | "drift") and
 * structured `problems` (file, line, field, message). The CLI is a thin
 * layer over these calls that adds exit codes, progress bars and Ctrl-C.
 */
import type { GroupsReport } from "../replay/groups/groups-schema.ts";
import type { ScaleRewards } from "../replay/groups/stats.ts";

export { GeoreplayError, type ErrorKind, type Problem } from "../replay/io/errors.ts";
export type { InputFormat } from "../replay/formats/inputs.ts";
export { BatchManifestSchema, type BatchManifest, type ManifestVideo, type ManifestFailure } from "../replay/batch/manifest-schema.ts";
export { GroupsReportSchema, GroupEntrySchema, StepEntrySchema, type GroupsReport, type GroupEntry, type StepEntry } from "../replay/groups/groups-schema.ts";
export { computeGroups, type RolloutNumbers } from "../replay/groups/groups.ts";
export type { ScaleRewards } from "../replay/groups/stats.ts";
// Each environment's public API, through the seam (envs/api.ts): GeoGuesser's verify, frames, renderMp4, buildPage, report...
export * from "../envs/api.ts";

/**
 * A training run's GRPO groups (the object `georeplay groups --json` prints): rollouts*.jsonl
 * files or folders holding them, grouped as the trainer did, with TRL's advantages under
 * `scaleRewards` (default "group"), each step's frac_reward_zero_std and median group std.
 * Streams, keeping numbers only; a record without run, step, task or outcome.reward is a
 * GeoreplayError naming its file and line. `computeGroups` does the same from numbers in memory.
 */
export async function groups(inputs: string[], opts: { scaleRewards?: ScaleRewards; signal?: AbortSignal } = {}): Promise<GroupsReport> {
  const { readGroups } = await import("../replay/groups/read.ts");
  return (await readGroups(inputs, { signal: opts.signal })).report(opts.scaleRewards ?? "group");
}
