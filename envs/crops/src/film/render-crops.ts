/**
 * `render` of a crops (detection gym) episode: verify every view and thumbnail and write the
 * frame files (envs/crops/replay/frames.ts, into a private folder), build the video's props
 * (crops-props.ts), then paint and encode with either engine, as GeoGuesser's videos are.
 * Drift is exit 1 unless `unverified` (every frame then says UNVERIFIED REPLAY); nothing is
 * left at the output path or in temporary folders on failure.
 */
import "../../../compositions.ts";
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { cropsFrames, type CropsFramesResult } from "../../replay/frames.ts";
import { openDataset, taskOf } from "../../replay/dataset.ts";
import { datasetFor, runFiles } from "../../replay/inputs.ts";
import { cropsRolloutSpec } from "../../video/composition.ts";
import type { CropsVideoProps } from "../../video/props.ts";
import type { EnvVideo } from "../../../../video/env-compositions.ts";
import { filmPrepared, workFolder, type FilmOptions, type PreparedVideo } from "../../../../src/film/film-prepared.ts";
import { cropsVideoProps } from "./crops-props.ts";
import type { Size } from "../../../../src/film/size.ts";

export interface RenderCropsOptions extends Pick<FilmOptions, "out" | "engine" | "preset" | "holds" | "signal" | "onProgress" | "onWarning"> {
  inputs: string[];
  /** episode_id, or "#n". */
  episode: string;
  /** The dataset folder; default: the run folder's parent. */
  dataset?: string;
  size?: Size;
  fps?: number;
  unverified?: boolean;
}

export interface PreparedCrops extends PreparedVideo {
  spec: EnvVideo;
  props: CropsVideoProps;
  frames: CropsFramesResult;
}

export interface RenderCropsResult {
  out: string;
  kind: "episode" | "group";
  /** The episodes filmed (a group's in rank order). */
  episodes: string[];
  /** Those whose views drifted (only with `unverified`). */
  unverified: string[];
  /** What the report says about them, a line each. */
  lines: string[];
  size: Size;
  fps: number;
  frames: number;
  renderMs: number;
  framesMs: number;
  painted: number;
}

/** Verifies the episode and writes its frame files, thumbnails and image into a private folder; the video's spec. */
export async function prepareCrops(o: Omit<RenderCropsOptions, "out">): Promise<PreparedCrops> {
  const work = workFolder(o.signal);
  try {
    const t0 = performance.now();
    const frames = await cropsFrames({
      inputs: o.inputs,
      episode: o.episode,
      dataset: o.dataset,
      out: join(work.dir, "e"),
      fps: o.fps ?? 30,
      unverified: o.unverified ?? false,
      signal: o.signal,
      thumbs: true,
      onProgress: (done, total) => o.onProgress?.("frames", done, total),
    });
    const rec = frames.record;
    // The dataset was read and checked by cropsFrames; read again here for the ground truth and the image's file.
    const ds = await openDataset(datasetFor(runFiles(o.inputs), o.dataset));
    const task = taskOf(ds, rec.task.split, rec.task.index)!;
    const image = "frames/image.png";
    copyFileSync(join(ds.dir, task.file), join(work.dir, "e", image));
    const props = cropsVideoProps(rec, frames.timeline, ds.gt.get(rec.task.image_id) ?? [], { dir: "e", thumbs: frames.thumbFiles, image }, o.size);
    return { spec: cropsRolloutSpec(props), props, frames, publicDir: work.dir, framesMs: performance.now() - t0, deferred: [], dispose: work.dispose };
  } catch (e) {
    work.dispose();
    throw e;
  }
}

export function renderCropsMp4(o: RenderCropsOptions): Promise<RenderCropsResult> {
  return filmPrepared(
    o,
    () => prepareCrops(o),
    (p, r, target) => {
      const e = p.props.timeline.episode;
      const c = p.props.card;
      return {
        out: target,
        kind: "episode",
        episodes: [e.episodeId],
        unverified: e.verified ? [] : [e.episodeId],
        lines: [
          `episode ${e.episodeId} · score ${c.score.toFixed(4)} · ${c.matches.length} matched · ${c.misses.length} missed · ${c.falseAlarms.length} false alarm(s)`,
        ],
        size: p.props.output,
        fps: p.props.timeline.fps,
        frames: r.frames,
        renderMs: r.ms,
        framesMs: p.framesMs,
        painted: r.painted,
      };
    },
  );
}
