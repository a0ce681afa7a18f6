/**
 * One episode to one MP4: frame generator (while the composition is bundled
 * and Chromium starts), hold-aware render with Remotion, rename into place. Nothing partial is ever left at
 * the output path, and every temporary folder is removed, also on failure
 * and on Ctrl-C / SIGTERM.
 */
import { statSync } from "node:fs";
import { availableParallelism } from "node:os";
import { basename, dirname, extname, join, resolve } from "node:path";
import type { FramesOptions, FramesStats } from "../../replay/frames/frames.ts";
import type { Timeline } from "../../replay/timeline/timeline-schema.ts";
import { GeoreplayError } from "../../replay/io/errors.ts";
import { openRenderer } from "./renderer.ts";
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
  /** false: screenshot every frame, even where the previous one holds (for comparisons; default true). */
  holds?: boolean;
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
  /** Frames Chromium drew (the others repeat the previous one). */
  screenshots: number;
}

/** The temp file Remotion writes to: beside the target (same file system, so rename is atomic), ending in .mp4. */
export function tempMp4For(target: string): string {
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

/**
 * One episode to one MP4 with a renderer of its own (see renderer.ts for
 * several in one process). Frame files are generated while the composition
 * is bundled and Chromium starts.
 */
export async function renderEpisodeMp4(opts: RenderEpisodeOptions): Promise<RenderEpisodeResult> {
  checkOutputPath(opts.out);
  const concurrency = opts.concurrency ?? 1;
  if (concurrency > availableParallelism()) throw new GeoreplayError(`--concurrency ${concurrency}: this machine has ${availableParallelism()} cores`);
  const renderer = openRenderer({ signal: opts.signal, onBundleProgress: (p) => opts.onProgress?.("bundle", p, 100) });
  try {
    return await renderer.renderEpisode(opts);
  } finally {
    await renderer.close();
  }
}
