/**
 * Runs of equal frames: a frame whose scene equals the previous frame's is
 * the same picture (holds, a side that has guessed, the settled score
 * card). Computed once, before painting, from the scenes alone: the painter
 * paints the first frame of each run and the encoder repeats it.
 */
import { sceneAt, videoFrames, type VideoSpec } from "../../../video/compositions.ts";
import type { TextLayouter } from "../../../video/text/layouter.ts";

import type { FrameRun } from "../../ffmpeg/raw-encoder.ts";

export type { FrameRun };

export function frameRuns(spec: VideoSpec, tx: TextLayouter, holds = true): FrameRun[] {
  const runs: FrameRun[] = [];
  let prev: string | null = null;
  const total = videoFrames(spec);
  for (let f = 0; f < total; f++) {
    const key = holds ? JSON.stringify(sceneAt(spec, f, tx)) : null;
    if (key !== null && key === prev) runs[runs.length - 1].length++;
    else runs.push({ start: f, length: 1 });
    prev = key;
  }
  return runs;
}
