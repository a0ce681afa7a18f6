/**
 * One episode to one MP4, in two steps a batch can overlap: prepare (find
 * the episode, verify every view, write its frame files and timeline into a
 * private folder) and encode (paint and encode with the chosen engine,
 * rename into place). Nothing partial is ever left at the output path, and
 * every temporary folder is removed, also on failure and on Ctrl-C.
 */
import { mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, extname, join, resolve } from "node:path";
import { generateFrames, type FramesOptions, type FramesStats } from "../../envs/geoguesser/replay/frames/frames.ts";
import type { Timeline } from "../../envs/geoguesser/replay/timeline/timeline-schema.ts";
import type { ViewSpec } from "../../envs/geoguesser/replay/render/reproject.ts";
import { GeoreplayError, errorMessage } from "../../replay/io/errors.ts";
import { onAbort, throwIfAborted } from "../../replay/io/abort.ts";
import { RolloutPropsSchema } from "../../video/rollout/props.ts";
import type { VideoSpec } from "../../video/compositions.ts";
import type { X264Preset } from "../ffmpeg/x264.ts";
import { checkEngine, encodeWith, warmUp, type Engine, type EngineOptions } from "./engine.ts";
import type { Size } from "./size.ts";
import type { PainterThreads } from "./native/painter-threads.ts";
import type { DeferredImage } from "./shared/encode-options.ts";
import type { FramesResult } from "../../envs/geoguesser/replay/frames/frames.ts";
import { framePath } from "../../video/parts/viewport.ts";

export type RenderStage = "frames" | "bundle" | "render";

export interface RenderEpisodeOptions {
  episodes: string[];
  episode: string;
  /** Needed to re-render views (eval and training records); an example-rollout slideshow uses its recorded images. */
  tasks?: string;
  panos?: string;
  format?: FramesOptions["format"];
  out: string;
  size?: Size;
  fps?: number;
  unverified?: boolean;
  /** "native" (default) or "remotion". */
  engine?: Engine;
  /** x264 preset; default medium (native), veryfast (remotion). */
  preset?: X264Preset;
  /** Remotion only: Chromium tabs in parallel. */
  concurrency?: number;
  jobs?: number;
  onProgress?: (stage: RenderStage, done: number, total: number) => void;
  /** Warnings worth a user's attention (e.g. a slideshow's images were overwritten by a later episode). */
  onWarning?: (message: string) => void;
  /** false: paint every frame, even where the previous one holds (for comparisons; default true). */
  holds?: boolean;
  /** Cancels the render: workers, painter and ffmpeg stop, nothing is written, temp folders are removed; the call rejects. */
  signal?: AbortSignal;
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

export function checkOutputPath(out: string): string {
  const target = resolve(out);
  if (extname(target).toLowerCase() !== ".mp4") throw new GeoreplayError(`-o ${out}: the output must be an .mp4 file`);
  try {
    if (statSync(target).isDirectory()) throw new GeoreplayError(`-o ${out}: is a directory; give a file name such as ${join(out, "rollout.mp4")}`);
  } catch (e) {
    if (e instanceof GeoreplayError) throw e;
  }
  return target;
}

export function ensureOutputFolder(target: string, given: string): void {
  try {
    mkdirSync(dirname(target), { recursive: true });
  } catch (e) {
    throw new GeoreplayError(`-o ${given}: cannot create its folder (${errorMessage(e)})`);
  }
}

/** A video ready to encode: its spec, and the private folder its frame files are in. */
export interface PreparedVideo {
  spec: VideoSpec;
  publicDir: string;
  framesMs: number;
  /** In-between views left for the native painter to reproject (no frame files written for them). */
  deferred: DeferredImage[];
  /** Removes the frame files (idempotent). */
  dispose(): void;
}

/** A frames run's deferred in-between frames, named as its timeline's scenes name them. */
export function deferredImages(gen: FramesResult): DeferredImage<ViewSpec>[] {
  return gen.deferred.map((d) => ({ src: framePath(gen.timeline.framesDir, d.file), pano: d.pano, view: d.view }));
}

export interface PreparedEpisode extends PreparedVideo {
  spec: Extract<VideoSpec, { composition: "Rollout" }>;
  deferred: DeferredImage<ViewSpec>[];
  timeline: Timeline;
  stats: FramesStats;
}

/** A private folder for a video's frame files, removed by dispose() or on abort. */
export function workFolder(signal?: AbortSignal): { dir: string; dispose(): void } {
  const dir = mkdtempSync(join(tmpdir(), "georeplay-render-"));
  let off = () => {};
  const dispose = () => {
    off();
    rmSync(dir, { recursive: true, force: true });
  };
  off = onAbort(signal, dispose);
  return { dir, dispose };
}

/**
 * Hears a video's provisional spec (from the timelines as they will be if every view matches),
 * before its views are verified: the native painter lays the video out meanwhile.
 */
export type EarlySpec = (spec: VideoSpec) => void;

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

/** Encodes a prepared video to `target` with the chosen engine, progress reported as the render stage. */
export function encodePrepared(
  p: PreparedVideo,
  target: string,
  opts: Omit<RenderEpisodeOptions, "episodes" | "episode" | "out"> & Pick<EngineOptions, "threads">,
) {
  return encodeWith(p.spec, {
    engine: opts.engine,
    threads: opts.threads,
    publicDir: p.publicDir,
    out: target,
    preset: opts.preset,
    holds: opts.holds,
    deferred: p.deferred,
    concurrency: opts.concurrency,
    signal: opts.signal,
    onProgress: (done, total) => opts.onProgress?.("render", done, total),
    onBundleProgress: (pct) => opts.onProgress?.("bundle", pct, 100),
  });
}

/** Any prepared video to one MP4: check the target and the engine, prepare, encode, clean up. */
export async function filmPrepared<P extends PreparedVideo, R>(
  opts: Pick<RenderEpisodeOptions, "out" | "engine"> & Omit<RenderEpisodeOptions, "episodes" | "episode" | "out">,
  prepare: (early: EarlySpec | undefined) => Promise<P>,
  result: (prepared: P, encoded: { frames: number; ms: number; painted: number }, target: string) => R,
): Promise<R> {
  const target = checkOutputPath(opts.out);
  await checkEngine(opts.engine);
  // The engine loads while the views are verified (the encode closes what it was handed).
  const threads = await warmUp(opts.engine);
  try {
    let prepared: P;
    try {
      prepared = await prepare(threads ? earlyPlan(threads, opts) : undefined);
    } catch (e) {
      // Cancelling removes the work folder under the preparation: a write it had in flight then
      // fails, but what the caller is told is why it stopped.
      throwIfAborted(opts.signal);
      throw e;
    }
    try {
      ensureOutputFolder(target, opts.out);
      return result(prepared, await encodePrepared(prepared, target, { ...opts, threads }), target);
    } finally {
      prepared.dispose();
    }
  } finally {
    await threads?.close();
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

/**
 * Has the painter lay out the provisional spec while the views are verified (a machine's other
 * core is otherwise idle then). The encode asks for the final spec's plan and gets this one when
 * the two paint alike (painter-threads.ts); a failure here is left for that request to report.
 */
function earlyPlan(threads: PainterThreads, opts: Pick<RenderEpisodeOptions, "holds">): EarlySpec {
  return (spec) => void threads.plan({ spec, holds: opts.holds ?? true, images: true }).catch(() => undefined);
}
