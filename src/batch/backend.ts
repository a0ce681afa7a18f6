/**
 * The seam between the batch runner and an environment's video engine. The runner overlaps
 * `prepare(next)` with `encode(current)`: prepare finds and verifies the episodes and writes their
 * frame files (CPU), encode paints and encodes them (the painter's worker and ffmpeg). A job is
 * whatever the environment needs to make one video; the runner only passes it through.
 */
import type { ManifestSide } from "../../replay/batch/manifest-schema.ts";

export interface RenderedVideo {
  out: string;
  frames: number;
  fps: number;
  width: number;
  height: number;
  episodeIds: string[];
  /** Per side: every view reproduced its recorded hash (false for an --unverified drift and for slideshows). */
  verified: boolean[];
  /** Per side, for the manifest: arm, pass, replay or slideshow, view counts. */
  sides?: ManifestSide[];
}

/** Whatever a backend carries from prepare to encode; the runner only passes it through. */
export interface PreparedJob<J> {
  job: J;
}

export interface VideoBackend<J> {
  /** A short name recorded in the manifest (a change re-renders). */
  readonly name: string;
  /** CPU work that can run while the previous video encodes (find, verify, frame files). */
  prepare(job: J, signal: AbortSignal): Promise<PreparedJob<J>>;
  /** Encode a prepared job to an MP4 at `out` (atomic). */
  encode(p: PreparedJob<J>, out: string, signal: AbortSignal, onFrames?: (done: number, total: number) => void): Promise<RenderedVideo>;
  close(): Promise<void>;
}
