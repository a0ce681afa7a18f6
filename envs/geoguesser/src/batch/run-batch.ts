/**
 * GeoGuesser's side of the batch runner (src/batch/run-batch.ts): its videos' inputs (each side's
 * record, the task index, the panoramas the video shows) and the job its engines are asked for.
 */
import type { PlannedVideo } from "../../replay/batch/plan.ts";
import { episodeRef, type Candidate } from "../../replay/batch/select.ts";
import { videoInputs } from "../../replay/batch/inputs-digest.ts";
import type { VideoFormat } from "../../../../replay/batch/manifest-schema.ts";
import type { InputFormat } from "../../../../replay/formats/inputs.ts";
import { TaskIndex } from "../../replay/tasks/task-index.ts";
import type { Size } from "../../../../src/film/size.ts";
import type { VideoBackend, VideoJob } from "./backend.ts";
import { runBatch as runCoreBatch, type BatchProgress, type BatchResult, type VideoOutcome as CoreOutcome } from "../../../../src/batch/run-batch.ts";

export type { BatchProgress, BatchResult };
export type VideoOutcome = CoreOutcome<PlannedVideo>;

export interface BatchRunOptions {
  /** The recordings, as given to the command. */
  episodes: string[];
  tasks?: string;
  panos?: string;
  inputFormat?: InputFormat;
  /** Every replayable episode of the inputs (for naming sides to the backend). */
  candidates: Candidate[];
  /** The videos to make, in order (this shard's). */
  videos: PlannedVideo[];
  dir: string;
  format: VideoFormat;
  size: Size;
  fps: number;
  unverified: boolean;
  /** GIF/WebP byte budget in MB; null for none. */
  maxMb: number | null;
  /** null: no poster; "beside": `<name>.png` beside each video; else this file (one video). */
  poster: null | "beside" | string;
  /** 0-based frame of the rendered video for the poster; null: the last (the score card). */
  posterFrame: number | null;
  backend: VideoBackend;
  generator: string;
  signal: AbortSignal;
  onVideo?: (o: VideoOutcome) => void;
  onProgress?: (p: BatchProgress) => void;
}

function safeIndex(tasks: string): TaskIndex | undefined {
  try {
    return TaskIndex.open(tasks);
  } catch {
    return undefined; // the render says what is wrong with --tasks
  }
}

/** Renders GeoGuesser's planned videos into `o.dir` with the core runner. */
export function runBatch(o: BatchRunOptions): Promise<BatchResult> {
  const index = o.tasks ? safeIndex(o.tasks) : undefined;
  return runCoreBatch<PlannedVideo, VideoJob>({
    ...o,
    inputsOf: (v) => videoInputs(v, { tasks: o.tasks, panos: o.panos, index }),
    jobOf: (v) => ({
      kind: v.kind,
      episodes: o.episodes,
      episode: episodeRef(v.sides[0], o.candidates),
      versus: v.kind === "compare" ? episodeRef(v.sides[1], o.candidates) : undefined,
      tasks: o.tasks,
      panos: o.panos,
      format: o.inputFormat,
      size: o.size,
      fps: o.fps,
      unverified: o.unverified,
    }),
  });
}
