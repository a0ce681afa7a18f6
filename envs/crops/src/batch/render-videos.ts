/**
 * Many crops videos at once, as a call: select (several episodes, or all), plan (frame counts
 * from the camera plans), take this shard's share, and render into a folder with the core batch
 * runner (src/batch/run-batch.ts): GeoGuesser's names, manifest, resume, posters and formats.
 */
import type { VideoFormat } from "../../../../replay/batch/manifest-schema.ts";
import { takeShard } from "../../../../replay/batch/shard.ts";
import type { Shard } from "../../../../replay/io/shard.ts";
import type { X264Preset } from "../../../../src/ffmpeg/x264.ts";
import { defaultsFor } from "../../../../src/film/render-file.ts";
import { checkBatchOptions, checkPosterCount, makeBatchFolder } from "../../../../src/batch/check-options.ts";
import { runBatch, type BatchResult } from "../../../../src/batch/run-batch.ts";
import { batchOutput, type BatchOutputOptions } from "../../../../src/batch/output-options.ts";
import { openDataset, type Dataset } from "../../replay/dataset.ts";
import { datasetFor, runFiles } from "../../replay/inputs.ts";
import {
  cropsEpisodeRef,
  cropsVideoInputs,
  listCropsCandidates,
  planCropsVideos,
  selectCropsVideos,
  type CropsCandidate,
  type CropsPlanned,
  type CropsSelection,
} from "../../replay/batch.ts";
import { CARD_S } from "../../video/props.ts";
import type { CropsJob } from "./backend.ts";

export interface PlanCropsOptions {
  /** The run: folders, episodes.jsonl or rollouts*.jsonl. */
  inputs: string[];
  /** The dataset folder; default: the run folder's parent. */
  dataset?: string;
  selection: CropsSelection;
  /** Share `index` (1-based) of `count`, balanced by frame count. */
  shard?: Shard | null;
  /** Default 30, or 10 for gif/webp. */
  fps?: number;
  format?: VideoFormat;
  signal?: AbortSignal;
}

export interface CropsBatchPlan {
  candidates: CropsCandidate[];
  planned: CropsPlanned[];
  /** The 0-based shard of each planned video (all 0 without sharding). */
  shards: number[];
  mine: CropsPlanned[];
  fps: number;
  dataset: Dataset;
}

export interface RenderCropsVideosOptions extends PlanCropsOptions, BatchOutputOptions<CropsPlanned> {
  preset?: X264Preset;
}

export interface RenderCropsVideosResult extends BatchResult {
  dir: string;
  plan: CropsBatchPlan;
}

/** The selection, planned and split into shards; nothing rendered (`--dry-run`). */
export async function planCropsBatch(o: PlanCropsOptions): Promise<CropsBatchPlan> {
  const fps = o.fps ?? (await defaultsFor(o.format ?? "mp4")).fps;
  const files = runFiles(o.inputs);
  const dataset = await openDataset(datasetFor(files, o.dataset));
  const candidates = await listCropsCandidates(files, o.signal);
  const selected = selectCropsVideos(candidates, o.selection);
  const planned = await planCropsVideos(files, selected, { fps, cardFrames: Math.round(CARD_S * fps), dataset, signal: o.signal });
  const { shards, mine } = takeShard(planned, o.shard);
  return { candidates, planned, shards, mine, fps, dataset };
}

/** Plans the selection and renders this shard's videos into `dir`; a video that fails is in `failed`, the others are written. */
export async function renderCropsVideos(o: RenderCropsVideosOptions): Promise<RenderCropsVideosResult> {
  checkBatchOptions(o);
  const format = o.format ?? "mp4";
  const defaults = await defaultsFor(format);
  const plan = await planCropsBatch({ ...o, fps: o.fps ?? defaults.fps });
  checkPosterCount(o.poster ?? null, plan.mine.length);
  const dir = makeBatchFolder(o.dir);
  // A missing ffmpeg stops the batch before any video.
  await (await import("../../../../src/film/engine.ts")).checkEngine("native");
  const { cropsBackend } = await import("./backend.ts");
  const backend = cropsBackend({ preset: o.preset });
  const size = o.size ?? defaults.size;
  const unverified = Boolean(o.unverified);
  try {
    const result = await runBatch<CropsPlanned, CropsJob>({
      videos: plan.mine,
      inputsOf: async (v) => cropsVideoInputs(v, plan.dataset),
      jobOf: (v) => ({
        inputs: o.inputs,
        episode: cropsEpisodeRef(v.sides[0], plan.candidates),
        dataset: plan.dataset.dir,
        size,
        fps: plan.fps,
        unverified,
      }),
      ...batchOutput(o, { dir, format, size, fps: plan.fps }),
      backend,
    });
    return { ...result, dir, plan };
  } finally {
    await backend.close();
  }
}
