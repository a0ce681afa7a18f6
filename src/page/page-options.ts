/**
 * What `buildPage` takes and gives, shared by the run page (build.ts) and the
 * board page (board/build.ts) without either importing the other.
 */
import type { VerifyProgress, ProblemEntry, VerifyReport } from "../../replay/verify/verify.ts";
import type { InputFormat } from "../../replay/formats/inputs.ts";

export interface BuildPageOptions {
  /** Eval episodes.jsonl, GRPO rollouts*.jsonl, example-rollout folders or sweep folders. */
  episodes: string[];
  /** Needed to re-render eval and training episodes (not for example-rollout folders). */
  tasks?: string;
  panos?: string;
  /** Overrides format detection. */
  format?: InputFormat;
  /**
   * Write the page even when the run could not be read completely (invalid or
   * unreadable records, missing task rows or panoramas), listing the problems
   * at the top. Without it nothing is written in that case.
   */
  partial?: boolean;
  out: string;
  /** Longest side of the embedded views, px (default 320). */
  imageSize?: number;
  jobs?: number;
  title?: string;
  /** Board pages: at most this many MB of exact zoom views (fov <= 45, the verified bytes); 0 = none (default DEFAULT_EXACT_MB). */
  exactZoomsMb?: number;
  /** false (`--no-player`): no in-page video player, and none of the panoramas, fonts and timelines it embeds. */
  player?: boolean;
  /** A board page: geoeval's tables, paired against this arm, per-task deltas and a compare view (see board/build.ts). */
  baseline?: string;
  onProgress?: (p: VerifyProgress) => void;
  /** Cancels the build: nothing is written, temp files are removed, the call rejects. */
  signal?: AbortSignal;
}

export interface BuildPageResult {
  out: string;
  /** False when the run could not be read completely and --partial was not given: nothing was written. */
  written: boolean;
  /** The page was written although the run could not be read completely (--partial). */
  partial: boolean;
  /** Size of the written page (0 when nothing was written). */
  bytes: number;
  episodes: number;
  formats: { eval: number; train: number; example: number };
  /** View turns re-rendered and checked. */
  views: number;
  /** Distinct images stored in the page. */
  images: number;
  /** Example-rollout image files: referenced and checked to exist and decode. */
  recordedImages: { checked: number; ok: number };
  checked: number;
  match: number;
  resolved: number;
  mismatch: number;
  /** What kept part of the run from being read or checked (exit 2). */
  errors: ProblemEntry[];
  /** Episodes that errored in the environment (nothing to replay; listed in the page). */
  erroredEpisodes: ProblemEntry[];
  warnings: ProblemEntry[];
  /** A board page (a sweep or board folder, or --baseline): its images are panoramas. */
  board?: boolean;
}

/**
 * Default budget of a board page's exact zoom views, MB: about 40% of the
 * generated 12,800-episode board page (40 MB), keeping it under its 60 MB goal.
 */
export const DEFAULT_EXACT_MB = 16;

/** A build's result before the page is written (nothing written yet), from the verifier's report. */
export function unwrittenResult(
  out: string,
  run: VerifyReport,
  counts: { episodes: number; views: number; images: number },
  errors: ProblemEntry[],
): BuildPageResult {
  return {
    out,
    written: false,
    partial: false,
    bytes: 0,
    ...counts,
    formats: run.formats,
    recordedImages: run.recorded_images,
    checked: run.checked,
    match: run.match,
    resolved: run.resolved,
    mismatch: run.mismatch,
    errors,
    erroredEpisodes: run.errored_episodes,
    warnings: run.warnings,
  };
}
