/**
 * One episode to one MP4: frame generator into a private public dir, bundle,
 * render with Remotion, rename into place. Nothing partial is ever left at
 * the output path, and every temporary folder is removed, also on failure
 * and on Ctrl-C / SIGTERM.
 */
import { mkdirSync, mkdtempSync, renameSync, rmSync, statSync } from "node:fs";
import { tmpdir, availableParallelism } from "node:os";
import { basename, dirname, extname, join, resolve } from "node:path";
import { generateFrames, type FramesOptions, type FramesStats } from "../../replay/frames/frames.ts";
import type { Timeline } from "../../replay/timeline/timeline-schema.ts";
import { GeoreplayError, errorMessage } from "../../replay/io/errors.ts";
import { onAbort, throwIfAborted } from "../../replay/io/abort.ts";
import { resolveBrowser } from "./browser.ts";
import { openSession } from "./session.ts";
import type { Size } from "./size.ts";

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
  concurrency?: number;
  jobs?: number;
  onProgress?: (stage: RenderStage, done: number, total: number) => void;
  /** Warnings worth a user's attention (e.g. a slideshow's images were overwritten by a later episode). */
  onWarning?: (message: string) => void;
  /** Cancels the render: Chromium and workers stop, nothing is written, temp folders are removed; the call rejects. */
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
}

/** The temp file Remotion writes to: beside the target (same file system, so rename is atomic), ending in .mp4. */
function tempMp4For(target: string): string {
  return join(dirname(target), `.${basename(target, extname(target))}.tmp-${process.pid}-${Math.random().toString(36).slice(2, 8)}.mp4`);
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

export async function renderEpisodeMp4(opts: RenderEpisodeOptions): Promise<RenderEpisodeResult> {
  const target = checkOutputPath(opts.out);
  const browserExecutable = resolveBrowser();
  const concurrency = opts.concurrency ?? 1;
  if (concurrency > availableParallelism()) throw new GeoreplayError(`--concurrency ${concurrency}: this machine has ${availableParallelism()} cores`);
  const size = opts.size ?? { width: 1280, height: 720 };
  try {
    mkdirSync(dirname(target), { recursive: true });
  } catch (e) {
    throw new GeoreplayError(`-o ${opts.out}: cannot create its folder (${errorMessage(e)})`);
  }

  const work = mkdtempSync(join(tmpdir(), "georeplay-frames-"));
  const tmpOut = tempMp4For(target);
  const cleanup = () => {
    rmSync(tmpOut, { force: true });
    rmSync(work, { recursive: true, force: true });
  };
  const offAbort = onAbort(opts.signal, cleanup);
  try {
    const publicDir = join(work, "public");
    const t0 = performance.now();
    const framesOpts: FramesOptions = {
      episodes: opts.episodes,
      episode: opts.episode,
      tasks: opts.tasks,
      panos: opts.panos,
      format: opts.format,
      fps: opts.fps ?? 30,
      unverified: opts.unverified ?? false,
      jobs: opts.jobs,
      publicDir,
      onProgress: (done, total) => opts.onProgress?.("frames", done, total),
      onWarning: opts.onWarning,
      signal: opts.signal,
    };
    const gen = await generateFrames(framesOpts);
    const framesMs = performance.now() - t0;
    const timeline = gen.timeline;

    let session;
    try {
      throwIfAborted(opts.signal);
      session = await openSession({ publicDir, browserExecutable, signal: opts.signal, onBundleProgress: (p) => opts.onProgress?.("bundle", p, 100) });
    } catch (e) {
      throwIfAborted(opts.signal);
      throw new GeoreplayError(`could not start the renderer (bundling the composition or launching ${browserExecutable}): ${errorMessage(e)}`);
    }
    try {
      const r = await session.renderMp4({
        composition: "Rollout",
        props: { ...timeline, output: size },
        outputLocation: tmpOut,
        concurrency,
        onProgress: (p) => opts.onProgress?.("render", p.renderedFrames, timeline.totalFrames),
      });
      renameSync(tmpOut, target);
      return { out: target, timeline, stats: gen.stats, size, frames: timeline.totalFrames, renderMs: r.ms, framesMs };
    } catch (e) {
      if (e instanceof GeoreplayError) throw e;
      throwIfAborted(opts.signal);
      throw new GeoreplayError(`rendering ${target} failed: ${errorMessage(e)}`);
    } finally {
      await session.close();
    }
  } finally {
    cleanup();
    offAbort();
  }
}
