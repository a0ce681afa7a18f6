/**
 * Raw RGBA frames into ffmpeg's libx264: CRF 18, yuv420p, bt709 (limited
 * range, tagged), +faststart. Only the first frame of each run of equal
 * frames crosses the pipe and the colour conversion: setpts places it at
 * its run's start and the fps filter repeats it until the next one, so x264
 * gets every video frame. Writes respect the pipe's back-pressure. The MP4
 * is written to the path given (the caller renames it into place), and
 * abort() kills ffmpeg and removes it.
 */
import { rmSync } from "node:fs";
import { GeoreplayError } from "../../replay/io/errors.ts";
import { resolveFfmpeg } from "./find.ts";
import { startFfmpeg } from "./process.ts";
import { DEFAULT_PRESET, x264Threads, type X264Preset } from "./x264.ts";

/** A run of equal video frames: painted once, repeated by the encoder. */
export interface FrameRun {
  start: number;
  length: number;
}

export interface RawEncoderOptions {
  out: string;
  width: number;
  height: number;
  fps: number;
  /** The video's runs of equal frames, in order (frame-runs.ts); one image is written per run. */
  runs: FrameRun[];
  preset?: X264Preset;
  crf?: number;
}

/** The frames written to ffmpeg: each run's start, and the last frame again when the last run holds (the fps filter repeats up to the last timestamp it sees). */
export function pipedFrames(runs: FrameRun[]): number[] {
  const starts = runs.map((r) => r.start);
  const last = runs[runs.length - 1];
  if (last && last.length > 1) starts.push(last.start + last.length - 1);
  return starts;
}

/**
 * setpts's expression: the n-th piped frame's video frame number, as
 * n plus the frames the earlier runs repeat (a sum of steps, one per run that holds).
 */
export function runsPtsExpr(runs: FrameRun[]): string {
  const piped = pipedFrames(runs);
  const terms = ["N"];
  for (let n = 1; n < piped.length; n++) {
    const extra = piped[n] - piped[n - 1] - 1;
    if (extra > 0) terms.push(`gte(N\\,${n})*${extra}`);
  }
  return terms.join("+");
}

/** ffmpeg's arguments, in one place so tests and benchmarks see exactly what runs. */
export function rawEncoderArgs(o: RawEncoderOptions): string[] {
  const preset = o.preset ?? DEFAULT_PRESET;
  return [
    ...["-hide_banner", "-loglevel", "error", "-nostdin"],
    ...["-f", "rawvideo", "-pix_fmt", "rgba", "-s", `${o.width}x${o.height}`, "-r", String(o.fps), "-i", "pipe:0"],
    ...["-an", "-c:v", "libx264", "-preset", preset, "-threads", String(x264Threads(preset)), "-crf", String(o.crf ?? 18)],
    ...["-vf", `scale=out_color_matrix=bt709:out_range=tv,setpts=(${runsPtsExpr(o.runs)})/(${o.fps}*TB),fps=${o.fps}`, "-pix_fmt", "yuv420p"],
    ...["-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709", "-color_range", "tv"],
    ...["-video_track_timescale", "90000", "-map_metadata", "-1", "-movflags", "+faststart", "-f", "mp4", "-y", o.out],
  ];
}

export interface RawEncoder {
  /** ffmpeg's process id: whoever owns the encoder's thread can kill it should that thread die. */
  readonly pid: number | undefined;
  /** Writes the next piped frame (pipedFrames: one per run); resolves once the pipe has taken its bytes. */
  write(frame: Uint8Array): Promise<void>;
  /** Closes the input and waits for a complete file. */
  finish(): Promise<void>;
  /** Kills ffmpeg and removes its output (idempotent); resolves once ffmpeg is gone. */
  abort(): Promise<void>;
}

export function openRawEncoder(o: RawEncoderOptions): RawEncoder {
  const proc = startFfmpeg(resolveFfmpeg().path, rawEncoderArgs(o), { stdin: true });
  let aborted = false;
  return {
    pid: proc.pid,
    async write(frame) {
      if (aborted) throw new GeoreplayError("the encoder was aborted");
      await proc.write(frame);
    },
    finish: () => proc.finish(),
    async abort() {
      if (aborted) return;
      aborted = true;
      await proc.kill();
      rmSync(o.out, { force: true });
    },
  };
}
