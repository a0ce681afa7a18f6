/**
 * GeoGuesser's compositions as the core registry knows them (video/env-compositions.ts): one
 * episode (Rollout), two side by side on one turn-aligned clock (Compare), a GRPO group's
 * siblings in a grid on one clock (Group). Their ids are the names videos and the Remotion
 * bundle have always used. No validator here: a painter's thread loads this (studio.ts has the schemas).
 */
import type { EnvComposition, VideoProps } from "../../../video/env-compositions.ts";
import { outputSize } from "../../../video/scene/output-size.ts";
import type { RolloutProps } from "./rollout/props.ts";
import { rolloutScene } from "./rollout/scene.ts";
import type { CompareProps } from "./compare/props.ts";
import { compareClock } from "./compare/clock.ts";
import { compareScene } from "./compare/scene.ts";
import type { GroupProps } from "./group/props.ts";
import { groupClock } from "./group/clock.ts";
import { groupScene } from "./group/scene.ts";

/** GeoGuesser's videos, typed: what its film and page code build and read. */
export type GeoVideoSpec =
  { composition: "Rollout"; props: RolloutProps } | { composition: "Compare"; props: CompareProps } | { composition: "Group"; props: GroupProps };

const rollout = (p: VideoProps) => p as unknown as RolloutProps;
const compare = (p: VideoProps) => p as unknown as CompareProps;
const group = (p: VideoProps) => p as unknown as GroupProps;

export const ROLLOUT: EnvComposition = {
  frames: (p) => rollout(p).totalFrames,
  fps: (p) => rollout(p).fps,
  size: outputSize,
  scene: (p, frame, tx) => rolloutScene(rollout(p), frame, tx),
};

export const COMPARE: EnvComposition = {
  frames: (p) => compareClock(compare(p)).totalFrames,
  fps: (p) => compareClock(compare(p)).fps,
  size: outputSize,
  scene: (p, frame, tx) => compareScene(compare(p), frame, tx),
};

export const GROUP: EnvComposition = {
  frames: (p) => groupClock(group(p)).totalFrames,
  fps: (p) => groupClock(group(p)).fps,
  size: outputSize,
  scene: (p, frame, tx) => groupScene(group(p), frame, tx),
};

/** Every GeoGuesser composition by id, for the seam to register. */
export const GEOGUESSER_COMPOSITIONS: Record<GeoVideoSpec["composition"], EnvComposition> = { Rollout: ROLLOUT, Compare: COMPARE, Group: GROUP };
