/**
 * Many videos at once, as a call: select (episodes, all, or tasks by paired
 * delta), plan (frame counts from the camera paths), take this shard's share,
 * and render into a folder with the batch runner. `georeplay render -o DIR/`
 * is this plus a progress bar, Ctrl-C and exit codes.
 */
import type { InputFormat } from "../../../../replay/formats/inputs.ts";
import type { VideoFormat } from "../../../../replay/batch/manifest-schema.ts";
import type { Candidate, Selection } from "../../replay/batch/select.ts";
import type { PlannedVideo } from "../../replay/batch/plan.ts";
import type { Engine } from "../../../../src/film/engine.ts";
import type { X264Preset } from "../../../../src/ffmpeg/x264.ts";
import { defaultsFor } from "../../../../src/film/render-file.ts";
import { checkBatchOptions, checkPosterCount, makeBatchFolder } from "../../../../src/batch/check-options.ts";
import type { BatchResult } from "./run-batch.ts";
import { batchOutput, type BatchOutputOptions } from "../../../../src/batch/output-options.ts";

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

export interface RenderVideosOptions extends PlanVideosOptions, BatchOutputOptions<PlannedVideo> {
  tasks?: string;
  panos?: string;
  engine?: Engine;
  preset?: X264Preset;
  /** Worker threads for the frame files. */
  jobs?: number;
  /** --engine remotion: Chromium tabs. */
  concurrency?: number;
  onWarning?: (message: string) => void;
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
  const { takeShard } = await import("../../../../replay/batch/shard.ts");
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
  const { shards, mine } = takeShard(planned, o.shard);
  return { candidates, planned, shards, mine, fps };
}

export { checkBatchOptions };

/** Plans the selection and renders this shard's videos into `dir`; a video that fails is in `failed`, the others are written. */
export async function renderVideos(o: RenderVideosOptions): Promise<RenderVideosResult> {
  checkBatchOptions(o);
  const format = o.format ?? "mp4";
  const defaults = await defaultsFor(format);
  const plan = await planBatch({ ...o, fps: o.fps ?? defaults.fps });
  checkPosterCount(o.poster ?? null, plan.mine.length);
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
      ...batchOutput(o, { dir, format, size: o.size ?? defaults.size, fps: plan.fps }),
      backend,
    });
    return { ...result, dir, plan };
  } finally {
    await backend.close();
  }
}
