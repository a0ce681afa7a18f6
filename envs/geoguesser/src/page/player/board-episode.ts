/**
 * A board episode's video, planned in the browser by `georeplay frames`'s
 * own code: the chunk's page episode and its PlayRecord are put back into the
 * episode record and task row planning reads (planEpisode + assembleTimeline,
 * the timeline buildTimeline checks), and each frame file gets its source: a
 * keyframe is the page's exact zoom view where embedded, else a reprojection
 * of the embedded panorama, like every in-between frame. Pure (no DOM, no
 * node:), so the test runs it under Node with the inputs the browser gets.
 *
 * The timeline equals `frames`'s timeline.json for the episode: the page
 * holds every word of every reply and reasoning, so the text panes and the
 * holds read what `frames` reads.
 */
import type { Episode, Turn } from "../../../replay/schema/episode.ts";
import type { TaskRow } from "../../../replay/schema/task.ts";
import type { Timeline } from "../../../replay/timeline/timeline-schema.ts";
import { planEpisode, type EpisodePlan } from "../../../replay/plan/segments.ts";
import { assembleTimeline } from "../../../replay/frames/build-timeline.ts";
import { defaultFramesDir } from "../../../replay/frames/slug.ts";
import type { PageEpisode, PlayRecord } from "../model.ts";
import { PLAYER_FPS, type FileSource } from "./format.ts";

/** The episode record and task row, as far as planning reads them. */
export function recordOf(page: PageEpisode, play: PlayRecord): { episode: Episode; row: TaskRow } {
  const turns = page.turns.map((t, i) => {
    const p = play.turns[i] ?? {};
    const cam = t.camera && t.camera.frame !== null ? t.camera : null;
    return {
      turn: t.turn,
      status: t.status,
      image_kind: t.kind,
      image_sha256: p.d === undefined ? null : `d${p.d}`,
      camera_after: cam ? { frame_index: cam.frame, heading_deg: cam.heading, pitch_deg: cam.pitch, fov_deg: cam.fov } : null,
      steps_remaining: t.stepsLeft,
      action_cost: t.cost,
      moved_meters: t.movedM,
      ...(p.m !== undefined ? { total_moved_meters: p.m } : {}),
      ...(p.p !== undefined ? { pins: p.p } : {}),
      action: p.a ?? null,
      ...(p.done !== undefined ? { done: p.done } : {}),
      feedback: t.feedback,
      model: {
        reply: cutMark(t.reply, t.replyChars),
        reasoning: t.reasoning,
        tokens: { input: t.tokensIn, output: t.tokensOut },
        latency_s: t.latencyS,
        errors: t.errors,
      },
    };
  });
  const attribution = { creator_username: page.credit.creator, licence: page.credit.licence, source: page.credit.source };
  const episode = {
    episode_id: page.id,
    model_name: page.model,
    task: { split: page.split, index: page.index, task_id: page.taskId ?? play.taskId ?? null, country: page.country, attribution },
    turns,
    outcome: play.outcome,
  } as unknown as Episode;
  return { episode, row: { task_id: play.taskId ?? page.taskId, country: page.country, attribution, frames: [] } as unknown as TaskRow };
}

/** A reply the board cut ends with an ellipsis in the video too (the trace pane would otherwise end mid-word, silently). */
export function cutMark(text: string | null, fullLength: number | undefined): string | null {
  return text !== null && fullLength !== undefined && fullLength > text.length ? `${text}…` : text;
}

/** The recorded reply length of a turn (the page keeps the full length of a reply it cut). */
function replyLengths(page: PageEpisode): (t: Turn) => number {
  const byTurn = new Map(page.turns.map((t) => [t.turn, t.replyChars ?? t.reply?.length ?? 0]));
  return (t) => byTurn.get(t.turn) ?? 0;
}

export interface BoardVideo {
  plan: EpisodePlan;
  timeline: Timeline;
  /** Indexed by frame file number, as the run page's embedded list. */
  files: FileSource[];
}

/** Plans a board episode's video; throws when the record cannot be planned (the page marks only plannable episodes). */
export function boardVideo(page: PageEpisode, play: PlayRecord): BoardVideo {
  const { episode, row } = recordOf(page, play);
  const plan = planEpisode(episode, { fps: PLAYER_FPS, replyChars: replyLengths(page) });
  const keyframeSha = new Map<string, string | null>();
  const byTurn = new Map(page.turns.map((t, i) => [t.turn, { page: t, play: play.turns[i] ?? {} }]));
  const files: FileSource[] = [];
  for (const job of plan.jobs) {
    if (job.kind === "keyframe") {
      const t = byTurn.get(job.turn);
      keyframeSha.set(job.file, t?.play.s ?? null);
      const f = play.frames[String(job.frameIndex)];
      // The exact view, with its camera on the frame's panorama (in-between frames near it are drawn from it).
      if (t && t.page.image !== null) files.push(f ? [t.page.image, f[0], job.pose.heading + f[1], job.pose.pitch, job.pose.fov] : [t.page.image]);
      else if (t?.page.pano) files.push([t.page.pano.pano, t.page.pano.heading, t.page.pano.pitch, t.page.pano.fov]);
      else throw new Error(`episode ${page.id} turn ${job.turn}: no view to show`);
      continue;
    }
    const f = play.frames[String(job.frameIndex)];
    if (!f) throw new Error(`episode ${page.id}: task frame ${job.frameIndex} has no panorama in the page`);
    files.push([f[0], job.pose.heading + f[1], job.pose.pitch, job.pose.fov]);
  }
  const timeline = assembleTimeline(plan, episode, row, {
    fps: PLAYER_FPS,
    width: 640,
    height: 640,
    framesDir: defaultFramesDir(page.id),
    verified: page.views.mismatch === 0,
    driftedTurns: page.turns.filter((t) => t.check === "mismatch").map((t) => t.turn),
    keyframeSha,
    recordFormat: page.format,
    source: "replay",
  });
  return { plan, timeline, files };
}
