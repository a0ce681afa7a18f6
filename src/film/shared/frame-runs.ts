/**
 * Runs of equal frames: a frame whose scene equals the previous frame's is
 * the same picture (holds, a side that has guessed, the settled score
 * card). Computed once, before painting, from the scenes alone: the painter
 * paints the first frame of each run and the encoder repeats it.
 */
// The environments' compositions, registered before any scene is built.
import "../../../envs/compositions.ts";
import { sceneAt, videoFrames, type VideoSpec } from "../../../video/compositions.ts";
import { sameScene } from "../../../video/scene/same-scene.ts";
import type { Scene } from "../../../video/scene/types.ts";
import type { TextLayouter } from "../../../video/text/layouter.ts";

import type { FrameRun } from "../../ffmpeg/raw-encoder.ts";

export type { FrameRun };

/**
 * `onImage` hears each image source the first time a frame shows it, in frame order, with the box
 * it is drawn into there: the order a painter asks for them (frames of a run show the same images
 * as its first), found in the same pass instead of building the scenes again. `onRun` hears the
 * scene of each frame that starts a run (the frames a painter paints), for a painter that plans on
 * its own thread to keep.
 */
export function frameRuns(
  spec: VideoSpec,
  tx: TextLayouter,
  holds = true,
  onImage?: (src: string, w: number, h: number) => void,
  onRun?: (frame: number, scene: Scene) => void,
): FrameRun[] {
  const runs: FrameRun[] = [];
  let prev: Scene | null = null;
  const total = videoFrames(spec);
  const seen = new Set<string>();
  for (let f = 0; f < total; f++) {
    const scene = holds || onImage || onRun ? sceneAt(spec, f, tx) : null;
    if (scene && onImage)
      for (const p of scene.prims)
        if (p.t === "image" && !seen.has(p.src)) {
          seen.add(p.src);
          onImage(p.src, p.w, p.h);
        }
    if (holds && prev && scene && sameScene(scene, prev)) runs[runs.length - 1].length++;
    else {
      runs.push({ start: f, length: 1 });
      if (scene) onRun?.(f, scene);
    }
    prev = holds ? scene : null;
  }
  return runs;
}
