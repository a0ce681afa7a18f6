/**
 * Eval episodes and training rollouts, in two steps: prepare (look up the
 * task row, plan the camera path, verify every view: drift stops here, before
 * any file is written), then write (the keyframes from the verified bytes, the
 * in-between frames on the pool, then the timeline). A two-up video prepares
 * both sides before writing either.
 */
import { join } from "node:path";
import { GeoreplayError, errorMessage } from "../../../../replay/io/errors.ts";
import { throwIfAborted } from "../../../../replay/io/abort.ts";
import { writeAtomic } from "../../../../replay/io/atomic.ts";
import { openPanoDir } from "../panos/store.ts";
import { TaskIndex } from "../tasks/task-index.ts";
import type { HashScheme } from "../../../../replay/render/hash.ts";
import type { ViewSpec } from "../render/reproject.ts";
import type { TaskRow } from "../schema/task.ts";
import { frameOf } from "../verify/view-jobs.ts";
import { panoPath } from "../panos/files.ts";
import { createPool, type JobPool } from "../verify/pool.ts";
import type { ViewOutcome } from "../verify/job-runner.ts";
import { planEpisode, PlanError, type EpisodePlan, type FrameJob } from "../plan/segments.ts";
import { buildTimeline } from "./build-timeline.ts";
import { sha256, type RenderTask } from "../render/frame-file.ts";
import type { FoundEpisode } from "./find-episode.ts";
import { fileSha, framesDirFor, framesResult, outputPaths, withFrameOutput } from "./output.ts";
import { verifyEpisodeViews } from "./verify-episode.ts";
import { renderInBetween, type PendingRender } from "./render-frames.ts";
import type { DeferredFrame, FramesOptions, FramesResult } from "./frames-types.ts";
import type { Timeline } from "../timeline/timeline-schema.ts";

/** Bump when the frame renderer changes so old manifests stop matching. */
const RENDERER_TAG = "r1";

export interface ReplayConfig {
  fps: number;
  size: number;
  viewSize: number;
  jobs: number;
}

/** A replay ready to be written: its task row, its plan, and every view verified. */
export interface PreparedReplay {
  kind: "replay";
  found: FoundEpisode;
  cfg: ReplayConfig;
  panos: string;
  row: TaskRow;
  plan: EpisodePlan;
  /** Verification outcome per view turn (with our render's JPEG). */
  outcomes: Map<number, ViewOutcome>;
  /** Views that drifted (only with `unverified`; otherwise preparing threw). */
  drifted: ViewOutcome[];
}

export async function generateReplay(found: FoundEpisode, opts: FramesOptions & { tasks: string; panos: string }, cfg: ReplayConfig): Promise<FramesResult> {
  const pool = createPool({ jobs: cfg.jobs, panos: opts.panos });
  try {
    return await writeReplay(await prepareReplay(found, opts, cfg, pool), opts, pool);
  } finally {
    await pool.close();
  }
}

/** Steps 1 and 2: task row, plan, and every view verified (on `pool`, or a pool of its own). */
export async function prepareReplay(
  found: FoundEpisode,
  opts: Pick<FramesOptions, "unverified" | "onPlanned" | "out" | "publicDir"> & { tasks: string; panos: string },
  cfg: ReplayConfig,
  pool?: JobPool,
): Promise<PreparedReplay> {
  const { fps, viewSize } = cfg;
  const { episode, file, line } = found;
  // Eval traces record sha256 of the JPEG bytes; training traces 16 hex digits of sha256 over their base64 text.
  const scheme: HashScheme = found.scheme ?? "sha256";

  // 1. Inputs and plan.
  const tasks = TaskIndex.open(opts.tasks);
  const panos = openPanoDir(opts.panos);
  const where = `${file}:${line}: episode ${episode.episode_id}`;
  let row: TaskRow;
  try {
    row = (await tasks.lookup(episode.task.split, episode.task.index)).row;
  } catch (e) {
    throw new GeoreplayError(`${where}: ${errorMessage(e)}`);
  }
  let plan;
  try {
    plan = planEpisode(episode, { fps });
  } catch (e) {
    if (e instanceof PlanError) throw new GeoreplayError(`${file}:${line}: ${e.message}`);
    throw e;
  }

  // The timeline as it will be if every view matches: a consumer lays the video out meanwhile.
  if (opts.onPlanned) {
    const out = outputPaths(opts, episode.episode_id);
    opts.onPlanned(replayTimeline(found, row, plan, cfg, framesDirFor(out.outDir, out.publicDir), true, new Map()));
  }

  // 2. Verify first: a drifted view stops here, before any file is written.
  const own = pool ?? createPool({ jobs: cfg.jobs, panos });
  try {
    const { outcomes, drifted } = await verifyEpisodeViews(episode, row, { pool: own, panos, viewSize, scheme, unverified: opts.unverified ?? false, where });
    return { kind: "replay", found, cfg, panos, row, plan, outcomes, drifted };
  } finally {
    if (!pool) await own.close();
  }
}

