/**
 * Planning a batch without rendering: every replayable episode of the inputs
 * (one streaming pass), then, for the selected ones only, their camera paths
 * (planEpisode / planSlideshow, the very plans the frame generator films) for
 * frame counts, and a digest of each record's content for resuming.
 */
import { createHash } from "node:crypto";
import { statSync } from "node:fs";
import { readEpisodeRecords } from "../formats/records.ts";
import { listAttempts } from "../frames/versus.ts";
import type { InputFormat } from "../../../../replay/formats/inputs.ts";
import { throwIfAborted } from "../../../../replay/io/abort.ts";
import { errorMessage } from "../../../../replay/io/errors.ts";
import { planEpisode, type SegmentPlan } from "../plan/segments.ts";
import { planSlideshow } from "../plan/slideshow.ts";
import { alignTimelines } from "../timeline/align.ts";
import type { Segment } from "../timeline/timeline-schema.ts";
import type { Candidate, SelectedVideo } from "./select.ts";

/** Every replayable episode of the inputs, in input order (#n = position + 1): the two-up chooser's list, numbered. */
export async function listCandidates(files: string[], format?: InputFormat, signal?: AbortSignal): Promise<Candidate[]> {
  const attempts = await listAttempts(files, format, signal);
  throwIfAborted(signal);
  return attempts.map((a, i) => ({ ...a, ordinal: i + 1 }));
}

/** What planning learned about one side. */
export interface SidePlan {
  /** sha256 of the validated episode record (canonical JSON): changes whenever anything the video shows changes. */
  recordSha: string;
  format: "eval" | "train" | "example";
  /** Example-rollout: the recorded image files (their size and mtime go into the inputs digest). */
  images: string[];
  segments: Pick<SegmentPlan, "kind" | "durationFrames">[];
  /** Replays: the task frames (frame_index) the video shows, whose panoramas go into the inputs digest. */
  frameIndexes: number[];
}

export interface PlannedVideo extends SelectedVideo {
  /** Frames of the video at `fps` (null when it could not be planned: see `problem`). */
  frames: number | null;
  plans: SidePlan[];
}

const keyOf = (c: { file: string; line: number }) => `${c.file}\0${c.line}`;

/** Frame counts and record digests of the selected videos (a second streaming pass, keeping only the wanted records' plans). */
export async function planVideos(
  files: string[],
  videos: SelectedVideo[],
  opts: { fps: number; format?: InputFormat; signal?: AbortSignal },
): Promise<PlannedVideo[]> {
  const wanted = new Set(videos.flatMap((v) => v.sides.map(keyOf)));
  const plans = new Map<string, SidePlan | string>();
  if (wanted.size > 0) {
    for await (const r of readEpisodeRecords(files, { format: opts.format })) {
      throwIfAborted(opts.signal);
      if (r.kind !== "episode" || !wanted.has(keyOf(r))) continue;
      try {
        const images = r.images ?? [];
        const plan = r.format === "example" ? planSlideshow(r.episode, images, (p) => p, { fps: opts.fps }) : planEpisode(r.episode, { fps: opts.fps });
        plans.set(keyOf(r), {
          recordSha: createHash("sha256").update(JSON.stringify(r.episode)).digest("hex"),
          format: r.format,
          images: images.map((im) => im.path),
          segments: plan.segments.map((s) => ({ kind: s.kind, durationFrames: s.durationFrames })),
          frameIndexes:
            "frameIndex" in (plan.jobs[0] ?? {}) ? [...new Set((plan.jobs as { frameIndex: number }[]).map((j) => j.frameIndex))].sort((a, b) => a - b) : [],
        });
      } catch (e) {
        plans.set(keyOf(r), `${r.file}:${r.line}: ${errorMessage(e)}`);
      }
    }
  }
  return videos.map((v) => {
    if (v.problem) return { ...v, frames: null, plans: [] };
    const sides = v.sides.map((s) => plans.get(keyOf(s)) ?? `${s.file}:${s.line}: episode ${s.episodeId} is no longer in the inputs`);
    const bad = sides.find((s): s is string => typeof s === "string");
    if (bad) return { ...v, frames: null, plans: [], problem: bad };
    const ok = sides as SidePlan[];
    const frames =
      v.kind === "rollout"
        ? ok[0].segments.reduce((n, s) => n + s.durationFrames, 0)
        : // The two-up clock only reads each segment's kind and length.
          alignTimelines({ fps: opts.fps, segments: ok[0].segments as Segment[] }, { fps: opts.fps, segments: ok[1].segments as Segment[] }).totalFrames;
    return { ...v, frames, plans: ok };
  });
}

/** size and mtime of a file, for the inputs digest (null when it is missing). */
export function statOf(path: string): { bytes: number; mtime_ms: number } | null {
  try {
    const st = statSync(path);
    return { bytes: st.size, mtime_ms: Math.floor(st.mtimeMs) };
  } catch {
    return null;
  }
}
