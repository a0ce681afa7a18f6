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
import { defaultJobs } from "../../../../replay/verify/jobs.ts";
import { GeoreplayError } from "../../../../replay/io/errors.ts";
import { findEpisode, type FoundEpisode } from "./find-episode.ts";
import { generateReplay, prepareReplay, writeReplay, type PreparedReplay, type ReplayConfig } from "./replay-frames.ts";
import { generateSlideshow } from "./slideshow-frames.ts";
import type { FramesOptions, FramesResult } from "./frames-types.ts";

export { findEpisode, type FoundEpisode } from "./find-episode.ts";
export type { FramesOptions, FramesResult, FramesStats } from "./frames-types.ts";
export { slugFor, framesDirFor } from "./output.ts";

function checkInt(name: string, v: number, min: number, max: number): number {
  if (!Number.isInteger(v) || v < min || v > max) throw new GeoreplayError(`${name}: expected a whole number in ${min}..${max}, got ${v}`);
  return v;
}

/** The validated numbers of a frames run. */
function configOf(opts: FramesOptions): ReplayConfig {
  return {
    fps: checkInt("--fps", opts.fps ?? 30, 1, 240),
    size: checkInt("--view", opts.view ?? 640, 16, 8192),
    viewSize: checkInt("--view-size", opts.viewSize ?? 640, 16, 8192),
    jobs: Math.max(1, Math.floor(opts.jobs ?? defaultJobs())),
  };
}

/** Replays need the task index and the panoramas; says so for this episode. */
function replayInputs(found: FoundEpisode, opts: FramesOptions): { tasks: string; panos: string } {
  if (!opts.tasks || !opts.panos) {
    throw new GeoreplayError(
      `${found.file}:${found.line}: episode ${found.episode.episode_id} is a ${found.format === "train" ? "training rollout" : "recorded eval episode"}: --tasks and --panos are needed to re-render its views (none found beside the run or one folder up: tasks.jsonl or tasks/, and panos/)`,
    );
  }
  return { tasks: opts.tasks, panos: opts.panos };
}

export async function generateFrames(opts: FramesOptions): Promise<FramesResult> {
  const cfg = configOf(opts);
  const found = await findEpisode(opts.episodes, opts.episode, opts.format);
  if (found.format === "example") return generateSlideshow(found, opts, cfg);
  return generateReplay(found, { ...opts, ...replayInputs(found, opts) }, cfg);
}

/** An episode found, planned and (for replays) verified, ready for writeFrames. */
export type PreparedEpisode = PreparedReplay | { kind: "slideshow"; found: FoundEpisode; cfg: ReplayConfig };

/**
 * Steps 1 and 2 of `generateFrames` for one episode, once: finds it (unless
 * `found` is given), plans it and verifies every view, so drift and input
 * problems throw here, before any file is written. A two-up video prepares
 * both sides, then writes each (writeFrames) without reading or checking
 * anything again.
 */
export async function prepareEpisode(opts: FramesOptions, found?: FoundEpisode): Promise<PreparedEpisode> {
  const cfg = configOf(opts);
  const f = found ?? (await findEpisode(opts.episodes, opts.episode, opts.format));
  if (f.format === "example") return { kind: "slideshow", found: f, cfg };
  return prepareReplay(f, { ...opts, ...replayInputs(f, opts) }, cfg);
}

/** Step 3 for a prepared episode: its frame files and `timeline.json` (opts: out, publicDir, progress, signal). */
export async function writeFrames(prepared: PreparedEpisode, opts: FramesOptions): Promise<FramesResult> {
  if (prepared.kind === "slideshow") return generateSlideshow(prepared.found, opts, prepared.cfg);
  return writeReplay(prepared, opts);
}
