/**
 * One Remotion render session (the `--engine remotion` path): the composition
 * bundled once (with the frame files' public dir), one Chromium, one random
 * port; stills and videos rendered from it; everything it put on disk
 * removed on close(): the bundle lives in the session's folder, and Chromium
 * gets its temp dir and profile there through a launcher script.
 */
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmdirSync, rmSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bundle } from "@remotion/bundler";
import { openBrowser, selectComposition, renderMedia, renderStill, makeCancelSignal, type HeadlessBrowser } from "@remotion/renderer";
import { CHROME_MODE } from "./browser.ts";
import { videoEntryPoint } from "../../install/package-info.ts";
import { freePort } from "./free-port.ts";
import { removeDeadChromiumSingletons } from "./chromium-leftovers.ts";
import { onAbort } from "../../../replay/io/abort.ts";
import type { VideoConfig } from "remotion";
import { renderHoldAware, type HoldRenderOptions, type HoldRenderResult } from "./hold-render.ts";
import { DEFAULT_REMOTION_PRESET, type CompositionId, type CompositionProps } from "./types.ts";
import type { X264Preset } from "../../ffmpeg/x264.ts";

export interface SessionOptions {
  /** Remotion's public dir: the frame files live under it (timeline.framesDir is relative to it). */
  publicDir: string;
  browserExecutable: string;
  onBundleProgress?: (percent: number) => void;
  /** Closes the session (cancelling a render in flight) and removes its folders. */
  signal?: AbortSignal;
  /**
   * Link the public dir into the bundle instead of copying it: files written
   * there later (frame files generated while bundling, further episodes) are
   * served too.
   */
  linkPublicDir?: boolean;
}

export interface MediaOptions {
  composition: CompositionId;
  props: CompositionProps;
  /** Where Remotion writes; the caller makes it atomic. */
  outputLocation: string;
  concurrency?: number;
  frameRange?: [number, number];
  /**
   * x264 speed/size trade-off. Default "veryfast": at the same CRF it rendered the
   * Trieste episode ~13% faster than Remotion's "medium" on 2 cores (encoding competes
   * with Chromium for the CPU) with a file of about the same size.
   */
  x264Preset?: X264Preset;
  onProgress?: (p: { renderedFrames: number; encodedFrames: number; progress: number }) => void;
}

export interface RenderSession {
  readonly serveUrl: string;
  readonly port: number;
  select(id: CompositionId, props: CompositionProps): Promise<VideoConfig>;
  renderMp4(opts: MediaOptions): Promise<{ frames: number; ms: number }>;
  /** `id` as a spec names it: every registered composition is in the bundle. */
  renderStillPng(id: CompositionId, props: CompositionProps, frame: number, output: string): Promise<void>;
  /** Hold-aware render (hold-render.ts): each run of equal frames screenshotted once. */
  renderHoldAware(opts: HoldRenderOptions): Promise<HoldRenderResult>;
  close(): Promise<void>;
}

const LOG_LEVEL = "error" as const; // hides Remotion's cgroup memory warnings

export async function openSession(opts: SessionOptions): Promise<RenderSession> {
  // The bundle goes into a folder of ours; Remotion's own working folders (render dir,
  // Chromium profile) go to os.tmpdir(), and Remotion removes them itself, except an
  // empty profile folder per launch, which close() removes (only empty ones, only ours).
  const work = mkdtempSync(join(tmpdir(), "grr-"));
  const startedMs = Date.now() - 1000;
  const cancel = makeCancelSignal();
  let browser: HeadlessBrowser | null = null;
  let chromiumTmp: string | null = null;
  let closed = false;
  let rendering = 0; // renders in flight: only those are cancelled on close
  const renderCancels = new Set<() => void>();
  const close = async () => {
    if (closed) return;
    closed = true;
    offAbort();
    if (rendering > 0) cancel.cancel();
    for (const c of renderCancels) c();
    try {
      await browser?.close({ silent: true });
    } catch {
      /* already gone */
    }
    rmSync(work, { recursive: true, force: true });
    if (chromiumTmp) rmSync(chromiumTmp, { recursive: true, force: true });
    removeEmptyProfiles(startedMs);
    await removeDeadChromiumSingletons(startedMs);
  };
  // Abort: remove the folders first (synchronously), then stop Chromium.
  const offAbort = onAbort(opts.signal, async () => {
    rmSync(work, { recursive: true, force: true });
    removeRemotionAssets(startedMs);
    removeEmptyProfiles(startedMs);
    await close();
  });
  try {
    const serveUrl = await bundle({
      entryPoint: videoEntryPoint(),
      publicDir: opts.publicDir,
      outDir: join(work, "b"),
      onProgress: opts.onBundleProgress,
      symlinkPublicDir: opts.linkPublicDir ?? false,
    });
    quietFavicon(join(work, "b", "index.html"));
    const port = await freePort();
    if (closed) throw new Error("the render session was closed while bundling");
    const chromium = chromiumInFolder(opts.browserExecutable, work);
    chromiumTmp = chromium.outsideTmp;
    const browserExecutable = chromium.launcher;
    const launched = await openBrowser("chrome", { browserExecutable, chromeMode: CHROME_MODE, logLevel: LOG_LEVEL });
    if (closed) {
      // Closed (aborted) while Chromium started: it must not outlive the session.
      await launched.close({ silent: true }).catch(() => undefined);
      removeEmptyProfiles(startedMs);
      throw new Error("the render session was closed while Chromium started");
    }
    browser = launched;
    const common = {
      serveUrl,
      browserExecutable,
      chromeMode: CHROME_MODE,
      puppeteerInstance: browser,
      port,
      logLevel: LOG_LEVEL,
    };
    const select = (id: CompositionId, props: CompositionProps) => selectComposition({ ...common, id, inputProps: props });
    return {
      serveUrl,
      port,
      select,
      async renderMp4(m) {
        const composition = await select(m.composition, m.props);
        const t0 = performance.now();
        let frames = 0;
        rendering++;
        try {
          await renderMedia({
            ...common,
            composition,
            inputProps: m.props,
            codec: "h264",
            colorSpace: "bt709", // yuv420p, limited range: what browsers and players expect
            outputLocation: m.outputLocation,
            overwrite: true,
            concurrency: m.concurrency ?? 1,
            frameRange: m.frameRange ?? null,
            x264Preset: m.x264Preset ?? DEFAULT_REMOTION_PRESET,
            cancelSignal: cancel.cancelSignal,
            onProgress: (p) => {
              frames = p.renderedFrames;
              m.onProgress?.({ renderedFrames: p.renderedFrames, encodedFrames: p.encodedFrames, progress: p.progress });
            },
          });
        } finally {
          rendering--;
        }
        return { frames, ms: performance.now() - t0 };
      },
      async renderHoldAware(m) {
        const own = makeCancelSignal();
        const stop = () => own.cancel();
        renderCancels.add(stop);
        rendering++;
        try {
          return await renderHoldAware({ ...common, puppeteerInstance: browser! }, { ...m, cancelSignal: m.cancelSignal ?? own.cancelSignal });
        } finally {
          rendering--;
          renderCancels.delete(stop);
        }
      },
      async renderStillPng(id, p, frame, output) {
        const composition = await select(id, p);
        await renderStill({ ...common, composition, inputProps: p, frame, output, imageFormat: "png", overwrite: true });
      },
      close,
    };
  } catch (e) {
    await close();
    rmSync(work, { recursive: true, force: true }); // again: a bundle finishing after an abort wrote into it
    throw e;
  }
}

