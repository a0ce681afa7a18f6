/** The `render -o DIR/ --json` lines of any environment's batch (docs/json-reports.md): one per video, a summary; and --dry-run's plan lines. */
import type { ManifestVideo, VideoFormat } from "../../replay/batch/manifest-schema.ts";
import type { BatchResult, BatchVideo, VideoOutcome } from "../batch/run-batch.ts";
import { batchExitCode } from "./exit-codes.ts";

/** A batch's result with its plan: the whole selection and this shard's share. */
export interface PlannedResult extends BatchResult {
  plan: { planned: readonly unknown[]; mine: readonly unknown[] };
}

export function videoLine(r: VideoOutcome): Record<string, unknown> {
  if (r.status === "failed") {
    const v: BatchVideo = r.video;
    return {
      type: "video",
      status: "failed",
      file: r.file,
      kind: v.kind,
      episode_ids: v.sides.map((s) => s.episodeId),
      error: { kind: r.failure.kind, message: r.failure.message },
    };
  }
  const e: ManifestVideo = r.entry;
  return { type: "video", status: r.status, ...e };
}

export function planLine(v: BatchVideo, format: VideoFormat, shard: string | null) {
  return {
    type: "plan",
    file: `${v.stem}.${format}`,
    kind: v.kind,
    episode_ids: v.sides.map((s) => s.episodeId),
    arms: v.sides.map((s) => s.arm),
    passes: v.sides.map((s) => s.sample),
    task: v.task,
    frames: v.frames,
    shard,
    problem: v.problem,
  };
}

export function planSummary(planned: readonly BatchVideo[], mine: readonly BatchVideo[], shard: string | null) {
  return {
    type: "summary",
    dry_run: true,
    videos: mine.length,
    selected: planned.length,
    frames: mine.reduce((n, v) => n + (v.frames ?? 0), 0),
    shard,
  };
}

export function batchSummary(result: PlannedResult, o: { dir: string; format: VideoFormat; shard: string | null }) {
  const all = [...result.written, ...result.skipped];
  const videoSeconds = result.written.reduce((s, v) => s + v.duration_s, 0);
  return {
    type: "summary",
    dir: o.dir,
    format: o.format,
    shard: o.shard,
    selected: result.plan.planned.length,
    videos: result.plan.mine.length,
    written: result.written.length,
    skipped: result.skipped.length,
    failed: result.failed.length,
    drift: result.failed.filter((f) => f.kind === "drift").length,
    input: result.failed.filter((f) => f.kind === "input").length,
    render: result.failed.filter((f) => f.kind === "render").length,
    frames: result.written.reduce((s, v) => s + v.frames, 0),
    video_s: Math.round(videoSeconds * 1000) / 1000,
    wall_s: Math.round(result.wallS * 10) / 10,
    realtime: result.wallS > 0 ? Math.round((videoSeconds / result.wallS) * 100) / 100 : null,
    bytes: all.reduce((s, v) => s + v.bytes, 0),
    exit_code: batchExitCode(result.failed),
  };
}
