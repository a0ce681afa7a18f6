/**
 * GeoGuesser's public API, as the package's entry point gives it (src/index.ts, through the seam's
 * envs/api.ts): verify, frames, MP4s, batches, pages, its records and geoeval's report. Nothing
 * heavy loads until a call needs it.
 */
import type { VerifyOptions, VerifyReport } from "./replay/verify/verify.ts";
import type { FramesOptions, FramesResult } from "./replay/frames/frames.ts";
import type { EpisodeRecord } from "./replay/formats/records.ts";
import type { InputFormat } from "../../replay/formats/inputs.ts";
import type { RenderEpisodeOptions, RenderEpisodeResult } from "./src/film/render-episode.ts";
import type { BatchPlan, PlanVideosOptions, RenderVideosOptions, RenderVideosResult } from "./src/batch/render-videos.ts";
import type { BuildPageOptions, BuildPageResult } from "./src/page/build.ts";
import type { Report } from "./replay/board/report-schema.ts";

export { EpisodeSchema, TurnSchema, CameraSchema, OutcomeSchema, type Episode, type Turn, type Camera, type Outcome } from "./replay/schema/episode.ts";
export { TaskRowSchema, type TaskRow } from "./replay/schema/task.ts";
export { TimelineSchema, type Timeline } from "./replay/timeline/timeline-schema.ts";
export { geoevalReward } from "./replay/rules/reward.ts";
export type { VerifyOptions, VerifyReport, VerifiedEpisode, ViewOutcome, Shard } from "./replay/verify/verify.ts";
export type { FramesOptions, FramesResult, FramesStats } from "./replay/frames/frames.ts";
export type { EpisodeRecord, RecordFormat } from "./replay/formats/records.ts";
export type { RenderEpisodeOptions, RenderEpisodeResult } from "./src/film/render-episode.ts";
export type { BuildPageOptions, BuildPageResult } from "./src/page/build.ts";
export type { BatchPlan, PlanVideosOptions, RenderVideosOptions, RenderVideosResult } from "./src/batch/render-videos.ts";
export type { BatchProgress, VideoOutcome } from "./src/batch/run-batch.ts";
export type { Selection } from "./replay/batch/select.ts";
export type { PlannedVideo } from "./replay/batch/plan.ts";
export { ReportSchema, type Report } from "./replay/board/report-schema.ts";

/** Re-renders every recorded view and compares its digest; the report `georeplay verify --json` prints. */
export async function verify(opts: VerifyOptions): Promise<VerifyReport> {
  return (await import("./replay/verify/verify.ts")).verifyRun(opts);
}

/** Verifies one episode, then writes one reprojection per video frame and `timeline.json`. */
export async function generateFrames(opts: FramesOptions): Promise<FramesResult> {
  return (await import("./replay/frames/frames.ts")).generateFrames(opts);
}

/** Verifies one episode and renders it to an H.264 MP4 (painted natively and encoded by x264, or `engine: "remotion"`; written atomically). */
export async function renderMp4(opts: RenderEpisodeOptions): Promise<RenderEpisodeResult> {
  return (await import("./src/film/render-episode.ts")).renderEpisodeMp4(opts);
}

/**
 * Many videos into one folder (what `georeplay render -o DIR/` does): the selection (episodes,
 * all, or the tasks an arm improved or regressed most), this shard's share, prepared while the
 * previous one encodes; a video that fails is listed in `failed` and the others are written.
 * Resumable through `DIR/manifest.json`; one batch per folder.
 */
export async function renderVideos(opts: RenderVideosOptions): Promise<RenderVideosResult> {
  return (await import("./src/batch/render-videos.ts")).renderVideos(opts);
}

/** The videos a batch would render, with frame counts and shards; nothing rendered (`--dry-run`). */
export async function planBatch(opts: PlanVideosOptions): Promise<BatchPlan> {
  return (await import("./src/batch/render-videos.ts")).planBatch(opts);
}

/** Writes one self-contained, offline HTML page of a run, every view verified on the way. */
export async function buildPage(opts: BuildPageOptions): Promise<BuildPageResult> {
  return (await import("./src/page/build.ts")).buildPage(opts);
}

/**
 * Streams the episode records of any recording georeplay reads (eval episodes.jsonl, GRPO
 * rollouts, example-rollout and sweep folders), validated, with file and line; invalid lines
 * come as records with a problem (see `recordProblem`) rather than stopping the stream.
 */
export async function* readEpisodes(inputs: string[], opts: { format?: InputFormat } = {}): AsyncGenerator<EpisodeRecord> {
  yield* (await import("./replay/formats/records.ts")).readEpisodeRecords(inputs, opts);
}

export { recordProblem } from "./replay/formats/records.ts";

/**
 * A pass@k board's numbers, exactly as `geoeval report` computes them (the object
 * `georeplay report --json` prints); `formatReport` gives geoeval's text.
 */
export async function report(inputs: string[], opts: { baseline?: string; legacy?: boolean; signal?: AbortSignal } = {}): Promise<Report> {
  const board = await import("./replay/board/index.ts");
  return board.boardReport(await board.readBoard(inputs, { signal: opts.signal }), { baseline: opts.baseline, legacy: opts.legacy });
}

/** geoeval's text for a report (current layout, or the legacy one when the report was made with `legacy`). */
export async function formatReport(r: Report): Promise<string> {
  return (await import("./replay/board/format.ts")).formatReport(r);
}
