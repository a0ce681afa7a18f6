/**
 * A warm renderer: one bundle and one Chromium for several episode renders
 * in one process (batch renders, two-up videos). Bundling and the browser
 * start in the background as soon as it is opened, so the first episode's
 * frame files (CPU-bound worker threads) are generated meanwhile.
 *
 * Each episode's frame files go into their own folder of the renderer's
 * public dir, which is linked (not copied) into the bundle, and are removed
 * once its MP4 is written. Every temp folder goes on close() or abort.
 */
import { mkdirSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { generateFrames, type FramesOptions } from "../../replay/frames/frames.ts";
import { GeoreplayError, errorMessage } from "../../replay/io/errors.ts";
import { onAbort, throwIfAborted } from "../../replay/io/abort.ts";
import { makeCancelSignal } from "@remotion/renderer";
import { resolveBrowser } from "./browser.ts";
import { openSession, type RenderSession } from "./session.ts";
import { checkOutputPath, tempMp4For, type RenderEpisodeOptions, type RenderEpisodeResult } from "./render-episode.ts";

export interface RendererOptions {
  /** Default: resolveBrowser() ($GEOREPLAY_CHROMIUM, /usr/bin/chromium). */
  browserExecutable?: string;
  /** Aborting closes the renderer: Chromium stops, renders in flight reject, temp folders are removed. */
  signal?: AbortSignal;
  onBundleProgress?: (percent: number) => void;
}

export interface Renderer {
  /** Resolves once bundle and browser are up (rejects if they cannot start). */
  ready(): Promise<RenderSession>;
  /** renderEpisodeMp4's options and result; renders run one after another. */
  renderEpisode(opts: RenderEpisodeOptions): Promise<RenderEpisodeResult>;
  close(): Promise<void>;
}

export function openRenderer(ro: RendererOptions = {}): Renderer {
  const browserExecutable = ro.browserExecutable ?? resolveBrowser();
  const work = mkdtempSync(join(tmpdir(), "georeplay-render-"));
  const publicDir = join(work, "public");
  mkdirSync(publicDir);
  let closed = false;
  const sessionP = openSession({ publicDir, linkPublicDir: true, browserExecutable, signal: ro.signal, onBundleProgress: ro.onBundleProgress }).catch(
    (e: unknown) => {
      throwIfAborted(ro.signal);
      throw new GeoreplayError(`could not start the renderer (bundling the composition or launching ${browserExecutable}): ${errorMessage(e)}`);
    },
  );
  sessionP.catch(() => undefined); // reported to whoever awaits it
  const removeWork = () => rmSync(work, { recursive: true, force: true });
  const offAbort = onAbort(ro.signal, removeWork);
  let jobs = 0;
  let queue: Promise<unknown> = Promise.resolve();

  const renderOne = async (opts: RenderEpisodeOptions): Promise<RenderEpisodeResult> => {
    const target = checkOutputPath(opts.out);
    const concurrency = opts.concurrency ?? 1;
    if (concurrency > availableParallelism()) throw new GeoreplayError(`--concurrency ${concurrency}: this machine has ${availableParallelism()} cores`);
    const size = opts.size ?? { width: 1280, height: 720 };
    try {
      mkdirSync(dirname(target), { recursive: true });
    } catch (e) {
      throw new GeoreplayError(`-o ${opts.out}: cannot create its folder (${errorMessage(e)})`);
    }
    const jobDir = join(publicDir, `e${++jobs}`);
    const tmpOut = tempMp4For(target);
    const cleanup = () => {
      rmSync(tmpOut, { force: true });
      rmSync(jobDir, { recursive: true, force: true });
    };
    const cancel = makeCancelSignal();
    const offJobAbort = onAbort(opts.signal, () => {
      cancel.cancel(); // stops this render's screenshots; the encoder is killed as renderFrames rejects
      cleanup();
    });
    try {
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
        out: jobDir,
        onProgress: (done, total) => opts.onProgress?.("frames", done, total),
        onWarning: opts.onWarning,
        signal: opts.signal,
      };
      // Frame files while bundling and launching (the first time): both wait for the other.
      const gen = await generateFrames(framesOpts);
      const framesMs = performance.now() - t0;
      throwIfAborted(opts.signal);
      opts.onProgress?.("bundle", 0, 100);
      const session = await sessionP;
      opts.onProgress?.("bundle", 100, 100);
      const timeline = gen.timeline;
      try {
        const r = await session.renderHoldAware({
          composition: "Rollout",
          props: { ...timeline, output: size },
          outputLocation: tmpOut,
          concurrency,
          holds: opts.holds ?? true,
          cancelSignal: cancel.cancelSignal,
          onProgress: (done, total) => opts.onProgress?.("render", done, total),
        });
        throwIfAborted(opts.signal);
        renameSync(tmpOut, target);
        return { out: target, timeline, stats: gen.stats, size, frames: timeline.totalFrames, renderMs: r.ms, framesMs, screenshots: r.rendered };
      } catch (e) {
        throwIfAborted(opts.signal);
        throwIfAborted(ro.signal);
        if (e instanceof GeoreplayError) throw e;
        throw new GeoreplayError(`rendering ${target} failed: ${errorMessage(e)}`);
      }
    } finally {
      cleanup();
      offJobAbort();
    }
  };

  return {
    ready: () => sessionP,
    renderEpisode(opts) {
      if (closed) return Promise.reject(new GeoreplayError("the renderer is closed"));
      // One at a time: they share the browser, and two would only compete for the cores.
      const p = queue.then(() => renderOne(opts));
      queue = p.catch(() => undefined);
      return p;
    },
    async close() {
      if (closed) return;
      closed = true;
      offAbort();
      try {
        const s = await sessionP;
        await s.close();
      } catch {
        /* never started: openSession cleaned up after itself */
      }
      removeWork();
    },
  };
}
