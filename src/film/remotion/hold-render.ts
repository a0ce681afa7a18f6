/**
 * Hold-aware video render: each run of equal frames (equal scenes) is
 * screenshotted once by Remotion's renderFrames and
 * written to the encoder once per video frame of the run. The images the
 * encoder gets are the ones a full render would take for those frames.
 */
import { renderFrames, selectComposition, type HeadlessBrowser, type CancelSignal } from "@remotion/renderer";
import type { FrameRun } from "../../ffmpeg/raw-encoder.ts";
import { openFrameEncoder } from "../../ffmpeg/image-encoder.ts";
import { DEFAULT_REMOTION_PRESET, type CompositionId, type CompositionProps } from "./types.ts";
import type { X264Preset } from "../../ffmpeg/x264.ts";

/** What Remotion needs to reach the bundle and the browser (a session's). */
export interface RemotionTarget {
  serveUrl: string;
  port: number;
  puppeteerInstance: HeadlessBrowser;
  browserExecutable: string;
  chromeMode: "chrome-for-testing" | "headless-shell";
  logLevel: "error";
}

export interface HoldRenderOptions {
  composition: CompositionId;
  props: CompositionProps;
  /** Where the MP4 goes (the caller makes it atomic). */
  outputLocation: string;
  /** Runs of equal frames (frame-runs.ts): the first of each is screenshotted, the encoder repeats it. */
  runs: FrameRun[];
  concurrency?: number;
  x264Preset?: X264Preset;
  /** Screenshot format handed to the encoder; jpeg (quality 80) is what renderMedia uses. */
  imageFormat?: "jpeg" | "png";
  jpegQuality?: number;
  cancelSignal?: CancelSignal;
  /** Video frames encoded so far (repeats included). */
  onProgress?: (encodedFrames: number, totalFrames: number) => void;
  /** Every image handed to the encoder, with the video frames it stands for (tests compare them). */
  onImage?: (image: Buffer, firstFrame: number, length: number) => void;
}

export interface HoldRenderResult {
  frames: number;
  /** Screenshots taken. */
  rendered: number;
  ms: number;
}

export async function renderHoldAware(target: RemotionTarget, m: HoldRenderOptions): Promise<HoldRenderResult> {
  const composition = await selectComposition({ ...target, id: m.composition, inputProps: m.props });
  const t0 = performance.now();
  const runs = m.runs;
  const imageFormat = m.imageFormat ?? "jpeg";
  const encoder = openFrameEncoder({
    out: m.outputLocation,
    width: composition.width,
    height: composition.height,
    fps: composition.fps,
    imageFormat,
    x264Preset: m.x264Preset ?? DEFAULT_REMOTION_PRESET,
  });
  // Cancelled: kill ffmpeg now, not when renderFrames gets round to rejecting. An interrupted
  // process may exit first, and an ffmpeg left with a closed stdin would finish the file.
  m.cancelSignal?.(() => void encoder.abort());
  // Screenshots may arrive out of order with concurrency > 1: keep them until their turn.
  const waiting = new Map<number, Buffer>();
  const starts = runs.map((r) => r.start);
  const runOf = new Map(starts.map((f, i) => [f, i]));
  let next = 0;
  let encoded = 0;
  let chain: Promise<void> = Promise.resolve();
  const flush = async () => {
    while (next < starts.length && waiting.has(starts[next])) {
      const f = starts[next];
      const image = waiting.get(f)!;
      waiting.delete(f);
      const { length } = runs[next];
      m.onImage?.(image, f, length);
      await encoder.write(image, length);
      encoded += length;
      next++;
      m.onProgress?.(encoded, composition.durationInFrames);
    }
  };
  try {
    await renderFrames({
      ...target,
      composition,
      inputProps: m.props,
      frames: starts,
      outputDir: null,
      imageFormat,
      ...(imageFormat === "jpeg" ? { jpegQuality: m.jpegQuality ?? 80 } : {}),
      concurrency: m.concurrency ?? 1,
      cancelSignal: m.cancelSignal,
      onStart: () => undefined,
      onFrameUpdate: () => undefined,
      onFrameBuffer: (buffer, frame) => {
        if (!runOf.has(frame)) return;
        waiting.set(frame, buffer);
        chain = chain.then(flush);
        return chain;
      },
    });
    await chain;
    if (next !== starts.length) throw new Error(`renderFrames returned ${next} of ${starts.length} frames`);
    await encoder.finish();
  } catch (e) {
    await encoder.abort();
    throw e;
  }
  return { frames: composition.durationInFrames, rendered: starts.length, ms: performance.now() - t0 };
}
