/**
 * Paints a video's piped frames and writes each straight from Skia's buffer
 * into ffmpeg's pipe, on whichever thread runs it (the painter's worker, or
 * the main thread when running from sources). One thread owning both ends
 * means no copy of a frame into shared memory, and no other thread woken per
 * frame to feed the pipe (measured on Trieste: the render spends ~0.3 CPU-s
 * less end to end, and ~30 MB less at its peak). On any failure or abort,
 * ffmpeg is killed and its output removed before this rejects.
 */
import { openRawEncoder, type RawEncoderOptions } from "../../ffmpeg/raw-encoder.ts";
import type { VideoSpec } from "../../../video/compositions.ts";
import type { Scene } from "../../../video/scene/types.ts";
import type { TextPlan } from "../../../video/text/layouter.ts";
import type { DeferredImage } from "../shared/encode-options.ts";
import { paintFrames } from "./paint-frames.ts";
import type { AheadRing } from "./views-ahead.ts";

/** One video's painting and encoding: everything the painter's thread is handed (structured-cloneable). */
export interface PaintJob {
  spec: VideoSpec;
  /** The frames to paint and pipe, in order (pipedFrames: one per run of equal frames). */
  frames: number[];
  publicDir: string;
  text: TextPlan;
  deferred: DeferredImage[];
  /** The encoder, writing to a temp path the caller renames into place. */
  encoder: RawEncoderOptions;
}

export interface PaintIntoEncoderOptions {
  /** Views reprojected ahead by another thread (their order: inPaintOrder's). */
  ahead?: AheadRing;
  signal?: AbortSignal;
  /** ffmpeg has been started (its pid, for whoever must kill it should this thread die). */
  onEncoder?: (pid: number) => void;
  /** A frame has been taken by ffmpeg's pipe. */
  onFrame?: (frame: number) => void;
  /** Called after each frame (the worker collects its garbage there). */
  breather?: () => Promise<void>;
  /** Scenes already built while planning, by frame (the others are built as they are painted); taken out as painted. */
  scenes?: Map<number, Scene>;
}

export async function paintIntoEncoder(job: PaintJob, o: PaintIntoEncoderOptions = {}): Promise<void> {
  const encoder = openRawEncoder(job.encoder);
  if (encoder.pid !== undefined) o.onEncoder?.(encoder.pid);
  const aborted = () => void encoder.abort();
  o.signal?.addEventListener("abort", aborted, { once: true });
  try {
    for await (const f of paintFrames(job.spec, job.frames, {
      publicDir: job.publicDir,
      text: job.text,
      deferred: job.deferred,
      ahead: o.ahead,
      signal: o.signal,
      scenes: o.scenes,
    })) {
      // Awaited before the next frame is painted: while this thread paints, its event loop cannot
      // feed the pipe, so a write left pending would stall after the pipe's first few hundred KB.
      await encoder.write(f.rgba);
      o.onFrame?.(f.frame);
      await o.breather?.();
    }
    if (o.signal?.aborted) throw o.signal.reason;
    await encoder.finish();
  } catch (e) {
    await encoder.abort();
    throw e;
  } finally {
    o.signal?.removeEventListener("abort", aborted);
  }
}
