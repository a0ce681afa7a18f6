/**
 * The `render --group --json` report: the `render --json` object (same
 * fields, same meaning for the MP4) extended with the group and each
 * sibling's reward, advantage and verification. Top-level `episode_id`,
 * `format` and `source` are sibling #1's; `verified` is true only when every
 * sibling is; `views` sums them. Field names are part of the interface
 * (docs/json-reports.md).
 */
import { probeStream, type StreamInfo } from "../../../../src/ffmpeg/probe.ts";
import { fileFacts, type RenderReport } from "./render.ts";
import type { GroupSiblingResult, RenderGroupResult } from "../film/render-group.ts";

type Views = RenderReport["views"];

export interface GroupSiblingReport {
  sibling: number;
  rollout: string;
  episode_id: string;
  reward: number;
  advantage: number;
  verified: boolean;
  views: Views;
  timeline_frames: number;
}

export interface GroupReport extends RenderReport {
  composition: "Group";
  group: {
    run: string;
    step: number;
    task: { split: string; index: number };
    group_id: string | null;
    size: number;
    mean: number;
    std: number | null;
    zero_std: boolean;
    scale_rewards: "group" | "batch" | "none";
    grid: { rows: number; cols: number };
  };
  siblings: GroupSiblingReport[];
}

function siblingReport(i: number, s: GroupSiblingResult): GroupSiblingReport {
  const t = s.gen.timeline;
  const v = s.gen.stats.views;
  return {
    sibling: i + 1,
    rollout: s.rollout,
    episode_id: t.episode.episodeId,
    reward: s.reward,
    advantage: s.advantage,
    verified: t.episode.verified,
    views: { checked: v.checked, match: v.match, resolved: v.resolved, mismatch: v.mismatch },
    timeline_frames: t.totalFrames,
  };
}

export function groupReport(
  out: string,
  r: RenderGroupResult,
  grid: { rows: number; cols: number },
  probe: (file: string) => StreamInfo = probeStream,
  onProbeError?: (message: string) => void,
): GroupReport {
  const sibs = r.siblings.map((s, i) => siblingReport(i, s));
  const sum = (k: keyof Views) => sibs.reduce((a, s) => a + s.views[k], 0);
  const first = r.siblings[0].gen.timeline.episode;
  const g = r.props.group;
  return {
    ...fileFacts(out, r.out, probe, onProbeError),
    width: r.size.width,
    height: r.size.height,
    fps: r.fps,
    frames: r.frames,
    seconds: Math.round((r.frames / r.fps) * 1000) / 1000,
    episode_id: first.episodeId,
    format: first.recordFormat,
    source: first.source,
    verified: sibs.every((s) => s.verified),
    views: { checked: sum("checked"), match: sum("match"), resolved: sum("resolved"), mismatch: sum("mismatch") },
    composition: "Group",
    group: {
      run: g.run,
      step: g.step,
      task: { split: g.split, index: g.index },
      group_id: g.groupId,
      size: sibs.length,
      mean: g.mean,
      std: g.std,
      zero_std: g.zeroStd,
      scale_rewards: g.scaleRewards,
      grid,
    },
    siblings: sibs,
  };
}
