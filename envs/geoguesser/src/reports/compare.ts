/**
 * The `render --versus --json` report: the `render --json` object (same
 * fields, same meaning for the MP4) extended with both episodes and their
 * verification. Top-level `episode_id`, `format` and `source` are A's;
 * `verified` is true only when both sides are; `views` sums both sides.
 * Field names are part of the interface (docs/json-reports.md).
 */
import { sameTask } from "../../video/compare/props.ts";
import { probeStream, type StreamInfo } from "../../../../src/ffmpeg/probe.ts";
import { fileFacts, type RenderReport } from "./render.ts";
import type { CompareSideResult, RenderCompareResult } from "../film/render-compare.ts";

type Views = RenderReport["views"];

export interface CompareEpisodeReport {
  side: "a" | "b";
  episode_id: string;
  arm: string;
  pass: number | null;
  split: string;
  index: number;
  format: RenderReport["format"];
  source: RenderReport["source"];
  verified: boolean;
  views: Views;
  /** Video frames of this side's own timeline (before turn alignment). */
  timeline_frames: number;
}

export interface CompareReport extends RenderReport {
  composition: "Compare";
  same_task: boolean;
  episodes: [CompareEpisodeReport, CompareEpisodeReport];
}

function sideReport(side: "a" | "b", s: CompareSideResult): CompareEpisodeReport {
  const t = s.gen.timeline;
  const v = s.gen.stats.views;
  return {
    side,
    episode_id: t.episode.episodeId,
    arm: s.arm,
    pass: s.pass,
    split: t.episode.split,
    index: t.episode.index,
    format: t.episode.recordFormat,
    source: t.episode.source,
    verified: t.episode.verified,
    views: { checked: v.checked, match: v.match, resolved: v.resolved, mismatch: v.mismatch },
    timeline_frames: t.totalFrames,
  };
}

export function compareReport(
  out: string,
  r: RenderCompareResult,
  probe: (file: string) => StreamInfo = probeStream,
  onProbeError?: (message: string) => void,
): CompareReport {
  const a = sideReport("a", r.sides[0]);
  const b = sideReport("b", r.sides[1]);
  const sum = (k: keyof Views) => a.views[k] + b.views[k];
  return {
    ...fileFacts(out, r.out, probe, onProbeError),
    width: r.size.width,
    height: r.size.height,
    fps: r.fps,
    frames: r.frames,
    seconds: Math.round((r.frames / r.fps) * 1000) / 1000,
    episode_id: a.episode_id,
    format: a.format,
    source: a.source,
    verified: a.verified && b.verified,
    views: { checked: sum("checked"), match: sum("match"), resolved: sum("resolved"), mismatch: sum("mismatch") },
    composition: "Compare",
    same_task: sameTask(r.props),
    episodes: [a, b],
  };
}
