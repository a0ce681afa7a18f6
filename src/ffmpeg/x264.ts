/** x264's presets (speed against size), the choice every encode of ours offers. */
export const X264_PRESETS = ["ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow"] as const;
export type X264Preset = (typeof X264_PRESETS)[number];
export const DEFAULT_PRESET: X264Preset = "medium";

/**
 * x264's frame threads, fixed. Left to itself x264 starts 1.5 a core, and the number of frame
 * threads changes the bytes it writes (the same raw frames, the same arguments, on one core and
 * on two: different MP4s), so a video would depend on the machine that made it. Fixed per preset,
 * the same inputs give the same MP4 anywhere. The numbers rendered Trieste fastest on 2 cores
 * beside the painter: 3 (what x264 chose there, so those bytes are unchanged) up to veryfast,
 * where x264 keeps pace with the painter and more threads only compete with it; 6 from faster on,
 * where x264 is the bottleneck and more frame threads wait on each other less (medium 12.0 ->
 * 11.5 s).
 */
export function x264Threads(preset: X264Preset): number {
  return X264_PRESETS.indexOf(preset) <= X264_PRESETS.indexOf("veryfast") ? 3 : 6;
}
