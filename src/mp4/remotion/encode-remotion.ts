/**
 * The Remotion engine (`render --engine remotion`): the same scenes, drawn by
 * the same painter on a <canvas> inside the Remotion composition in
 * Chromium, screenshotted once per run of equal scenes and encoded by
 * ffmpeg. Needs Remotion installed (its licence is not open source) and a
 * Chromium; the native engine needs neither.
 */
import { renameSync, rmSync } from "node:fs";
import { GeoreplayError, errorMessage } from "../../../replay/io/errors.ts";
import { onAbort, throwIfAborted } from "../../../replay/io/abort.ts";
import { sceneAt, videoFrames, type VideoSpec } from "../../../video/scene/index.ts";
import { planLayouter } from "../../../video/scene/text.ts";
import { nodeMeasure } from "../../native/fonts.ts";
import { withTextPlan } from "../../native/text-plan.ts";
import { tempFileFor } from "../../native/temp-file.ts";
import type { EncodeVideoOptions, EncodeVideoResult } from "../../native/encode-video.ts";
import { resolveBrowser } from "./browser.ts";
import { frameRuns } from "./frame-runs.ts";
import { openSession } from "./session.ts";
import { makeCancelSignal } from "@remotion/renderer";

export interface RemotionOptions extends EncodeVideoOptions {
  /** Chromium tabs screenshotting in parallel (1 was fastest on 2 cores). */
  concurrency?: number;
  onBundleProgress?: (percent: number) => void;
}

export async function encodeRemotion(spec: VideoSpec, o: RemotionOptions): Promise<EncodeVideoResult> {
  const browserExecutable = resolveBrowser();
  const t0 = performance.now();
  const planned = withTextPlan(spec);
  const tx = planLayouter(planned.props.text ?? {}, nodeMeasure());
  const total = videoFrames(planned);
  const runs = frameRuns(total, o.holds === false ? (f) => String(f) : (f) => JSON.stringify(sceneAt(planned, f, tx)));
  const tmp = tempFileFor(o.out);
  const cancel = makeCancelSignal();
  const offAbort = onAbort(o.signal, () => {
    cancel.cancel();
    rmSync(tmp, { force: true });
  });
  try {
    let session;
    try {
      throwIfAborted(o.signal);
      session = await openSession({ publicDir: o.publicDir, browserExecutable, signal: o.signal, onBundleProgress: o.onBundleProgress });
    } catch (e) {
      throwIfAborted(o.signal);
      throw new GeoreplayError(`could not start the Remotion renderer (bundling the composition or launching ${browserExecutable}): ${errorMessage(e)}`);
    }
    try {
      const r = await session.renderHoldAware({
        composition: planned.composition,
        props: planned.props,
        outputLocation: tmp,
        concurrency: o.concurrency ?? 1,
        runs,
        x264Preset: o.preset,
        cancelSignal: cancel.cancelSignal,
        onProgress: (done) => o.onProgress?.(done, total),
      });
      throwIfAborted(o.signal);
      renameSync(tmp, o.out);
      return { frames: total, painted: r.rendered, ms: performance.now() - t0 };
    } catch (e) {
      throwIfAborted(o.signal);
      if (e instanceof GeoreplayError) throw e;
      throw new GeoreplayError(`rendering ${o.out} with Remotion failed: ${errorMessage(e)}`);
    } finally {
      await session.close();
    }
  } finally {
    rmSync(tmp, { force: true });
    offAbort();
  }
}
