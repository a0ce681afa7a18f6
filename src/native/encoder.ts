/**
 * Raw RGBA frames into ffmpeg's libx264: CRF 18, yuv420p, bt709 (limited
 * range, tagged), +faststart. Only the first frame of each run of equal
 * frames crosses the pipe and the colour conversion: setpts places it at
 * its run's start and the fps filter repeats it until the next one, so x264
 * gets every video frame. Writes respect the pipe's back-pressure. The MP4
 * is written to the path given (the caller renames it into place), and
 * abort() kills ffmpeg and removes it.
 */
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { GeoreplayError } from "../../replay/io/errors.ts";
import { resolveFfmpeg } from "../mp4/ffmpeg.ts";
import type { FrameRun } from "./frame-runs.ts";

export const X264_PRESETS = ["ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow"] as const;
export type X264Preset = (typeof X264_PRESETS)[number];
export const DEFAULT_PRESET: X264Preset = "medium";

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
  return [
    ...["-hide_banner", "-loglevel", "error", "-nostdin"],
    ...["-f", "rawvideo", "-pix_fmt", "rgba", "-s", `${o.width}x${o.height}`, "-r", String(o.fps), "-i", "pipe:0"],
    ...["-an", "-c:v", "libx264", "-preset", o.preset ?? DEFAULT_PRESET, "-crf", String(o.crf ?? 18)],
    ...["-vf", `scale=out_color_matrix=bt709:out_range=tv,setpts=(${runsPtsExpr(o.runs)})/(${o.fps}*TB),fps=${o.fps}`, "-pix_fmt", "yuv420p"],
    ...["-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709", "-color_range", "tv"],
    ...["-video_track_timescale", "90000", "-map_metadata", "-1", "-movflags", "+faststart", "-f", "mp4", "-y", o.out],
  ];
}

export interface RawEncoder {
  /** Writes the next piped frame (pipedFrames: one per run); resolves once the pipe has taken its bytes. */
  write(frame: Uint8Array): Promise<void>;
  /** Closes the input and waits for a complete file. */
  finish(): Promise<void>;
  /** Kills ffmpeg and removes its output (idempotent); resolves once ffmpeg is gone. */
  abort(): Promise<void>;
}

export function openRawEncoder(o: RawEncoderOptions): RawEncoder {
  const ffmpeg = resolveFfmpeg();
  const child = spawn(ffmpeg.path, rawEncoderArgs(o), { stdio: ["pipe", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (b: Buffer) => {
    if (stderr.length < 8000) stderr += b.toString("utf8");
  });
  let failure: Error | null = null;
  let how = "";
  const exited = new Promise<number | null>((resolve) => {
    child.on("error", (e) => {
      failure = new GeoreplayError(`could not run ${ffmpeg.path}: ${e.message}`);
      resolve(null);
    });
    child.on("close", (code, signal) => {
      how = signal ? `was killed (${signal})` : `exited with code ${code}`;
      resolve(code);
    });
  });
  child.stdin.on("error", () => {
    /* ffmpeg went away: its exit code and stderr say why */
  });
  let aborted = false;
  const failed = async () => {
    await exited;
    return failure ?? new GeoreplayError(`ffmpeg (${ffmpeg.path}) ${how}: ${stderr.trim().split("\n").slice(-3).join(" / ") || "no message"}`);
  };
  return {
    async write(frame) {
      if (aborted) throw new GeoreplayError("the encoder was aborted");
      if (child.exitCode !== null || failure) throw await failed();
      // Resolves once the bytes are handed to the pipe: the caller may then reuse the buffer.
      const written = new Promise<Error | null | undefined>((resolve) => child.stdin.write(frame, resolve));
      const r = await Promise.race([written, exited.then(() => "exit" as const)]);
      if (r === "exit" || r) throw await failed();
    },
    async finish() {
      child.stdin.end();
      const code = await exited;
      if (code !== 0 || failure) throw await failed();
    },
    async abort() {
      if (aborted) return;
      aborted = true;
      if (child.exitCode === null) child.kill("SIGKILL");
      await exited;
      rmSync(o.out, { force: true });
    },
  };
}
