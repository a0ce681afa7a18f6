/**
 * Turns -> segments: decides, per trace turn, what the video shows and which
 * frame files it needs. Pure (no I/O): file names are assigned in display
 * order, so the same episode always gives the same plan.
 *
 * Two kinds of frame file exist:
 *  - "keyframe": the exact JPEG the model saw at a turn (verified bytes);
 *  - "render": an in-between reprojection of a task frame at a camera pose.
 */
import type { Camera, Episode, Turn } from "../schema/episode.ts";
import type { HudState, SegmentKind } from "../timeline/timeline-schema.ts";
import { actionName, MAP_ACTIONS, turnFailed, turnGuessed } from "../rules/turns.ts";
import {
  cameraMove,
  CROSSFADE_S,
  GUESS_HOLD_S,
  holdSeconds,
  isStill,
  MAP_HOLD_S,
  motionPoses,
  motionSeconds,
  OPENING_S,
  SCORE_S,
  toFrames,
  wrapHeading,
  type Pose,
} from "./camera-path.ts";

export type FrameJob =
  /** An in-between frame: task frame `frameIndex` reprojected at `pose`. */
  | { kind: "render"; file: string; frameIndex: number; pose: Pose }
  /**
   * The view the model saw at `turn` (camera_after), written from the verified bytes.
   * `digest` is the trace's recorded digest in the record's scheme (a full sha256 for
   * eval, 16 hex digits of the base64 text for training), not necessarily a sha256.
   */
  | { kind: "keyframe"; file: string; turn: number; frameIndex: number; pose: Pose; digest: string };

export interface SegmentPlan {
  turn: number;
  kind: SegmentKind;
  durationFrames: number;
  motionFrames: number;
  frames: string[];
  hud: HudState[];
  crossfade: { from: string; to: string; blendFrames: number } | null;
  pins: [number, number][];
  keyframe: { offset: number; file: string; turn: number } | null;
}

export interface EpisodePlan {
  segments: SegmentPlan[];
  /** Every frame file to produce, in display order (file names are unique). */
  jobs: FrameJob[];
  /** True when the episode ends with a guess (the country may be revealed). */
  guessed: boolean;
}

/** A plan cannot be made (the trace lacks something the video needs). */
export class PlanError extends Error {}

export const frameFileName = (i: number): string => `${String(i).padStart(6, "0")}.jpg`;

const poseOf = (c: Camera): Pose => ({ heading: c.heading_deg, pitch: c.pitch_deg, fov: c.fov_deg });
const replyChars = (t: Turn): number => (t.model?.reply ?? "").length;

/**
 * Metres walked so far after `t`: the recorded total when there is one (eval),
 * else the running sum of per-turn `moved_meters` (training traces record only those).
 */
export function metresAfter(t: Turn, before: number): number {
  if (typeof t.total_moved_meters === "number") return t.total_moved_meters;
  return before + (typeof t.moved_meters === "number" ? t.moved_meters : 0);
}

/** HUD numbers are for display: 4 decimals keeps timeline.json readable and stable. */
const r4 = (x: number): number => Math.round(x * 1e4) / 1e4;
function hudHeading(h: number): number {
  const r = r4(wrapHeading(h));
  return r >= 360 ? 0 : r;
}

interface HudBase {
  stepsRemaining: number | null;
  cost: number;
  metres: number;
  frameIndex: number;
}

function hud(pose: Pose, base: HudBase): HudState {
  return {
    heading: hudHeading(pose.heading),
    pitch: r4(pose.pitch),
    fov: r4(pose.fov),
    stepsRemaining: base.stepsRemaining,
    cost: r4(base.cost),
    frameIndex: base.frameIndex,
    metres: r4(base.metres),
  };
}

export interface PlanOptions {
  fps: number;
}

/**
 * Plans the whole episode. The first turn (the reset) is the opening; every
 * later turn gets one segment; a score card closes an episode with an outcome.
 */
