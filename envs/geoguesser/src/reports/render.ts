/**
 * The `render --json` report: one stable object describing the MP4 that was
 * written. Field names are part of the interface (docs/json-reports.md).
 */
import { statSync } from "node:fs";
import { errorMessage } from "../../../../replay/io/errors.ts";
import { probeStream, type StreamInfo } from "../../../../src/ffmpeg/probe.ts";
import type { RenderEpisodeResult } from "../film/render-episode.ts";

export interface RenderReport {
  out: string;
  bytes: number;
  width: number;
  height: number;
  fps: number;
  frames: number;
  seconds: number;
  codec: string | null;
  pix_fmt: string | null;
  episode_id: string;
  format: "eval" | "train" | "example";
  source: "replay" | "slideshow";
  verified: boolean;
  views: { checked: number; match: number; resolved: number; mismatch: number };
}

/** The file's own facts: its path as given, its size, and its codec and pixel format read back with ffprobe (null, with `onProbeError` told why, if that fails). */
export function fileFacts(out: string, path: string, probe: (file: string) => StreamInfo, onProbeError?: (message: string) => void) {
  let stream: StreamInfo | null = null;
  try {
    stream = probe(path);
  } catch (e) {
    onProbeError?.(`could not read the codec back with ffprobe: ${errorMessage(e)}`);
  }
  return { out, bytes: statSync(path).size, codec: stream?.codec ?? null, pix_fmt: stream?.pixFmt ?? null };
}

/**
 * `out` is the -o path as given. The codec and pixel format are read back from
 * the file with ffprobe (header only); null, with `onProbeError` told why, if
 * that fails: the video is written either way.
 */
export function renderReport(
  out: string,
  r: RenderEpisodeResult,
  probe: (file: string) => StreamInfo = probeStream,
  onProbeError?: (message: string) => void,
): RenderReport {
  const t = r.timeline;
  const v = r.stats.views;
  return {
    ...fileFacts(out, r.out, probe, onProbeError),
    width: r.size.width,
    height: r.size.height,
    fps: t.fps,
    frames: t.totalFrames,
    seconds: Math.round((t.totalFrames / t.fps) * 1000) / 1000,
    episode_id: t.episode.episodeId,
    format: t.episode.recordFormat,
    source: t.episode.source,
    verified: t.episode.verified,
    views: { checked: v.checked, match: v.match, resolved: v.resolved, mismatch: v.mismatch },
  };
}

/** What a one-file render in another format adds (`-o clip.gif`): the file's own size, rate and frames, and what fitting it changed. */
export function asFileReport<T extends { width: number; height: number; fps: number; frames: number; seconds: number }>(
  report: T,
  format: string,
  encoded: { width: number; height: number; fps: number; frames: number; durationS: number; notes: string[] },
): T & { video_format: string; notes: string[] } {
  return {
    ...report,
    width: encoded.width,
    height: encoded.height,
    fps: encoded.fps,
    frames: encoded.frames,
    seconds: Math.round(encoded.durationS * 1000) / 1000,
    video_format: format,
    notes: encoded.notes,
  };
}
