/**
 * A video as data: which composition, its validated props, and from them its
 * length (spec.ts) and the scene of any frame. Both engines (native, Remotion)
 * and the hold detection go through here.
 */
import { rolloutScene } from "../envs/geoguesser/video/rollout/scene.ts";
import { compareScene } from "../envs/geoguesser/video/compare/scene.ts";
import { groupScene } from "../envs/geoguesser/video/group/scene.ts";
import type { TextLayouter } from "./text/layouter.ts";
import type { Scene } from "./scene/types.ts";
import type { VideoSpec } from "./spec.ts";
import { envComposition } from "./env-compositions.ts";

export { videoFrames, videoFps, videoSize, type VideoSpec } from "./spec.ts";
export { registerEnvComposition, type EnvComposition, type EnvVideo } from "./env-compositions.ts";

export function sceneAt(v: VideoSpec, frame: number, tx: TextLayouter): Scene {
  if (v.composition === "Rollout") return rolloutScene(v.props, frame, tx);
  if (v.composition === "Env") return envComposition(v.env).scene(v.props, frame, tx);
  return v.composition === "Compare" ? compareScene(v.props, frame, tx) : groupScene(v.props, frame, tx);
}

export type { Scene } from "./scene/types.ts";
