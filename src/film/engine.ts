/**
 * Which engine encodes a prepared video: "native" (the default: Skia in
 * Node, ffmpeg's libx264; no browser, no server, no licence) or "remotion"
 * (the same scenes through the Remotion composition in Chromium; needs
 * Remotion, whose licence is not open source, installed beside georeplay).
 */
import { GeoreplayError } from "../../replay/io/errors.ts";
import type { VideoSpec } from "../../video/compositions.ts";
import type { EncodeVideoOptions, EncodeVideoResult } from "./shared/encode-options.ts";
import { resolveFfmpeg } from "../ffmpeg/find.ts";
import type { PainterThreads } from "./native/painter-threads.ts";

export const ENGINES = ["native", "remotion"] as const;
export type Engine = (typeof ENGINES)[number];

export const REMOTION_VERSION = "4.0.527";
export const REMOTION_MISSING =
  "--engine remotion needs Remotion, which georeplay does not install: " +
  `npm install --save-exact remotion@${REMOTION_VERSION} @remotion/bundler@${REMOTION_VERSION} @remotion/renderer@${REMOTION_VERSION} react@19.3.1 react-dom@19.3.1 ` +
  "(and apt-get install chromium).\nRemotion's licence is not open source: free for individuals, non-profits and companies of up to 3 people; other companies need a Company License (remotion.pro). The default engine (native) needs neither.";

export interface EngineOptions extends EncodeVideoOptions {
  engine?: Engine;
  /** Remotion only: Chromium tabs in parallel. */
  concurrency?: number;
  onBundleProgress?: (percent: number) => void;
  /** Native only: the painter's threads, started by warmUp() before the video was prepared (closed by the encode). */
  threads?: PainterThreads | null;
}

/**
 * Starts, before the video is prepared, what the engine can load meanwhile:
 * for native, the painter's threads (modules, Skia, the fonts' faces), whose
 * loading then overlaps verification instead of competing with the planning
 * that comes after it. Null for remotion, and when running from sources.
 * The caller closes them should the preparation fail.
 */
export async function warmUp(engine: Engine = "native"): Promise<PainterThreads | null> {
  if (engine !== "native") return null;
  // The painter's worker only: the one that reprojects in-between views starts with the planning
  // (encodeVideo), once it is known whether there are any; started now, its loading would slow the
  // verification on a two-core machine and it would wait anyway.
  return (await import("./native/painter-threads.ts")).startPainterThreads();
}

/**
 * Checks, before any work, that the engine can run: ffmpeg for native
 * (resolved as the encoder will), Remotion installed and a Chromium for
 * remotion. A missing tool is exit 2 up front, not after every view was
 * verified and every frame file written.
 */
export async function checkEngine(engine: Engine = "native"): Promise<void> {
  resolveFfmpeg();
  if (engine === "remotion") {
    await loadRemotionEngine();
    (await import("./remotion/browser.ts")).resolveBrowser();
  }
}

export async function encodeWith(spec: VideoSpec, o: EngineOptions): Promise<EncodeVideoResult> {
  // Loaded on first use: the CLI names ENGINES in every command's options, and no command but
  // render should start up with Skia, the fonts and the scenes.
  if ((o.engine ?? "native") === "native") return (await import("./native/encode-video.ts")).encodeVideo(spec, o);
  // Chromium reads every image from publicDir: frames must have been written for it.
  if (o.deferred?.length) throw new GeoreplayError("the remotion engine needs every frame file written (prepare without deferred frames)");
  return (await loadRemotionEngine()).encodeRemotion(spec, o);
}

async function loadRemotionEngine(): Promise<typeof import("./remotion/encode-remotion.ts")> {
  try {
    return await import("./remotion/encode-remotion.ts");
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") throw new GeoreplayError(REMOTION_MISSING);
    throw e;
  }
}
