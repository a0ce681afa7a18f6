/**
 * Any prepared video to one MP4, whichever environment prepared it: the output path checked first,
 * the engine warmed up while the views are verified, the frames painted and encoded, and nothing
 * partial left at the output path nor any temporary folder behind (also on failure and on Ctrl-C).
 */
import { mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, extname, join, resolve } from "node:path";
import { GeoreplayError, errorMessage } from "../../replay/io/errors.ts";
import { onAbort, throwIfAborted } from "../../replay/io/abort.ts";
import type { VideoSpec } from "../../video/compositions.ts";
import type { X264Preset } from "../ffmpeg/x264.ts";
import { checkEngine, encodeWith, warmUp, type Engine, type EngineOptions } from "./engine.ts";
import type { PainterThreads } from "./native/painter-threads.ts";
import type { DeferredImage } from "./shared/encode-options.ts";

export type RenderStage = "frames" | "bundle" | "render";

/** What filming any prepared video takes, whichever environment prepared it. */
export interface FilmOptions {
  out: string;
  /** "native" (default) or "remotion". */
  engine?: Engine;
  /** x264 preset; default medium (native), veryfast (remotion). */
  preset?: X264Preset;
  /** Remotion only: Chromium tabs in parallel. */
  concurrency?: number;
  onProgress?: (stage: RenderStage, done: number, total: number) => void;
  /** Warnings worth a user's attention (e.g. a slideshow's images were overwritten by a later episode). */
  onWarning?: (message: string) => void;
  /** false: paint every frame, even where the previous one holds (for comparisons; default true). */
  holds?: boolean;
  /** Cancels the render: workers, painter and ffmpeg stop, nothing is written, temp folders are removed; the call rejects. */
  signal?: AbortSignal;
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

/** Encodes a prepared video to `target` with the chosen engine, progress reported as the render stage. */
export function encodePrepared(p: PreparedVideo, target: string, opts: Omit<FilmOptions, "out"> & Pick<EngineOptions, "threads">) {
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
  opts: FilmOptions,
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

/**
 * Has the painter lay out the provisional spec while the views are verified (a machine's other
 * core is otherwise idle then). The encode asks for the final spec's plan and gets this one when
 * the two paint alike (painter-threads.ts); a failure here is left for that request to report.
 */
function earlyPlan(threads: PainterThreads, opts: Pick<FilmOptions, "holds">): EarlySpec {
  return (spec) => void threads.plan({ spec, holds: opts.holds ?? true, images: true }).catch(() => undefined);
}
