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
} from "../../../../replay/plan/camera-path.ts";

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
  /**
   * A turn's reply length in characters (how long its hold lasts). Default: its text's. A page
   * that carries replies cut short (a board) passes the recorded length, so the holds are the same.
   */
  replyChars?: (t: Turn) => number;
}

/**
 * Plans the whole episode. The first turn (the reset) is the opening; every
 * later turn gets one segment (its kind decided by turnSegment); a score card
 * closes an episode with an outcome.
 */
export function planEpisode(episode: Episode, opts: PlanOptions): EpisodePlan {
  const turns = episode.turns;
  if (turns.length === 0) throw new PlanError(`episode ${episode.episode_id} has no turns`);
  const first = turns[0];
  if (first.image_kind !== "view" || !first.image_sha256 || !first.camera_after) {
    throw new PlanError(`episode ${episode.episode_id} turn ${first.turn}: the opening turn has no view with a recorded hash, so there is nothing to replay`);
  }
  const plan = new Planner(first, opts.fps, opts.replyChars ?? replyChars);
  for (const t of turns.slice(1)) plan.turn(t);
  if (episode.outcome || plan.guessed) plan.score();
  return { segments: plan.segments, jobs: plan.jobs, guessed: plan.guessed };
}

/** The plan as it grows turn by turn: the frame files so far, and what is on screen now. */
class Planner {
  readonly jobs: FrameJob[] = [];
  readonly segments: SegmentPlan[] = [];
  guessed = false;
  private cam: Camera;
  private shown: string;
  private shownDigest: string;
  private base: HudBase;
  private pins: [number, number][];

  constructor(
    first: Turn,
    private readonly fps: number,
    private readonly replyLength: (t: Turn) => number,
  ) {
    this.cam = first.camera_after as Camera;
    this.shown = this.addKeyframe(first);
    this.shownDigest = (first.image_sha256 as string).toLowerCase();
    this.base = {
      stepsRemaining: first.steps_remaining ?? null,
      cost: first.action_cost ?? 0,
      metres: metresAfter(first, 0),
      frameIndex: this.cam.frame_index,
    };
    this.pins = (first.pins ?? []).map(([a, b]) => [a, b]);
    this.push({
      turn: first.turn,
      kind: "opening",
      durationFrames: toFrames(OPENING_S, fps),
      motionFrames: 0,
      frames: [this.shown],
      hud: [hud(poseOf(this.cam), this.base)],
      crossfade: null,
      keyframe: { offset: 0, file: this.shown, turn: first.turn },
    });
  }

  /** One later turn's segment: a failed turn holds, a guess or map turn holds longer, a view moves the camera. */
  turn(t: Turn): void {
    const after: HudBase = {
      stepsRemaining: t.steps_remaining ?? this.base.stepsRemaining,
      cost: t.action_cost ?? this.base.cost,
      metres: metresAfter(t, this.base.metres),
      frameIndex: t.camera_after?.frame_index ?? this.cam.frame_index,
    };
    if (t.pins) this.pins = t.pins.map(([a, b]) => [a, b]);
    const name = actionName(t);
    const hasView = t.image_kind === "view" && !!t.image_sha256 && !!t.camera_after;
    if (turnFailed(t)) this.failed(t, after, hasView);
    else if (turnGuessed(t)) {
      this.guessed = true;
      this.holdOn(t, "guess", Math.max(toFrames(GUESS_HOLD_S, this.fps), this.hold(t)), after);
    } else if (t.image_kind === "map" || (name !== null && MAP_ACTIONS.has(name)))
      this.holdOn(t, "map", Math.max(toFrames(MAP_HOLD_S, this.fps), this.hold(t)), after);
    else if (!hasView) this.holdOn(t, "hold", this.hold(t), after);
    else this.view(t, after);
    this.base = after;
  }

  /** The closing score card, on what is shown last. */
  score(): void {
    this.holdOn(null, "score", toFrames(SCORE_S, this.fps), this.base);
  }

  private newFile(): string {
    return frameFileName(this.jobs.length);
  }

  private addKeyframe(t: Turn): string {
    const c = t.camera_after as Camera;
    const file = this.newFile();
    this.jobs.push({ kind: "keyframe", file, turn: t.turn, frameIndex: c.frame_index, pose: poseOf(c), digest: (t.image_sha256 as string).toLowerCase() });
    return file;
  }

  private push(s: Omit<SegmentPlan, "pins">): void {
    this.segments.push({ ...s, pins: this.pins.map(([a, b]) => [a, b]) });
  }

  private hold(t: Turn): number {
    return toFrames(holdSeconds(this.replyLength(t)), this.fps);
  }

