/**
 * What `generateFrames` takes and gives, in their own module so the
 * dispatcher (frames.ts) and the two generators it calls (replay-frames.ts,
 * slideshow-frames.ts) share them without importing each other.
 */
import type { InputFormat } from "../../../../replay/formats/inputs.ts";
import type { Timeline } from "../timeline/timeline-schema.ts";
import type { ViewSpec } from "../render/reproject.ts";

export interface FramesOptions {
  /** Eval episodes.jsonl, GRPO rollouts*.jsonl, example-rollout folders or sweep folders. */
  episodes: string[];
  /** episode_id, or "#n": the n-th replayable episode of the input (1-based, as `verify` counts). */
  episode: string;
  /** Needed to replay eval and training episodes; optional for example-rollout episodes (then only for the credit line). */
  tasks?: string;
  /** Needed to replay eval and training episodes; unused for example-rollout episodes. */
  panos?: string;
  /** Overrides input format detection. */
  format?: InputFormat;
  /** Output folder; default `<publicDir>/rollouts/<slug>` (slug = sanitised episode id). */
  out?: string;
  fps?: number; // 30
  view?: number; // 640: size of the frame files
  /** Size the model saw (the trace's view size); keyframes are exact bytes only when view == viewSize. */
  viewSize?: number; // 640
  unverified?: boolean;
  jobs?: number;
  publicDir?: string; // default <cwd>/public
  onProgress?: (done: number, total: number) => void;
  /** Warnings worth a user's attention, as they happen (they are also in the result). */
  onWarning?: (message: string) => void;
  /** Cancels the run: workers stop, temp files are removed, no timeline is written; the call rejects. */
  signal?: AbortSignal;
  /**
   * Replays: leave the in-between frame files unwritten and list what each
   * would hold (`FramesResult.deferred`), for a consumer that reprojects the
   * pixels itself (the native video painter: no JPEG round trip, and no
   * frame waits for all the others). Keyframes and the timeline are written
   * as always; the timeline names the deferred files too.
   */
  deferInBetween?: boolean;
  /**
   * Replays: hears the timeline as it will be written if every view matches
   * its hash (the keyframes' hashes, not known yet, are null), once the
   * camera path is planned and before any view is verified, so a consumer can
   * lay its video out while the views are checked. The run may still stop
   * (drift) or stamp the timeline unverified: compare with the final one.
   */
  onPlanned?: (provisional: Timeline) => void;
}

/** An in-between frame left unwritten (deferInBetween): the frame file it stands for, and how to render it. */
export interface DeferredFrame {
  /** The file name in the frames folder, as the timeline's views name it. */
  file: string;
  /** The panorama file to sample (hires rule applied). */
  pano: string;
  view: ViewSpec;
}

export interface FramesStats {
  files: number;
  rendered: number;
  reused: number;
  keyframes: number;
  views: { checked: number; match: number; resolved: number; mismatch: number };
  /** Slideshows: recorded images shown (0 for a replay). */
  recordedImages: number;
}

export interface FramesResult {
  timelinePath: string;
  timeline: Timeline;
  slug: string;
  outDir: string;
  stats: FramesStats;
  warnings: string[];
  /** With deferInBetween: the frames not written, in plan order; otherwise empty. */
  deferred: DeferredFrame[];
}