/**
 * Chromium asks the render server for /favicon.ico on every tab; under load that request
 * sometimes fails and Remotion prints the browser's "Failed to load resource" error, noise
 * in an otherwise silent render. An inline empty icon (data:,) means the request is never made.
 */
function quietFavicon(indexHtml: string): void {
  try {
    const html = readFileSync(indexHtml, "utf8");
    const quiet = html.replace(/(<link[^>]*rel="icon"[^>]*href=")[^"]*(")/, "$1data:,$2");
    if (quiet !== html) writeFileSync(indexHtml, quiet);
  } catch {
    /* the bundle layout changed: renders still work, just not quieter */
  }
}

/** Chromium profile folders Remotion created since `sinceMs` and left empty (its browser close removes the contents). */
function removeEmptyProfiles(sinceMs: number): void {
  const dir = tmpdir();
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.startsWith("puppeteer_dev_chrome_profile-"));
  } catch {
    return;
  }
  for (const n of names) {
    try {
      const p = join(dir, n);
      if (statSync(p).mtimeMs >= sinceMs) rmdirSync(p); // fails, harmlessly, unless empty
    } catch {
      /* not empty, or gone */
    }
  }
}

/**
 * Chromium keeps its singleton socket in a folder under its TMPDIR and may leave it behind
 * when it is stopped, and its profile in the folder Remotion made under os.tmpdir(). A
 * two-line launcher gives Chromium (and only Chromium) a temp dir and a profile inside the
 * session's folder, so close() removes them with the rest, without touching this
 * process's environment. Unix socket paths are limited to 107 bytes: a long session path
 * falls back to a private folder under /tmp.
 */
function chromiumInFolder(executable: string, work: string): { launcher: string; outsideTmp: string | null } {
  let tmp = join(work, "t");
  if (tmp.length > 48) tmp = mkdtempSync("/tmp/grr-t-");
  mkdirSync(tmp, { recursive: true });
  const launcher = join(work, "chromium");
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  // The last --user-data-dir wins: Chromium's profile lives in the session folder too, and the
  // one Remotion made in os.tmpdir() stays empty (removed on close, or on abort mid-launch).
  const profile = join(work, "profile");
  writeFileSync(launcher, `#!/bin/sh\nTMPDIR=${quote(tmp)} exec ${quote(executable)} "$@" --user-data-dir=${quote(profile)}\n`);
  chmodSync(launcher, 0o755);
  return { launcher, outsideTmp: tmp.startsWith(work) ? null : tmp };
}

/**
 * On abort only: Remotion's per-render asset folders (remotion-v<version>-assets*) in the temp
 * dir, created since the session started. A finished render removes its own; an interrupted
 * one may not get the chance before the process exits.
 */
function removeRemotionAssets(sinceMs: number): void {
  const dir = tmpdir();
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => /^remotion-v[\d.]+-assets/.test(n));
  } catch {
    return;
  }
  for (const n of names) {
    try {
      const p = join(dir, n);
      if (statSync(p).mtimeMs >= sinceMs) rmSync(p, { recursive: true, force: true });
    } catch {
      /* gone already */
    }
  }
}
