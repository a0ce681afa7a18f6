/**
 * What every environment's batch call takes for its output (beside its selection and inputs),
 * and how it becomes the runner's options: one place for the defaults (gif/webp budget 8 MB,
 * the poster's path, the generator named in the manifest).
 */
import { resolve } from "node:path";
import type { VideoFormat } from "../../replay/batch/manifest-schema.ts";
import type { Size } from "../film/size.ts";
import { packageVersion } from "../install/package-info.ts";
import type { BatchOptionsToCheck } from "./check-options.ts";
import type { BatchProgress, BatchRunOptions, BatchVideo, VideoOutcome } from "./run-batch.ts";

export interface BatchOutputOptions<V extends BatchVideo> extends BatchOptionsToCheck {
  /** The output folder (created if missing); one batch per folder. */
  dir: string;
  /** Default: the format's (1280x720, or 480x270 for gif/webp). */
  size?: Size;
  /** Render even if a view drifted (every frame then says UNVERIFIED REPLAY). */
  unverified?: boolean;
  /** Recorded in the manifest, so another generator re-renders; default "georeplay <version>". */
  generator?: string;
  signal?: AbortSignal;
  onVideo?: (o: VideoOutcome<V>) => void;
  onProgress?: (p: BatchProgress) => void;
}

type OutputPart<V extends BatchVideo> = Omit<BatchRunOptions<V, never>, "videos" | "inputsOf" | "jobOf" | "backend">;

/** The runner's output options from the call's: `format`, `size` and `fps` as already resolved, `dir` as created. */
export function batchOutput<V extends BatchVideo>(o: BatchOutputOptions<V>, at: { dir: string; format: VideoFormat; size: Size; fps: number }): OutputPart<V> {
  const animated = at.format === "gif" || at.format === "webp";
  const poster = o.poster ?? null;
  return {
    dir: at.dir,
    format: at.format,
    size: at.size,
    fps: at.fps,
    unverified: Boolean(o.unverified),
    maxMb: animated ? (o.maxMb === undefined ? 8 : o.maxMb) : null,
    poster: poster === null || poster === "beside" ? poster : resolve(poster),
    posterFrame: o.posterFrame ?? null,
    generator: o.generator ?? `georeplay ${packageVersion()}`,
    signal: o.signal ?? new AbortController().signal,
    onVideo: o.onVideo,
    onProgress: o.onProgress,
  };
}
