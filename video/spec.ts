/**
 * A video as data (which composition, its validated props) and what follows
 * from the props alone: its length, rate and size. Apart from the scenes
 * (compositions.ts) so that an encoder's or a player's arithmetic loads no
 * scene code.
 */
import type { RolloutProps } from "./rollout/props.ts";
import type { CompareProps } from "./compare/props.ts";
import { outputSize } from "./rollout/output-size.ts";
import { compareClock } from "./compare/clock.ts";

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
