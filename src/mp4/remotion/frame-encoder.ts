/**
 * Screenshots to H.264 (the Remotion engine): ffmpeg reading JPEG/PNG images from a
 * pipe, with the settings Remotion's renderMedia uses for georeplay (libx264,
 * CRF 18, yuv420p, bt709 limited range via zscale, 90 kHz track timescale, no
 * metadata), plus faststart in the same pass. A repeated frame is the same
 * image written again: the MP4 gets every video frame, Chromium draws it once.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { rmSync } from "node:fs";
import { resolveFfmpeg } from "../ffmpeg.ts";
import type { X264Preset } from "../../native/encoder.ts";

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
  const child = spawn(resolveFfmpeg().path, encoderArgs(o), { stdio: ["pipe", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-4000);
  });
  let exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  let spawnError: Error | null = null;
  const exited = new Promise<void>((resolve) => {
    child.on("error", (e) => {
      spawnError = e;
      resolve();
    });
    child.on("close", (code, signal) => {
      exit = { code, signal };
      resolve();
    });
  });
  // EPIPE when ffmpeg dies first: reported through exit status instead.
  child.stdin.on("error", () => undefined);
  let aborted = false;
  let finished = false;
  const failure = () =>
    new Error(`ffmpeg failed (${spawnError ? spawnError.message : `exit ${exit?.code ?? exit?.signal}`}): ${stderr.trim() || "no message"}`);

  return {
    async write(image, times) {
      for (let i = 0; i < times; i++) {
        if (aborted) throw new Error("encoder aborted");
        if (exit || spawnError) throw failure();
        if (!child.stdin.write(image)) await Promise.race([once(child.stdin, "drain"), exited]);
      }
    },
    async finish() {
      child.stdin.end();
      await exited;
      if (aborted) throw new Error("encoder aborted");
      if (spawnError || exit?.code !== 0) throw failure();
      finished = true;
    },
    async abort() {
      if (finished) return; // the MP4 is complete and the caller's to keep
      if (aborted) return exited.then(() => undefined);
      aborted = true;
      if (!exit) child.kill("SIGKILL");
      rmSync(o.out, { force: true });
      // Wait for it to be gone, then remove the file again, in case it opened it while dying.
      await exited;
      rmSync(o.out, { force: true });
    },
  };
}
