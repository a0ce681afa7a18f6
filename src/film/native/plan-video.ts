/**
 * A video's plan for the native painter, in one pass over its scenes: the
 * runs of equal frames (ffmpeg repeats all but the first of each), the order
 * frames first show each image (the order in-between views are reprojected
 * ahead in), and the lines laid out with Skia's fonts (the painter replays
 * them). Made on the painter's thread, or on the caller's when there is none.
 */
import type { VideoSpec } from "../../../video/spec.ts";
import type { Scene } from "../../../video/scene/types.ts";
import { measuringLayouter, type TextPlan } from "../../../video/text/layouter.ts";
import { frameRuns, type FrameRun } from "../shared/frame-runs.ts";
import type { ShownImage } from "../shared/encode-options.ts";
import { nodeMeasure } from "../shared/fonts.ts";
import { readPlaces } from "../shared/map-data.ts";

export interface VideoPlan {
  runs: FrameRun[];
  /** Image sources in the order frames first show them, with the box each is drawn into (empty unless asked for). */
  shown: ShownImage[];
  text: TextPlan;
}

/** `onRun` hears the scene of each frame that starts a run (the frames the painter paints). */
export function planVideo(spec: VideoSpec, holds: boolean, images: boolean, onRun?: (frame: number, scene: Scene) => void): VideoPlan {
  const tx = measuringLayouter(nodeMeasure(), readPlaces);
  const shown: ShownImage[] = [];
  const runs = frameRuns(spec, tx, holds, images ? (src, w, h) => shown.push({ src, w, h }) : undefined, onRun);
  return { runs, shown, text: tx.plan() };
}
