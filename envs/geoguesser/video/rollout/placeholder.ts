/**
 * Default props when no timeline is given: a valid, empty timeline that says
 * how to get a real one (Root's calculateMetadata swaps in a timeline from the
 * public dir when there is one). Real renders always pass props.
 */
import type { RolloutProps } from "./props.ts";

export const PLACEHOLDER: RolloutProps = {
  version: 1,
  fps: 30,
  viewport: { width: 640, height: 640 },
  totalFrames: 90,
  framesDir: "",
  episode: {
    episodeId: "no timeline",
    modelName: "pass --props=public/rollouts/<slug>/timeline.json",
    split: "-",
    index: 0,
    taskId: null,
    country: null,
    attribution: { creator: null, licence: "CC-BY-SA-4.0", source: "Mapillary" },
    verified: true,
    source: "replay",
    recordFormat: "eval",
  },
  segments: [
    {
      turn: 0,
      kind: "opening",
      startFrame: 0,
      durationFrames: 90,
      frames: [],
      hud: [{ heading: 0, pitch: 0, fov: 90, stepsRemaining: null, cost: 0, frameIndex: 0, metres: 0 }],
      crossfade: null,
      motionFrames: 0,
      pins: [],
      keyframe: null,
    },
  ],
  trace: [],
  outcome: null,
};
