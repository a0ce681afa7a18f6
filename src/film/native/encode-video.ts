/**
 * One video, natively: frames painted in a worker thread that writes them
 * raw into libx264 itself (paint-into-encoder.ts), the MP4 written beside
 * the target and renamed into place when complete. Cancelling stops the
 * worker and ffmpeg and leaves nothing behind.
 */
import { renameSync, rmSync } from "node:fs";
import { GeoreplayError, errorMessage } from "../../../replay/io/errors.ts";
import { throwIfAborted } from "../../../replay/io/abort.ts";
// The environments' compositions, registered before a spec's length, rate or size is read.
import "../../../envs/compositions.ts";
import { videoFps, videoFrames, videoSize, type VideoSpec } from "../../../video/spec.ts";
import { pipedFrames } from "../../ffmpeg/raw-encoder.ts";
import type { PaintJob } from "./paint-into-encoder.ts";
import { inPaintOrder } from "./views-ahead.ts";
import { startPainterThreads } from "./painter-threads.ts";
import { tempPathFor } from "../../../replay/io/atomic.ts";
import type { EncodeVideoOptions, EncodeVideoResult } from "../shared/encode-options.ts";
import type { PainterThreads } from "./painter-threads.ts";

/** `threads`: the painter's threads, started before the video was prepared (warmUp in engine.ts); closed here either way. */
export async function encodeVideo(spec: VideoSpec, o: EncodeVideoOptions & { threads?: PainterThreads | null }): Promise<EncodeVideoResult> {
  if (o.signal?.aborted) await o.threads?.close();
  throwIfAborted(o.signal);
  const t0 = performance.now();
  const total = videoFrames(spec);
  const tmp = tempPathFor(o.out);
  // Started first (unless warmUp did, before the views were verified): they load meanwhile.
  const threads = o.threads !== undefined ? o.threads : startPainterThreads();
  // It loads while the painter plans (a machine's second core is otherwise idle then).
  if (o.deferred?.length) threads?.startReprojector(o.deferred[0].env);
  try {
    // Threads started just now are still loading: this thread plans meanwhile. Started before the
    // views were verified, the painter's is ready and plans the video it will paint.
    const job = await planJob(spec, o, tmp, o.threads ? threads : null);
    const onFrame = (frame: number) => o.onProgress?.(Math.min(total, frame + 1), total);
    if (threads) await threads.paint(job, onFrame, o.signal);
    else {
      // Tests from sources paint on this thread; the painter (and its map atlas) loads only here.
      const { paintIntoEncoder } = await import("./paint-into-encoder.ts");
      await paintIntoEncoder(job, { signal: o.signal, onFrame });
    }
    throwIfAborted(o.signal);
    renameSync(tmp, o.out);
    o.onProgress?.(total, total);
    return { frames: total, painted: job.encoder.runs.length, ms: performance.now() - t0 };
  } catch (e) {
    rmSync(tmp, { force: true });
    throwIfAborted(o.signal);
    if (e instanceof GeoreplayError) throw e;
    throw new GeoreplayError(`rendering ${o.out} failed: ${errorMessage(e)}`);
  } finally {
    await threads?.close();
  }
}

/**
 * Every scene once, up front: the runs of equal frames, the text plan the painter replays, and the
 * order it shows the in-between views in. Planned on the painter's thread when given (it keeps
 * the lines and the painted frames' scenes), else here.
 */
async function planJob(spec: VideoSpec, o: EncodeVideoOptions, tmp: string, threads: PainterThreads | null): Promise<PaintJob> {
  const { width, height } = videoSize(spec);
  const holds = o.holds ?? true;
  const images = (o.deferred?.length ?? 0) > 0;
  // The painter's thread keeps the lines it laid out; plan-video.ts (Skia, fonts, scenes) is loaded
  // on this thread only when it plans itself.
  const { runs, shown, text } = threads
    ? { ...(await threads.plan({ spec, holds, images })), text: {} }
    : (await import("./plan-video.ts")).planVideo(spec, holds, images);
  return {
    spec,
    frames: pipedFrames(runs),
    publicDir: o.publicDir,
    text,
    // In the order the painter asks for them: the order they are reprojected ahead of it.
    deferred: inPaintOrder(o.deferred ?? [], shown),
    encoder: { out: tmp, width, height, fps: videoFps(spec), runs, preset: o.preset, crf: o.crf },
  };
}
