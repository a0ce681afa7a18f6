/** The `frames --json` report (docs/json-reports.md): fields are only ever added. */
import type { FramesResult } from "../../replay/frames/frames-types.ts";

export function framesJson(r: FramesResult, propsPath: string) {
  const t = r.timeline;
  const s = r.stats;
  const v = s.views;
  return {
    episode_id: t.episode.episodeId,
    format: t.episode.recordFormat,
    source: t.episode.source,
    verified: t.episode.verified,
    views: { checked: v.checked, match: v.match, resolved: v.resolved, mismatch: v.mismatch },
    out: r.outDir,
    timeline: r.timelinePath,
    props: propsPath,
    frame_files: { total: s.files, rendered: s.rendered, reused: s.reused, keyframes: s.keyframes },
    segments: t.segments.length,
    total_frames: t.totalFrames,
    fps: t.fps,
    seconds: t.totalFrames / t.fps,
  };
}
