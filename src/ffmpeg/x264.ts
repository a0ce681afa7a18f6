/** x264's presets (speed against size), the choice every encode of ours offers. */
export const X264_PRESETS = ["ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow"] as const;
export type X264Preset = (typeof X264_PRESETS)[number];
export const DEFAULT_PRESET: X264Preset = "medium";
