/**
 * The crops compositions as the core registry knows them (video/env-compositions.ts): the one
 * episode video, and (group.ts) a GRPO group's grid. Their props were validated when made; the
 * registry hands them back untyped.
 */
import type { EnvComposition, EnvVideo, VideoProps } from "../../../video/env-compositions.ts";
import type { CropsVideoProps } from "./props.ts";
import { cropsScene } from "./scene.ts";
import type { CropsGroupProps } from "./group-props.ts";
import { cropsGroupClock } from "./group-clock.ts";
import { cropsGroupScene } from "./group-scene.ts";

/** The ids (Remotion's rule: letters, digits, dashes). */
export const CROPS_ROLLOUT = "CropsRollout";

const props = (p: VideoProps) => p as unknown as CropsVideoProps;

export const cropsRollout: EnvComposition = {
  frames: (p) => props(p).timeline.totalFrames + props(p).cardFrames,
  fps: (p) => props(p).timeline.fps,
  size: (p) => props(p).output,
  scene: (p, frame, tx) => cropsScene(props(p), frame, tx),
};

/** A crops episode's video spec. */
export const cropsRolloutSpec = (p: CropsVideoProps): EnvVideo => ({ composition: CROPS_ROLLOUT, props: p as unknown as VideoProps });

export const CROPS_GROUP = "CropsGroup";

const group = (p: VideoProps) => p as unknown as CropsGroupProps;

export const cropsGroup: EnvComposition = {
  frames: (p) => cropsGroupClock(group(p)).totalFrames,
  fps: (p) => cropsGroupClock(group(p)).fps,
  size: (p) => group(p).output,
  scene: (p, frame, tx) => cropsGroupScene(group(p), frame, tx),
};

/** A crops group's video spec. */
export const cropsGroupSpec = (p: CropsGroupProps): EnvVideo => ({ composition: CROPS_GROUP, props: p as unknown as VideoProps });
