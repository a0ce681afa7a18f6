/**
 * `georeplay frames`: verify one episode's views, then render one
 * reprojection per video frame and write `timeline.json`. Eval episodes and
 * GRPO training rollouts are replayed (each verified with its record's digest
 * scheme); example-rollout episodes, which record images but no camera
 * trajectory or hashes, become a labelled slideshow (see slideshow.ts).
 *
 * The steps, each in its module, each refusing to go on when the previous
 * one failed:
 *  1. find the episode (find-episode.ts) and its task row; plan its segments;
 *  2. re-render every view the model saw with the engine's one verifier and
 *     pool, and compare with its recorded hash (verify-episode.ts); a drifted
 *     view aborts with exit 1 (unless --unverified);
 *  3. write the frame files: keyframes from the verified bytes, in-between
 *     frames on the same pool (render-frames.ts); a manifest of hashes lets a
 *     rerun reuse them; `timeline.json` last, atomically (output.ts, the
 *     skeleton replay-frames.ts and slideshow-frames.ts share).
 */
import { availableParallelism } from "node:os";
import { GeoreplayError } from "../io/errors.ts";
import { findEpisode } from "./find-episode.ts";
import { generateReplay } from "./replay-frames.ts";
import { generateSlideshow } from "./slideshow-frames.ts";
import type { FramesOptions, FramesResult } from "./frames-types.ts";

export { findEpisode, type FoundEpisode } from "./find-episode.ts";
export type { FramesOptions, FramesResult, FramesStats } from "./frames-types.ts";
export { slugFor, framesDirFor } from "./output.ts";

function checkInt(name: string, v: number, min: number, max: number): number {
  if (!Number.isInteger(v) || v < min || v > max) throw new GeoreplayError(`${name}: expected a whole number in ${min}..${max}, got ${v}`);
  return v;
}

export async function generateFrames(opts: FramesOptions): Promise<FramesResult> {
  const fps = checkInt("--fps", opts.fps ?? 30, 1, 240);
  const size = checkInt("--view", opts.view ?? 640, 16, 8192);
  const viewSize = checkInt("--view-size", opts.viewSize ?? 640, 16, 8192);
  const jobs = Math.max(1, Math.floor(opts.jobs ?? availableParallelism()));

  const found = await findEpisode(opts.episodes, opts.episode, opts.format);
  if (found.format === "example") return generateSlideshow(found, opts, { fps, size });
  if (!opts.tasks || !opts.panos) {
    throw new GeoreplayError(
      `${found.file}:${found.line}: episode ${found.episode.episode_id} is a ${found.format === "train" ? "training rollout" : "recorded eval episode"}: --tasks and --panos are needed to re-render its views`,
    );
  }
  return generateReplay(found, { ...opts, tasks: opts.tasks, panos: opts.panos }, { fps, size, viewSize, jobs });
}
