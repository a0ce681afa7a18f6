/**
 * One episode to one MP4, in two steps a batch can overlap: prepare (find
 * the episode, verify every view, write its frame files and timeline into a
 * private folder) and encode (paint and encode with the chosen engine,
 * rename into place). Nothing partial is ever left at the output path, and
 * every temporary folder is removed, also on failure and on Ctrl-C.
 */
import { join } from "node:path";
import { generateFrames, type FramesOptions, type FramesStats } from "../../replay/frames/frames.ts";
import type { Timeline } from "../../replay/timeline/timeline-schema.ts";
import type { ViewSpec } from "../../replay/render/reproject.ts";
import { RolloutPropsSchema } from "../../video/rollout/props.ts";
import type { GeoVideoSpec } from "../../video/composition.ts";
import { filmPrepared, workFolder, type EarlySpec, type FilmOptions, type PreparedVideo } from "../../../../src/film/film-prepared.ts";
import type { Size } from "../../../../src/film/size.ts";
import type { DeferredImage } from "../../../../src/film/shared/encode-options.ts";
import type { FramesResult } from "../../replay/frames/frames.ts";
import { framePath } from "../../video/parts/viewport.ts";

export interface RenderEpisodeOptions extends FilmOptions {
  episodes: string[];
  episode: string;
  /** Needed to re-render views (eval and training records); an example-rollout slideshow uses its recorded images. */
  tasks?: string;
  panos?: string;
  format?: FramesOptions["format"];
  size?: Size;
  fps?: number;
  unverified?: boolean;
  jobs?: number;
}

export interface RenderEpisodeResult {
  out: string;
  timeline: Timeline;
  /** The frame generator's counts (views checked / matched / resolved). */
  stats: FramesStats;
  size: Size;
  frames: number;
  renderMs: number;
  framesMs: number;
  /** Frames painted (the others repeat the previous one). */
  painted: number;
}

/** A frames run's deferred in-between frames, named as its timeline's scenes name them. */
export function deferredImages(gen: FramesResult): DeferredImage<ViewSpec>[] {
  return gen.deferred.map((d) => ({ src: framePath(gen.timeline.framesDir, d.file), env: "geoguesser", pano: d.pano, view: d.view }));
}

export interface PreparedEpisode extends PreparedVideo {
  spec: Extract<GeoVideoSpec, { composition: "Rollout" }>;
  deferred: DeferredImage<ViewSpec>[];
  timeline: Timeline;
  stats: FramesStats;
}

/** The frame files of one episode of a render, written to `sub` of its work folder (one rule for single and two-up videos). */
export function framesOptionsFor(
  opts: Omit<RenderEpisodeOptions, "out">,
  episode: string,
  workDir: string,
  sub: string,
  onProgress: (done: number, total: number) => void,
  onPlanned?: (provisional: Timeline) => void,
): FramesOptions {
  return {
    episodes: opts.episodes,
    episode,
    tasks: opts.tasks,
    panos: opts.panos,
    format: opts.format,
    fps: opts.fps ?? 30,
    unverified: opts.unverified ?? false,
    jobs: opts.jobs,
    publicDir: workDir,
    out: join(workDir, sub),
    onProgress,
    onWarning: opts.onWarning,
    signal: opts.signal,
    // The native painter reprojects in-between views itself; Chromium needs every file.
    deferInBetween: (opts.engine ?? "native") === "native",
    onPlanned,
  };
}

/** A single episode's spec: its timeline at the output size (1280x720 unless given). */
export function rolloutSpec(timeline: Timeline, size: Size | undefined): PreparedEpisode["spec"] {
  return { composition: "Rollout", props: RolloutPropsSchema.parse({ ...timeline, output: size ?? { width: 1280, height: 720 } }) };
}

export async function prepareEpisode(opts: Omit<RenderEpisodeOptions, "out">, early?: EarlySpec): Promise<PreparedEpisode> {
  const work = workFolder(opts.signal);
  try {
    const t0 = performance.now();
    const onPlanned = early && ((t: Timeline) => early(rolloutSpec(t, opts.size)));
    const gen = await generateFrames(framesOptionsFor(opts, opts.episode, work.dir, "e", (done, total) => opts.onProgress?.("frames", done, total), onPlanned));
    return {
      spec: rolloutSpec(gen.timeline, opts.size),
      timeline: gen.timeline,
      stats: gen.stats,
      publicDir: work.dir,
      framesMs: performance.now() - t0,
      deferred: deferredImages(gen),
      dispose: work.dispose,
    };
  } catch (e) {
    work.dispose();
    throw e;
  }
}

/** One episode to one MP4. */
export function renderEpisodeMp4(opts: RenderEpisodeOptions): Promise<RenderEpisodeResult> {
  return filmPrepared(
    opts,
    (early) => prepareEpisode(opts, early),
    (prepared, r, target) => ({
      out: target,
      timeline: prepared.timeline,
      stats: prepared.stats,
      size: { width: prepared.spec.props.output!.width, height: prepared.spec.props.output!.height },
      frames: r.frames,
      renderMs: r.ms,
      framesMs: prepared.framesMs,
      painted: r.painted,
    }),
  );
}
