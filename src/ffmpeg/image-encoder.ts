/**
 * Screenshots to H.264 (the Remotion engine): ffmpeg reading JPEG/PNG images from a
 * pipe, with the settings Remotion's renderMedia uses for georeplay (libx264,
 * CRF 18, yuv420p, bt709 limited range via zscale, 90 kHz track timescale, no
 * metadata), plus faststart in the same pass. A repeated frame is the same
 * image written again: the MP4 gets every video frame, Chromium draws it once.
 */
import { rmSync } from "node:fs";
import { GeoreplayError } from "../../replay/io/errors.ts";
import { resolveFfmpeg } from "./find.ts";
import { startFfmpeg } from "./process.ts";
import { x264Threads, type X264Preset } from "./x264.ts";

export interface EncoderOptions {
  out: string;
  width: number;
  height: number;
  fps: number;
  imageFormat: "jpeg" | "png";
  x264Preset: X264Preset;
  crf?: number;
}

export interface FrameEncoder {
  /** Queues `image` as the next `times` video frames (resolves when the pipe takes it). */
  write(image: Buffer, times: number): Promise<void>;
  /** Closes the input and waits for a complete file. */
  finish(): Promise<void>;
  /** Kills ffmpeg and removes its output (idempotent); resolves once ffmpeg is gone. */
  abort(): Promise<void>;
}

/** ffmpeg arguments, kept in one place so tests and benchmarks see exactly what runs. */
export function encoderArgs(o: EncoderOptions): string[] {
  return [
    "-hide_banner",
    "-loglevel",
    "error",
    "-r",
    String(o.fps),
    "-f",
    "image2pipe",
    "-s",
    `${o.width}x${o.height}`,
    "-vcodec",
    o.imageFormat === "jpeg" ? "mjpeg" : "png",
    "-i",
    "-",
    "-an",
    "-c:v",
    "libx264",
    "-colorspace:v",
    "bt709",
    "-color_primaries:v",
    "bt709",
    "-color_trc:v",
    "bt709",
    "-color_range",
    "tv",
    "-vf",
    "zscale=matrix=709:range=limited:primariesin=709:primaries=709:transferin=709:transfer=709",
    "-pix_fmt",
    "yuv420p",
    "-preset",
    o.x264Preset,
    "-threads",
    String(x264Threads(o.x264Preset)),
    "-video_track_timescale",
    "90000",
    "-crf",
    String(o.crf ?? 18),
    "-map_metadata",
    "-1",
    "-movflags",
    "+faststart",
    "-f",
    "mp4",
    "-y",
    o.out,
  ];
}

export function openFrameEncoder(o: EncoderOptions): FrameEncoder {
  const proc = startFfmpeg(resolveFfmpeg().path, encoderArgs(o), { stdin: true });
  let aborted = false;
  let finished = false;
  return {
    async write(image, times) {
      for (let i = 0; i < times; i++) {
        if (aborted) throw new GeoreplayError("the encoder was aborted");
        await proc.write(image);
      }
    },
    async finish() {
      await proc.finish();
      if (aborted) throw new GeoreplayError("the encoder was aborted");
      finished = true;
    },
    async abort() {
      if (finished || aborted) return; // a complete MP4 is the caller's to keep
      aborted = true;
      await proc.kill();
      rmSync(o.out, { force: true });
    },
  };
}
