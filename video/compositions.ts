/**
 * A video as data: which composition, its validated props, and from them its
 * length (spec.ts) and the scene of any frame, from the composition its
 * environment registered (env-compositions.ts). Both engines (native, Remotion),
 * the page's players and the hold detection go through here.
 */
import type { TextLayouter } from "./text/layouter.ts";
import type { Scene } from "./scene/types.ts";
import type { VideoSpec } from "./spec.ts";
import { envComposition } from "./env-compositions.ts";

export { videoFrames, videoFps, videoSize, type VideoSpec } from "./spec.ts";
export { registerEnvComposition, type EnvComposition, type EnvVideo, type VideoProps } from "./env-compositions.ts";

export function sceneAt(v: VideoSpec, frame: number, tx: TextLayouter): Scene {
  return envComposition(v.composition).scene(v.props, frame, tx);
}

export type { Scene } from "./scene/types.ts";