/** Step 3: the frame files, manifest and timeline of a prepared replay (on `pool`, or a pool of its own). */
export async function writeReplay(prepared: PreparedReplay, opts: FramesOptions, pool?: JobPool): Promise<FramesResult> {
  const { found, row, plan, outcomes, drifted, panos } = prepared;
  const { size, viewSize } = prepared.cfg;
  const { episode } = found;
  const where = `${found.file}:${found.line}: episode ${episode.episode_id}`;
  const verified = drifted.length === 0;
  const own = pool ?? createPool({ jobs: prepared.cfg.jobs, panos });
  const deferred: DeferredFrame[] = [];
  try {
    // 3. Frame files, manifest and timeline.
    const done = await withFrameOutput(opts, episode.episode_id, async (files) => {
      const { framesPath } = files.out;
      const panoSha = new Map<string, string>();
      const panoKey = (p: string): string => {
        let s = panoSha.get(p);
        if (!s) {
          const bytes = fileSha(p);
          if (!bytes) throw new GeoreplayError(`${where}: panorama ${p} is missing or unreadable`);
          panoSha.set(p, (s = bytes));
        }
        return s;
      };
      const taskFor = (job: FrameJob): RenderTask => {
        const frame = frameOf(
          row,
          { frame_index: job.frameIndex, heading_deg: job.pose.heading, pitch_deg: job.pose.pitch, fov_deg: job.pose.fov },
          `${where}`,
        );
        const view: ViewSpec = {
          headingDeg: job.pose.heading + (frame.compass_angle ?? 0),
          pitchDeg: job.pose.pitch,
          fovDeg: job.pose.fov,
          width: size,
          height: size,
        };
        let pano: string;
        try {
          pano = panoPath(panos, frame.image_id, job.pose.fov);
        } catch (e) {
          throw new GeoreplayError(`${where}: ${errorMessage(e)}`);
        }
        return { path: join(framesPath, job.file), pano, view };
      };

      const total = plan.jobs.length;
      let done = 0;
      let reused = 0;
      const progress = () => opts.onProgress?.(done, total);
      const keyframeSha = new Map<string, string | null>();
      const pending: PendingRender[] = [];
      let keyframes = 0;
      // 3a. Keyframes: the verified bytes themselves; everything else is queued for rendering.
      for (const job of plan.jobs) {
        if (job.kind === "keyframe") {
          keyframes++;
          const outcome = outcomes.get(job.turn);
          if (size === viewSize && outcome?.jpeg) {
            // The exact bytes the model saw (or, when unverified, our render of that view). The timeline
            // gets their sha256, whatever digest the trace recorded.
            const bytes = outcome.jpeg;
            const sha = sha256(bytes);
            keyframeSha.set(job.file, outcome.status === "mismatch" ? null : sha);
            if (files.unchanged(job.file, sha)) reused++;
            else await writeAtomic(join(framesPath, job.file), bytes);
            files.manifest.set(job.file, { sha256: sha, key: `keyframe:${sha}` });
            done++;
            progress();
            continue;
          }
          keyframeSha.set(job.file, null); // another size than the model saw: a faithful render, not its bytes
        }
        const task = taskFor(job);
        if (opts.deferInBetween) {
          // The consumer renders it: no file, no manifest entry (a later frames run renders it afresh).
          deferred.push({ file: job.file, pano: task.pano, view: task.view });
          done++;
          progress();
          continue;
        }
        const v = task.view;
        const key = `${RENDERER_TAG}:${panoKey(task.pano)}:${JSON.stringify([v.headingDeg, v.pitchDeg, v.fovDeg, v.width, v.height])}`;
        const prev = files.reusable(job.file, key);
        if (prev) {
          files.manifest.set(job.file, prev);
          reused++;
          done++;
          progress();
          continue;
        }
        pending.push({ file: job.file, task, key });
      }

      // 3b. In-between frames; the manifest stays current, so an interrupted run's frames are reused next time.
      let sinceSave = 0;
      throwIfAborted(opts.signal);
      await renderInBetween(own, pending, {
        framesPath,
        where,
        signal: opts.signal,
        onDone: (item, sha) => {
          files.manifest.set(item.file, { sha256: sha, key: item.key });
          done++;
          progress();
          if (++sinceSave >= 48) {
            sinceSave = 0;
            files.saveSoon();
          }
        },
      });
      throwIfAborted(opts.signal);

      // 3c. The timeline (written last by the skeleton).
      const timeline = replayTimeline(
        found,
        row,
        plan,
        prepared.cfg,
        framesDirFor(files.out.outDir, files.out.publicDir),
        verified,
        keyframeSha,
        drifted.map((o) => o.turn),
      );
      return { timeline, total, rendered: pending.length, reused, keyframes };
    });

    const all = [...outcomes.values()];
    return framesResult(
      done,
      {
        files: done.total,
        rendered: done.rendered,
        reused: done.reused,
        keyframes: done.keyframes,
        views: {
          checked: all.length,
          match: all.filter((o) => o.status === "match" || o.status === "resolved").length,
          resolved: all.filter((o) => o.status === "resolved").length,
          mismatch: drifted.length,
        },
        recordedImages: 0,
      },
      [],
      deferred,
    );
  } finally {
    if (!pool) await own.close();
  }
}

/** A replay's timeline: the provisional one (onPlanned) and the one written come from here alike. */
function replayTimeline(
  found: FoundEpisode,
  row: TaskRow,
  plan: EpisodePlan,
  cfg: ReplayConfig,
  framesDir: string,
  verified: boolean,
  keyframeSha: Map<string, string | null>,
  driftedTurns: readonly number[] = [],
): Timeline {
  return buildTimeline(plan, found.episode, row, {
    fps: cfg.fps,
    width: cfg.size,
    height: cfg.size,
    framesDir,
    verified,
    keyframeSha,
    driftedTurns,
    recordFormat: found.format,
    source: "replay",
  });
}
