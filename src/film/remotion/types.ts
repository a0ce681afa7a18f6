/** What the Remotion engine's modules share: a registered composition's id (Root.tsx registers every one) and its props. */
import type { VideoProps } from "../../../video/env-compositions.ts";
import type { X264Preset } from "../../ffmpeg/x264.ts";

export type CompositionId = string;
export type CompositionProps = VideoProps;

/** The Remotion engine's x264 preset: "veryfast" (encoding competes with Chromium for the cores). */
export const DEFAULT_REMOTION_PRESET: X264Preset = "veryfast";
