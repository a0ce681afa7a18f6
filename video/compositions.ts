/**
 * A video as data: which composition, its validated props, and from them its
 * length and the scene of any frame. Both engines (native, Remotion) and
 * the hold detection go through here.
 */
import type { RolloutProps } from "./rollout/props.ts";
import { outputSize } from "./rollout/output-size.ts";
import type { CompareProps } from "./compare/props.ts";
import { rolloutScene } from "./rollout/scene.ts";
import { compareClock, compareScene } from "./compare/scene.ts";
import type { TextLayouter } from "./text/layouter.ts";
import type { Scene } from "./scene/types.ts";

export type VideoSpec = { composition: "Rollout"; props: RolloutProps } | { composition: "Compare"; props: CompareProps };

export function videoFrames(v: VideoSpec): number {
  return v.composition === "Rollout" ? v.props.totalFrames : compareClock(v.props).totalFrames;
}

export function videoFps(v: VideoSpec): number {
  return v.composition === "Rollout" ? v.props.fps : compareClock(v.props).fps;
}

export function videoSize(v: VideoSpec): { width: number; height: number } {
  return outputSize(v.props);
}

export function sceneAt(v: VideoSpec, frame: number, tx: TextLayouter): Scene {
  return v.composition === "Rollout" ? rolloutScene(v.props, frame, tx) : compareScene(v.props, frame, tx);
}

export type { Scene } from "./scene/types.ts";