export function planEpisode(episode: Episode, opts: PlanOptions): EpisodePlan {
  const { fps } = opts;
  const turns = episode.turns;
  if (turns.length === 0) throw new PlanError(`episode ${episode.episode_id} has no turns`);
  const first = turns[0];
  if (first.image_kind !== "view" || !first.image_sha256 || !first.camera_after) {
    throw new PlanError(`episode ${episode.episode_id} turn ${first.turn}: the opening turn has no view with a recorded hash, so there is nothing to replay`);
  }

  const jobs: FrameJob[] = [];
  const segments: SegmentPlan[] = [];
  const newFile = (): string => frameFileName(jobs.length);
  const addKeyframe = (t: Turn): string => {
    const c = t.camera_after as Camera;
    const file = newFile();
    jobs.push({ kind: "keyframe", file, turn: t.turn, frameIndex: c.frame_index, pose: poseOf(c), digest: (t.image_sha256 as string).toLowerCase() });
    return file;
  };

  // What is on screen now.
  let cam: Camera = first.camera_after;
  let shown = addKeyframe(first);
  let shownDigest = first.image_sha256.toLowerCase();
  let base: HudBase = {
    stepsRemaining: first.steps_remaining ?? null,
    cost: first.action_cost ?? 0,
    metres: metresAfter(first, 0),
    frameIndex: cam.frame_index,
  };
  let pins: [number, number][] = (first.pins ?? []).map(([a, b]) => [a, b]);
  let guessed = false;

  const hold = (t: Turn): number => toFrames(holdSeconds(replyChars(t)), fps);
  const push = (s: Omit<SegmentPlan, "pins">) => segments.push({ ...s, pins: pins.map(([a, b]) => [a, b]) });

  push({
    turn: first.turn,
    kind: "opening",
    durationFrames: toFrames(OPENING_S, fps),
    motionFrames: 0,
    frames: [shown],
    hud: [hud(poseOf(cam), base)],
    crossfade: null,
    keyframe: { offset: 0, file: shown, turn: first.turn },
  });

  for (const t of turns.slice(1)) {
    const before = base;
    const after: HudBase = {
      stepsRemaining: t.steps_remaining ?? before.stepsRemaining,
      cost: t.action_cost ?? before.cost,
      metres: metresAfter(t, before.metres),
      frameIndex: t.camera_after?.frame_index ?? cam.frame_index,
    };
    if (t.pins) pins = t.pins.map(([a, b]) => [a, b]);
    const name = actionName(t);
    const hasView = t.image_kind === "view" && !!t.image_sha256 && !!t.camera_after;
    /** The view file of this turn: what is on screen when the bytes are the same, else a new keyframe. */
    const viewFile = (): string => {
      const sha = (t.image_sha256 as string).toLowerCase();
      if (sha === shownDigest) return shown;
      return addKeyframe(t);
    };
    const show = (file: string) => {
      shown = file;
      shownDigest = (t.image_sha256 as string).toLowerCase();
      cam = t.camera_after as Camera;
    };

    if (turnFailed(t)) {
      // The observation repeats; a view that somehow differs is shown as a cut.
      let keyframe: SegmentPlan["keyframe"] = null;
      if (hasView) {
        const file = viewFile();
        show(file);
        keyframe = { offset: 0, file, turn: t.turn };
      }
      push({
        turn: t.turn,
        kind: "hold",
        durationFrames: hold(t),
        motionFrames: 0,
        frames: [shown],
        hud: [hud(poseOf(cam), after)],
        crossfade: null,
        keyframe,
      });
    } else if (turnGuessed(t)) {
      guessed = true;
      const d = Math.max(toFrames(GUESS_HOLD_S, fps), hold(t));
      push({
        turn: t.turn,
        kind: "guess",
        durationFrames: d,
        motionFrames: 0,
        frames: [shown],
        hud: [hud(poseOf(cam), after)],
        crossfade: null,
        keyframe: null,
      });
    } else if (t.image_kind === "map" || (name !== null && MAP_ACTIONS.has(name))) {
      const d = Math.max(toFrames(MAP_HOLD_S, fps), hold(t));
      push({ turn: t.turn, kind: "map", durationFrames: d, motionFrames: 0, frames: [shown], hud: [hud(poseOf(cam), after)], crossfade: null, keyframe: null });
    } else if (!hasView) {
      push({
        turn: t.turn,
        kind: "hold",
        durationFrames: hold(t),
        motionFrames: 0,
        frames: [shown],
        hud: [hud(poseOf(cam), after)],
        crossfade: null,
        keyframe: null,
      });
    } else {
      const target = t.camera_after as Camera;
      const move = cameraMove(poseOf(cam), poseOf(target));
      if (target.frame_index !== cam.frame_index) {
        // Walk: crossfade old panorama -> new panorama at the same pose. If the pose
        // changed too (unusual), the old panorama is first shown at the new pose.
        let from = shown;
        if (!isStill(move)) {
          from = newFile();
          jobs.push({ kind: "render", file: from, frameIndex: cam.frame_index, pose: poseOf(target) });
        }
        const to = viewFile();
        const blend = toFrames(CROSSFADE_S, fps);
        const huds: HudState[] = [];
        for (let i = 1; i <= blend; i++) {
          const a = i / blend;
          huds.push(
            hud(poseOf(target), {
              ...after,
              metres: before.metres + (after.metres - before.metres) * a,
              frameIndex: a < 0.5 ? cam.frame_index : target.frame_index,
            }),
          );
        }
        show(to);
        push({
          turn: t.turn,
          kind: "move",
          durationFrames: blend + hold(t),
          motionFrames: blend,
          frames: huds.map(() => to),
          hud: huds,
          crossfade: { from, to, blendFrames: blend },
          keyframe: { offset: blend - 1, file: to, turn: t.turn },
        });
      } else if (isStill(move)) {
        // Dead-end move, or a look at the pose already shown: nothing moves.
        const file = viewFile();
        show(file);
        push({
          turn: t.turn,
          kind: "hold",
          durationFrames: hold(t),
          motionFrames: 0,
          frames: [file],
          hud: [hud(poseOf(target), after)],
          crossfade: null,
          keyframe: { offset: 0, file, turn: t.turn },
        });
      } else {
        const n = toFrames(motionSeconds(move), fps);
        const poses = motionPoses(move, n);
        const files: string[] = [];
        for (let i = 0; i < n - 1; i++) {
          const file = newFile();
          jobs.push({ kind: "render", file, frameIndex: cam.frame_index, pose: poses[i] });
          files.push(file);
        }
        const key = addKeyframe(t); // the last motion frame is the exact recorded view
        files.push(key);
        show(key);
        push({
          turn: t.turn,
          kind: "camera",
          durationFrames: n + hold(t),
          motionFrames: n,
          frames: files,
          hud: poses.map((p) => hud(p, after)),
          crossfade: null,
          keyframe: { offset: n - 1, file: key, turn: t.turn },
        });
      }
    }
    base = after;
  }

  if (episode.outcome || guessed) {
    push({
      turn: -1,
      kind: "score",
      durationFrames: toFrames(SCORE_S, fps),
      motionFrames: 0,
      frames: [shown],
      hud: [hud(poseOf(cam), base)],
      crossfade: null,
      keyframe: null,
    });
  }
  return { segments, jobs, guessed };
}
