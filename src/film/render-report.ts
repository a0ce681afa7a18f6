/**
 * The `render --json` report: one stable object describing the MP4 that was
 * written. Field names are part of the interface (docs/json-reports.md).
 */
import { statSync } from "node:fs";
import { errorMessage } from "../../replay/io/errors.ts";
import { probeStream, type StreamInfo } from "../ffmpeg/probe.ts";
import type { RenderEpisodeResult } from "./render-episode.ts";

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
  let stream: StreamInfo | null = null;
  try {
    stream = probe(r.out);
  } catch (e) {
    onProbeError?.(`could not read the codec back with ffprobe: ${errorMessage(e)}`);
  }
  const v = r.stats.views;
  return {
    out,
    bytes: statSync(r.out).size,
    width: r.size.width,
    height: r.size.height,
    fps: t.fps,
    frames: t.totalFrames,
    seconds: Math.round((t.totalFrames / t.fps) * 1000) / 1000,
    codec: stream?.codec ?? null,
    pix_fmt: stream?.pixFmt ?? null,
    episode_id: t.episode.episodeId,
    format: t.episode.recordFormat,
    source: t.episode.source,
    verified: t.episode.verified,
    views: { checked: v.checked, match: v.match, resolved: v.resolved, mismatch: v.mismatch },
  };
}
