/**
 * Example-rollout episodes: no camera trajectory and no hashes, so nothing is
 * re-rendered or verified. The recorded images become the frame files (view
 * JPEGs at the viewport size are copied byte for byte; maps and other sizes
 * are transcoded to JPEG at the viewport size) and crossfade into each other.
 */
import { join } from "node:path";
import { GeoreplayError, errorMessage } from "../../../../replay/io/errors.ts";
import { writeAtomic } from "../../../../replay/io/atomic.ts";
import { TaskIndex } from "../tasks/task-index.ts";
import type { TaskRow } from "../schema/task.ts";
import { PlanError } from "../plan/segments.ts";
import { planSlideshow } from "../plan/slideshow.ts";
import { buildTimeline } from "./build-timeline.ts";
import { sha256 } from "../render/frame-file.ts";
import { recordedFrame, RECORDED_FRAME_TAG } from "./recorded-frame.ts";
import type { FoundEpisode } from "./find-episode.ts";
import { fileSha, framesDirFor, framesResult, withFrameOutput } from "./output.ts";
import type { FramesOptions, FramesResult } from "./frames-types.ts";

const emptyViews = { checked: 0, match: 0, resolved: 0, mismatch: 0 };

export async function generateSlideshow(found: FoundEpisode, opts: FramesOptions, cfg: { fps: number; size: number }): Promise<FramesResult> {
  const { episode, file, line } = found;
  const images = found.images ?? [];
  const where = `${file}:${line}: episode ${episode.episode_id}`;
  const warnings: string[] = [];
  const warn = (m: string) => {
    warnings.push(m);
    opts.onWarning?.(m);
  };
  const overwritten = images.length > 0 && !images[0].trustworthy;
  if (overwritten) {
    warn(
      `${where}: a later episode of task ${episode.task.index} in the same folder overwrote this episode's image files; the slideshow shows that episode's images, not this one's`,
    );
  }
  for (const im of images)
    if (im.nameMismatch) warn(`${where}: turn ${im.turn}: the trace names another image file than ${im.path}; the naming rule's file is shown`);

  // Every recorded image must exist; its bytes identify identical images.
  const sourceSha = new Map<string, string>();
  const missing: string[] = [];
  for (const im of images) {
    const sha = fileSha(im.path);
    if (sha) sourceSha.set(im.path, sha);
    else missing.push(`${where}: turn ${im.turn}: recorded image ${im.path} is missing or unreadable`);
  }
  if (missing.length) throw new GeoreplayError(missing.join("\n"));

  let plan;
  try {
    plan = planSlideshow(episode, images, (p) => sourceSha.get(p)!, { fps: cfg.fps });
  } catch (e) {
    if (e instanceof PlanError) throw new GeoreplayError(`${file}:${line}: ${e.message}`);
    throw e;
  }

  // The task row is optional here: only the credit line and task id use it.
  let row: TaskRow | null = null;
  if (opts.tasks) {
    try {
      row = (await TaskIndex.open(opts.tasks).lookup(episode.task.split, episode.task.index)).row;
    } catch (e) {
      warn(`${where}: no task row for the credit line (${errorMessage(e)}); the imagery is credited without a creator`);
    }
  }

  const done = await withFrameOutput(opts, episode.episode_id, async (files) => {
    const keyframeSha = new Map<string, string | null>();
    const total = plan.jobs.length;
    let n = 0;
    let reused = 0;
    let copied = 0;
    for (const job of plan.jobs) {
      const key = `${RECORDED_FRAME_TAG}:${job.sourceSha}:${cfg.size}`;
      const prev = files.reusable(job.file, key);
      let sha: string;
      let exact: boolean;
      if (prev) {
        sha = prev.sha256;
        exact = sha === job.sourceSha;
        reused++;
      } else {
        let frame;
        try {
          frame = await recordedFrame(job.image, cfg.size);
        } catch (e) {
          throw new GeoreplayError(`${where}: turn ${job.turn}: recorded image ${job.image.path}: ${errorMessage(e)}`);
        }
        await writeAtomic(join(files.out.framesPath, job.file), frame.bytes);
        sha = sha256(frame.bytes);
        exact = frame.copied;
      }
      if (exact) copied++;
      // Byte for byte the recorded image, and that image is this episode's: only then is its sha256 a claim.
      keyframeSha.set(job.file, exact && !overwritten ? sha : null);
      files.manifest.set(job.file, { sha256: sha, key });
      n++;
      opts.onProgress?.(n, total);
    }
    const timeline = buildTimeline(plan, episode, row, {
      fps: cfg.fps,
      width: cfg.size,
      height: cfg.size,
      framesDir: framesDirFor(files.out.outDir, files.out.publicDir),
      verified: false, // nothing to verify against: example-rollout folders record no hashes
      keyframeSha,
      recordFormat: "example",
      source: "slideshow",
      imagesOverwritten: overwritten,
    });
    return { timeline, total, reused, copied };
  });
  return framesResult(
    done,
    {
      files: done.total,
      rendered: done.total - done.reused,
      reused: done.reused,
      keyframes: done.copied,
      views: emptyViews,
      recordedImages: images.length,
    },
    warnings,
  );
}
