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
import type { VerifyOptions, VerifyReport } from "../envs/geoguesser/replay/verify/verify.ts";
import type { FramesOptions, FramesResult } from "../envs/geoguesser/replay/frames/frames.ts";
import type { EpisodeRecord } from "../envs/geoguesser/replay/formats/records.ts";
import type { InputFormat } from "../replay/formats/inputs.ts";
import type { RenderEpisodeOptions, RenderEpisodeResult } from "../envs/geoguesser/src/film/render-episode.ts";
import type { BatchPlan, PlanVideosOptions, RenderVideosOptions, RenderVideosResult } from "../envs/geoguesser/src/batch/render-videos.ts";
import type { BuildPageOptions, BuildPageResult } from "../envs/geoguesser/src/page/build.ts";
import type { Report } from "../envs/geoguesser/replay/board/report-schema.ts";
import type { GroupsReport } from "../replay/groups/groups-schema.ts";
import type { ScaleRewards } from "../replay/groups/stats.ts";

export { GeoreplayError, type ErrorKind, type Problem } from "../replay/io/errors.ts";
export {
  EpisodeSchema,
  TurnSchema,
  CameraSchema,
  OutcomeSchema,
  type Episode,
  type Turn,
  type Camera,
  type Outcome,
} from "../envs/geoguesser/replay/schema/episode.ts";
export { TaskRowSchema, type TaskRow } from "../envs/geoguesser/replay/schema/task.ts";
export { TimelineSchema, type Timeline } from "../envs/geoguesser/replay/timeline/timeline-schema.ts";
export { geoevalReward } from "../envs/geoguesser/replay/rules/reward.ts";
export type { VerifyOptions, VerifyReport, VerifiedEpisode, ViewOutcome, Shard } from "../envs/geoguesser/replay/verify/verify.ts";
export type { FramesOptions, FramesResult, FramesStats } from "../envs/geoguesser/replay/frames/frames.ts";
export type { EpisodeRecord, RecordFormat } from "../envs/geoguesser/replay/formats/records.ts";
export type { InputFormat } from "../replay/formats/inputs.ts";
export type { RenderEpisodeOptions, RenderEpisodeResult } from "../envs/geoguesser/src/film/render-episode.ts";
export type { BuildPageOptions, BuildPageResult } from "../envs/geoguesser/src/page/build.ts";
export type { BatchPlan, PlanVideosOptions, RenderVideosOptions, RenderVideosResult } from "../envs/geoguesser/src/batch/render-videos.ts";
export type { BatchProgress, VideoOutcome } from "../envs/geoguesser/src/batch/run-batch.ts";
export type { Selection } from "../envs/geoguesser/replay/batch/select.ts";
export type { PlannedVideo } from "../envs/geoguesser/replay/batch/plan.ts";
export { BatchManifestSchema, type BatchManifest, type ManifestVideo, type ManifestFailure } from "../replay/batch/manifest-schema.ts";
export { ReportSchema, type Report } from "../envs/geoguesser/replay/board/report-schema.ts";
export { GroupsReportSchema, GroupEntrySchema, StepEntrySchema, type GroupsReport, type GroupEntry, type StepEntry } from "../replay/groups/groups-schema.ts";
export { computeGroups, type RolloutNumbers } from "../replay/groups/groups.ts";
export type { ScaleRewards } from "../replay/groups/stats.ts";

/** Re-renders every recorded view and compares its digest; the report `georeplay verify --json` prints. */
export async function verify(opts: VerifyOptions): Promise<VerifyReport> {
  return (await import("../envs/geoguesser/replay/verify/verify.ts")).verifyRun(opts);
}

/** Verifies one episode, then writes one reprojection per video frame and `timeline.json`. */
export async function generateFrames(opts: FramesOptions): Promise<FramesResult> {
  return (await import("../envs/geoguesser/replay/frames/frames.ts")).generateFrames(opts);
}

/** Verifies one episode and renders it to an H.264 MP4 (painted natively and encoded by x264, or `engine: "remotion"`; written atomically). */
export async function renderMp4(opts: RenderEpisodeOptions): Promise<RenderEpisodeResult> {
  return (await import("../envs/geoguesser/src/film/render-episode.ts")).renderEpisodeMp4(opts);
}

/**
 * Many videos into one folder (what `georeplay render -o DIR/` does): the selection (episodes,
 * all, or the tasks an arm improved or regressed most), this shard's share, prepared while the
 * previous one encodes; a video that fails is listed in `failed` and the others are written.
 * Resumable through `DIR/manifest.json`; one batch per folder.
 */
export async function renderVideos(opts: RenderVideosOptions): Promise<RenderVideosResult> {
  return (await import("../envs/geoguesser/src/batch/render-videos.ts")).renderVideos(opts);
}

/** The videos a batch would render, with frame counts and shards; nothing rendered (`--dry-run`). */
export async function planBatch(opts: PlanVideosOptions): Promise<BatchPlan> {
  return (await import("../envs/geoguesser/src/batch/render-videos.ts")).planBatch(opts);
}

/** Writes one self-contained, offline HTML page of a run, every view verified on the way. */
export async function buildPage(opts: BuildPageOptions): Promise<BuildPageResult> {
  return (await import("../envs/geoguesser/src/page/build.ts")).buildPage(opts);
}

/**
 * Streams the episode records of any recording georeplay reads (eval episodes.jsonl, GRPO
 * rollouts, example-rollout and sweep folders), validated, with file and line; invalid lines
 * come as records with a problem (see `recordProblem`) rather than stopping the stream.
 */
export async function* readEpisodes(inputs: string[], opts: { format?: InputFormat } = {}): AsyncGenerator<EpisodeRecord> {
  yield* (await import("../envs/geoguesser/replay/formats/records.ts")).readEpisodeRecords(inputs, opts);
}

export { recordProblem } from "../envs/geoguesser/replay/formats/records.ts";

/**
 * A pass@k board's numbers, exactly as `geoeval report` computes them (the object
 * `georeplay report --json` prints); `formatReport` gives geoeval's text.
 */
export async function report(inputs: string[], opts: { baseline?: string; legacy?: boolean; signal?: AbortSignal } = {}): Promise<Report> {
  const board = await import("../envs/geoguesser/replay/board/index.ts");
  return board.boardReport(await board.readBoard(inputs, { signal: opts.signal }), { baseline: opts.baseline, legacy: opts.legacy });
}

/** geoeval's text for a report (current layout, or the legacy one when the report was made with `legacy`). */
export async function formatReport(r: Report): Promise<string> {
  return (await import("../envs/geoguesser/replay/board/format.ts")).formatReport(r);
}

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
