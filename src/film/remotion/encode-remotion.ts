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
import { videoFrames, type VideoSpec } from "../../../video/compositions.ts";
import { planLayouter } from "../../../video/text/layouter.ts";
import { nodeMeasure } from "../shared/fonts.ts";
import { withTextPlan } from "../shared/text-plan.ts";
import { tempPathFor } from "../../../replay/io/atomic.ts";
import type { EncodeVideoOptions, EncodeVideoResult } from "../shared/encode-options.ts";
import { resolveBrowser } from "./browser.ts";
import { frameRuns } from "../shared/frame-runs.ts";
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
  const runs = frameRuns(planned, tx, o.holds ?? true);
  const tmp = tempPathFor(o.out);
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