  /** The view file of this turn: what is on screen when the bytes are the same, else a new keyframe. */
  private viewFile(t: Turn): string {
    if ((t.image_sha256 as string).toLowerCase() === this.shownDigest) return this.shown;
    return this.addKeyframe(t);
  }

  private show(t: Turn, file: string): void {
    this.shown = file;
    this.shownDigest = (t.image_sha256 as string).toLowerCase();
    this.cam = t.camera_after as Camera;
  }

  /** A segment that shows what is on screen for `frames` (no keyframe: nothing new is seen). */
  private holdOn(t: Turn | null, kind: SegmentKind, frames: number, after: HudBase): void {
    this.push({
      turn: t?.turn ?? -1,
      kind,
      durationFrames: frames,
      motionFrames: 0,
      frames: [this.shown],
      hud: [hud(poseOf(this.cam), after)],
      crossfade: null,
      keyframe: null,
    });
  }

  /** A failed turn: the observation repeats; a view that somehow differs is shown as a cut. */
  private failed(t: Turn, after: HudBase, hasView: boolean): void {
    let keyframe: SegmentPlan["keyframe"] = null;
    if (hasView) {
      const file = this.viewFile(t);
      this.show(t, file);
      keyframe = { offset: 0, file, turn: t.turn };
    }
    this.push({
      turn: t.turn,
      kind: "hold",
      durationFrames: this.hold(t),
      motionFrames: 0,
      frames: [this.shown],
      hud: [hud(poseOf(this.cam), after)],
      crossfade: null,
      keyframe,
    });
  }

  /** A turn with a new view: a walk (another panorama), a still look, or a camera move. */
  private view(t: Turn, after: HudBase): void {
    const target = t.camera_after as Camera;
    const move = cameraMove(poseOf(this.cam), poseOf(target));
    if (target.frame_index !== this.cam.frame_index) this.walk(t, target, move, after);
    else if (isStill(move)) {
      // Dead-end move, or a look at the pose already shown: nothing moves.
      const file = this.viewFile(t);
      this.show(t, file);
      this.push({
        turn: t.turn,
        kind: "hold",
        durationFrames: this.hold(t),
        motionFrames: 0,
        frames: [file],
        hud: [hud(poseOf(target), after)],
        crossfade: null,
        keyframe: { offset: 0, file, turn: t.turn },
      });
    } else this.look(t, move, after);
  }

  /**
   * Walk: crossfade old panorama -> new panorama at the same pose. If the pose
   * changed too (unusual), the old panorama is first shown at the new pose.
   */
  private walk(t: Turn, target: Camera, move: ReturnType<typeof cameraMove>, after: HudBase): void {
    const before = this.base;
    let from = this.shown;
    if (!isStill(move)) {
      from = this.newFile();
      this.jobs.push({ kind: "render", file: from, frameIndex: this.cam.frame_index, pose: poseOf(target) });
    }
    const to = this.viewFile(t);
    const blend = toFrames(CROSSFADE_S, this.fps);
    const huds: HudState[] = [];
    for (let i = 1; i <= blend; i++) {
      const a = i / blend;
      huds.push(
        hud(poseOf(target), {
          ...after,
          metres: before.metres + (after.metres - before.metres) * a,
          frameIndex: a < 0.5 ? this.cam.frame_index : target.frame_index,
        }),
      );
    }
    this.show(t, to);
    this.push({
      turn: t.turn,
      kind: "move",
      durationFrames: blend + this.hold(t),
      motionFrames: blend,
      frames: huds.map(() => to),
      hud: huds,
      crossfade: { from, to, blendFrames: blend },
      keyframe: { offset: blend - 1, file: to, turn: t.turn },
    });
  }

  /** A camera move on one panorama: one reprojection per frame, the last one the exact recorded view. */
  private look(t: Turn, move: ReturnType<typeof cameraMove>, after: HudBase): void {
    const n = toFrames(motionSeconds(move), this.fps);
    const poses = motionPoses(move, n);
    const files: string[] = [];
    for (let i = 0; i < n - 1; i++) {
      const file = this.newFile();
      this.jobs.push({ kind: "render", file, frameIndex: this.cam.frame_index, pose: poses[i] });
      files.push(file);
    }
    const key = this.addKeyframe(t);
    files.push(key);
    this.show(t, key);
    this.push({
      turn: t.turn,
      kind: "camera",
      durationFrames: n + this.hold(t),
      motionFrames: n,
      frames: files,
      hud: poses.map((p) => hud(p, after)),
      crossfade: null,
      keyframe: { offset: n - 1, file: key, turn: t.turn },
    });
  }
}
