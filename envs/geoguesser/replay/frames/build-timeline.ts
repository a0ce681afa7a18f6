/**
 * Plan + episode -> `timeline.json` (pure). The result is validated against
 * TimelineSchema, the contract the Remotion composition renders from.
 * No timestamps, no absolute paths: the same inputs give the same bytes.
 */
import type { Episode, Turn } from "../schema/episode.ts";
import type { TaskRow } from "../schema/task.ts";
import { TimelineSchema, type EpisodeInfo, type Outcome, type Timeline, type TraceEntry } from "../timeline/timeline-schema.ts";
import { pointsForDistance } from "../../../../replay/plan/camera-path.ts";
import type { EpisodePlan } from "../plan/segments.ts";
import { actionName, intOrNull, numOrNull, SUBMITTED_GUESS_ACTIONS, toolCall, turnFailed } from "../rules/turns.ts";

export interface TimelineOptions {
  fps: number;
  width: number;
  height: number;
  framesDir: string;
  /** True when every view was re-rendered and matched its recorded hash. */
  verified: boolean;
  /** Per keyframe file: its sha256 when it is byte-for-byte the recorded image, else null. */
  keyframeSha: Map<string, string | null>;
  /** Which recording the episode came from (default "eval"). */
  recordFormat?: EpisodeInfo["recordFormat"];
  /** "replay" (default): re-rendered from the camera trajectory; "slideshow": recorded images as they are. */
  source?: EpisodeInfo["source"];
  /** Slideshow: a later episode of the same task overwrote the image files. */
  imagesOverwritten?: boolean;
  /** Turns whose view drifted (a replay made with --unverified, or a page's player): named on the banner. */
  driftedTurns?: readonly number[];
}

export function traceEntry(t: Turn): TraceEntry {
  const m = t.model ?? null;
  return {
    turn: t.turn,
    status: t.status,
    failed: turnFailed(t),
    actionName: actionName(t),
    toolCall: toolCall(t.action as Record<string, unknown> | null | undefined),
    reply: m?.reply ?? null,
    reasoning: m?.reasoning ?? null,
    feedback: t.feedback ?? null,
    tokensIn: numOrNull(m?.tokens?.input),
    tokensOut: numOrNull(m?.tokens?.output),
    latencyS: numOrNull(m?.latency_s),
    errors: (m?.errors ?? []).map((e) => (typeof e === "string" ? e : (JSON.stringify(e) ?? String(e)))),
  };
}

/**
 * The guess as the last guess action states it. Training and example-rollout
 * recordings keep no guess in their outcome, only in the action (training:
 * already clamped by the environment; example: as the model wrote it, so
 * only coordinates inside the valid ranges are taken).
 */
export function guessFromActions(episode: Episode): [number, number] | null {
  for (let i = episode.turns.length - 1; i >= 0; i--) {
    const t = episode.turns[i];
    const name = actionName(t);
    if (name === null || !SUBMITTED_GUESS_ACTIONS.has(name) || turnFailed(t)) continue;
    const a = t.action as Record<string, unknown>;
    const lat = numOrNull(a.lat);
    const lon = numOrNull(a.lon);
    return lat !== null && lon !== null && Math.abs(lat) <= 90 && Math.abs(lon) <= 180 ? [lat, lon] : null;
  }
  return null;
}

export function outcomeOf(episode: Episode): Outcome | null {
  const o = episode.outcome;
  if (!o) return null;
  const d = numOrNull(o.distance_km);
  return {
    guess: o.guess ? [o.guess[0], o.guess[1]] : guessFromActions(episode),
    truth: o.truth ? [o.truth[0], o.truth[1]] : null,
    distanceKm: d,
    reward: numOrNull(o.reward),
    points: d === null ? null : pointsForDistance(d),
    verdict: o.verdict ?? null,
    cost: numOrNull(o.action_cost),
    turnsUsed: intOrNull(o.turns_used),
    forcedGuess: o.forced_guess === true,
  };
}

/** The parts of a plan the timeline needs (camera-path plans and slideshows alike). */
export type TimelinePlan = Pick<EpisodePlan, "segments" | "guessed">;

/** `task` is null when there is no task row (example-rollout folders need none): credit then falls back to the defaults. */
export function buildTimeline(plan: TimelinePlan, episode: Episode, task: TaskRow | null, opts: TimelineOptions): Timeline {
  // The contract check: a timeline the composition cannot read is a bug here, not bad input.
  return TimelineSchema.parse(assembleTimeline(plan, episode, task, opts));
}

/**
 * The timeline, not yet checked against the schema: what the page's player computes in the
 * browser (which carries no zod), from the same code. buildTimeline's check changes nothing
 * in a timeline it accepts (the test of the board's player compares the two).
 */
export function assembleTimeline(plan: TimelinePlan, episode: Episode, task: TaskRow | null, opts: TimelineOptions): Timeline {
  let start = 0;
  const segments = plan.segments.map((s) => {
    const seg = {
      turn: s.turn,
      kind: s.kind,
      startFrame: start,
      durationFrames: s.durationFrames,
      frames: s.frames,
      hud: s.hud,
      crossfade: s.crossfade,
      motionFrames: s.motionFrames,
      pins: s.pins,
      keyframe: s.keyframe ? { offset: s.keyframe.offset, file: s.keyframe.file, sha256: opts.keyframeSha.get(s.keyframe.file) ?? null } : null,
    };
    start += s.durationFrames;
    return seg;
  });
  const att = episode.task.attribution ?? task?.attribution ?? null;
  const timeline: Timeline = {
    version: 1,
    fps: opts.fps,
    viewport: { width: opts.width, height: opts.height },
    totalFrames: start,
    framesDir: opts.framesDir,
    episode: {
      episodeId: episode.episode_id,
      modelName: episode.model_name,
      split: episode.task.split,
      index: episode.task.index,
      taskId: episode.task.task_id ?? task?.task_id ?? null,
      country: plan.guessed ? (episode.task.country ?? task?.country ?? null) : null,
      attribution: {
        creator: att?.creator_username ?? null,
        licence: att?.licence ?? "CC-BY-SA-4.0",
        source: att?.source ?? "Mapillary",
      },
      verified: opts.verified,
      source: opts.source ?? "replay",
      recordFormat: opts.recordFormat ?? "eval",
      ...(opts.imagesOverwritten !== undefined ? { imagesOverwritten: opts.imagesOverwritten } : {}),
      ...(opts.driftedTurns?.length ? { driftedTurns: [...opts.driftedTurns].sort((a, b) => a - b) } : {}),
    },
    segments,
    trace: episode.turns.map(traceEntry),
    outcome: outcomeOf(episode),
  };
  return timeline;
}
