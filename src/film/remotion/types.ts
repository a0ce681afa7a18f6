/** What the Remotion engine's modules share: the compositions Root.tsx registers and their props. */
import type { RolloutProps } from "../../../envs/geoguesser/video/rollout/props.ts";
import type { CompareProps } from "../../../envs/geoguesser/video/compare/props.ts";
import type { GroupProps } from "../../../envs/geoguesser/video/group/props.ts";
import type { X264Preset } from "../../ffmpeg/x264.ts";

export type CompositionId = "Rollout" | "Compare" | "Group";
export type CompositionProps = RolloutProps | CompareProps | GroupProps;

/** The Remotion engine's x264 preset: "veryfast" (encoding competes with Chromium for the cores). */
export const DEFAULT_REMOTION_PRESET: X264Preset = "veryfast";
