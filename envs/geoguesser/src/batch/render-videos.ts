/**
 * Many videos at once, as a call: select (episodes, all, or tasks by paired
 * delta), plan (frame counts from the camera paths), take this shard's share,
 * and render into a folder with the batch runner. `georeplay render -o DIR/`
 * is this plus a progress bar, Ctrl-C and exit codes.
 */
import { resolve } from "node:path";
import type { InputFormat } from "../../../../replay/formats/inputs.ts";
import type { VideoFormat } from "../../../../replay/batch/manifest-schema.ts";
import type { Candidate, Selection } from "../../replay/batch/select.ts";
import type { PlannedVideo } from "../../replay/batch/plan.ts";
import type { Engine } from "../../../../src/film/engine.ts";
import { packageVersion } from "../../../../src/install/package-info.ts";
import type { X264Preset } from "../../../../src/ffmpeg/x264.ts";
import type { Size } from "../../../../src/film/size.ts";
import { defaultsFor } from "../../../../src/film/render-file.ts";
import { checkBatchOptions, checkPosterCount, makeBatchFolder } from "../../../../src/batch/check-options.ts";
import type { BatchProgress, BatchResult, VideoOutcome } from "./run-batch.ts";

export interface PlanVideosOptions {
  /** The recordings (eval episodes.jsonl, training rollouts, example-rollout or sweep folders). */
  episodes: string[];
  inputFormat?: InputFormat;
  selection: Selection;
  /** Share `index` (1-based) of `count`, balanced by frame count; the same split on every machine. */
  shard?: { index: number; count: number } | null;
  /** Video frames per second (frame counts depend on it); default 30, or 10 for gif/webp. */
  fps?: number;
  format?: VideoFormat;
  signal?: AbortSignal;
  /** Board notes (dropped unscored episodes) from a delta selection. */
  onNote?: (message: string) => void;
}

export interface BatchPlan {
  /** Every replayable episode of the inputs. */
  candidates: Candidate[];
  /** The whole selection, in order. */
  planned: PlannedVideo[];
  /** The 0-based shard of each planned video (all 0 without sharding). */
  shards: number[];
  /** This shard's videos. */
  mine: PlannedVideo[];
  fps: number;
}

export interface RenderVideosOptions extends PlanVideosOptions {
  tasks?: string;
  panos?: string;
  /** The output folder (created if missing); one batch per folder. */
  dir: string;
  /** Default 1280x720, or 480x270 for gif/webp. */
  size?: Size;
  /** Render even if a view drifted (every frame then says UNVERIFIED REPLAY). */
  unverified?: boolean;
  /** gif/webp: budget per file in MB (default 8); null for none. */
  maxMb?: number | null;
  /** null: no poster; "beside": `<name>.png` beside each video; else this file (one video). */
  poster?: null | "beside" | string;
  /** 0-based frame for the poster; default the last (the score card). */
  posterFrame?: number | null;
  engine?: Engine;
  preset?: X264Preset;
  /** Worker threads for the frame files. */
  jobs?: number;
  /** --engine remotion: Chromium tabs. */
  concurrency?: number;
  /** Recorded in the manifest, so another generator re-renders; default "georeplay <version>". */
  generator?: string;
  onWarning?: (message: string) => void;
  onVideo?: (o: VideoOutcome) => void;
  onProgress?: (p: BatchProgress) => void;
}

export interface RenderVideosResult extends BatchResult {
  dir: string;
  plan: BatchPlan;
}

/** The selection, planned and split into shards; nothing rendered (`--dry-run`). */
export async function planBatch(o: PlanVideosOptions): Promise<BatchPlan> {
  const fps = o.fps ?? (await defaultsFor(o.format ?? "mp4")).fps;
  const { listCandidates, planVideos } = await import("../../replay/batch/plan.ts");
  const { selectVideos } = await import("../../replay/batch/select.ts");
  const { assignShards } = await import("../../replay/batch/shard.ts");
  const candidates = await listCandidates(o.episodes, o.inputFormat, o.signal);
  let report;
  if (o.selection.by === "delta") {
    const { readBoard, boardReport } = await import("../../replay/board/index.ts");
    const board = await readBoard(o.episodes, { signal: o.signal });
    for (const note of board.notes) o.onNote?.(note);
    report = boardReport(board, { baseline: o.selection.baseline });
  }
  const selected = selectVideos(candidates, o.selection, report);
  const planned = await planVideos(o.episodes, selected, { fps, format: o.inputFormat, signal: o.signal });
  const shards = o.shard ? assignShards(planned, o.shard.count) : planned.map(() => 0);
  const mine = o.shard ? planned.filter((_, i) => shards[i] === o.shard!.index - 1) : planned;
  return { candidates, planned, shards, mine, fps };
}

export { checkBatchOptions };

/** Plans the selection and renders this shard's videos into `dir`; a video that fails is in `failed`, the others are written. */
export async function renderVideos(o: RenderVideosOptions): Promise<RenderVideosResult> {
  checkBatchOptions(o);
  const format = o.format ?? "mp4";
  const animated = format === "gif" || format === "webp";
  const defaults = await defaultsFor(format);
  const plan = await planBatch({ ...o, fps: o.fps ?? defaults.fps });
  const poster = o.poster ?? null;
  checkPosterCount(poster, plan.mine.length);
  const dir = makeBatchFolder(o.dir);
  // A missing ffmpeg (or Remotion/Chromium for the remotion engine) stops the batch before any video.
  await (await import("../../../../src/film/engine.ts")).checkEngine(o.engine);
  const { engineBackend } = await import("./backend.ts");
  const { runBatch } = await import("./run-batch.ts");
  const backend = engineBackend({ engine: o.engine, preset: o.preset, jobs: o.jobs, concurrency: o.concurrency, onWarning: o.onWarning });
  try {
    const result = await runBatch({
      episodes: o.episodes,
      tasks: o.tasks,
      panos: o.panos,
      inputFormat: o.inputFormat,
      candidates: plan.candidates,
      videos: plan.mine,
      dir,
      format,
      size: o.size ?? defaults.size,
      fps: plan.fps,
      unverified: Boolean(o.unverified),
      maxMb: animated ? (o.maxMb === undefined ? 8 : o.maxMb) : null,
      poster: poster === null || poster === "beside" ? poster : resolve(poster),
      posterFrame: o.posterFrame ?? null,
      backend,
      generator: o.generator ?? `georeplay ${packageVersion()}`,
      signal: o.signal ?? new AbortController().signal,
      onVideo: o.onVideo,
      onProgress: o.onProgress,
    });
    return { ...result, dir, plan };
  } finally {
    await backend.close();
  }
}
