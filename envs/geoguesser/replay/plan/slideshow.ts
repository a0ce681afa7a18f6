/**
 * Example-rollout episodes -> a slideshow plan (pure, no I/O). These folders
 * record no camera trajectory and no hashes: the image files are the record.
 * So nothing is re-rendered: each recorded image becomes one frame file and
 * consecutive images crossfade into each other. Segment kinds still follow
 * the turn's action (camera, move, map, guess, hold) so the trace pane and
 * the score card work as for a replay; `episode.source = "slideshow"` in the
 * timeline says that the pixels are recorded images, not a replay.
 *
 * Maps (`.png`) are shown as recorded images too: the folder records no pins
 * (only the model's requested coordinates), so drawing our own map would
 * invent state the environment never showed.
 */
import type { Episode, Turn } from "../schema/episode.ts";
import type { RecordedImage } from "../formats/example.ts";
import type { HudState } from "../timeline/timeline-schema.ts";
import { CROSSFADE_S, GUESS_HOLD_S, holdSeconds, MAP_HOLD_S, OPENING_S, SCORE_S, toFrames, wrapHeading } from "../../../../replay/plan/camera-path.ts";
import { frameFileName, PlanError, type SegmentPlan } from "./segments.ts";
import { actionName, MAP_ACTIONS, turnFailed, turnGuessed } from "../rules/turns.ts";

/** One frame file of a slideshow: a recorded image, copied or transcoded to the viewport. */
export interface SlideJob {
  file: string;
  /** The first turn that showed this image (identical images share one file). */
  turn: number;
  image: RecordedImage;
  /** sha256 of the recorded file's bytes (identifies identical images). */
  sourceSha: string;
}

export interface SlideshowPlan {
  segments: SegmentPlan[];
  jobs: SlideJob[];
  guessed: boolean;
}

const MOVE_ACTIONS = new Set(["move"]);

/** What an example-rollout row does not record: shown as unknown, not as the placeholder numbers. */
const ALWAYS_UNKNOWN: NonNullable<HudState["unknown"]> = ["pitch", "frameIndex", "metres"];

const r4 = (x: number): number => Math.round(x * 1e4) / 1e4;
const replyChars = (t: Turn): number => (t.model?.reply ?? "").length;

interface RecordedHud {
  heading: number | null;
  fov: number | null;
  stepsRemaining: number | null;
  cost: number;
}

/** The HUD as recorded on the row: heading and fov from `recorded_camera`; pitch, frame index and metres unknown. */
function hudOf(h: RecordedHud): HudState {
  const unknown = [...(h.heading === null ? ["heading" as const] : []), ...(h.fov === null ? ["fov" as const] : []), ...ALWAYS_UNKNOWN];
  const heading = r4(wrapHeading(h.heading ?? 0));
  return {
    heading: heading >= 360 ? 0 : heading,
    pitch: 0,
    fov: r4(h.fov ?? 90),
    stepsRemaining: h.stepsRemaining,
    cost: r4(h.cost),
    frameIndex: 0,
    metres: 0,
    unknown,
  };
}

function recordedCamera(t: Turn): { heading: number | null; fov: number | null } {
  const c = (t as { recorded_camera?: { heading_deg?: unknown; fov_deg?: unknown } | null }).recorded_camera;
  const num = (x: unknown) => (typeof x === "number" && Number.isFinite(x) ? x : null);
  return { heading: num(c?.heading_deg), fov: num(c?.fov_deg) };
}

/**
 * Plans the slideshow. `shaOf` gives the sha256 of each recorded image file
 * (by path); every image of `images` must have one (the caller read them all).
 */
export function planSlideshow(episode: Episode, images: RecordedImage[], shaOf: (path: string) => string, opts: { fps: number }): SlideshowPlan {
  const { fps } = opts;
  const turns = episode.turns;
  if (turns.length === 0) throw new PlanError(`episode ${episode.episode_id} has no turns`);
  const imageOf = new Map(images.map((im) => [im.turn, im]));
  const first = turns[0];
  const firstImage = imageOf.get(first.turn);
  if (!firstImage) throw new PlanError(`episode ${episode.episode_id} turn ${first.turn}: the opening turn has no recorded image, so there is nothing to show`);

  const jobs: SlideJob[] = [];
  const segments: SegmentPlan[] = [];
  const fileOfSha = new Map<string, string>();
  /** The frame file for an image: identical recorded images (a dead-end move, a repeated view) share one. */
  const fileFor = (t: Turn, image: RecordedImage): string => {
    const sha = shaOf(image.path);
    let file = fileOfSha.get(sha);
    if (!file) {
      file = frameFileName(jobs.length);
      jobs.push({ file, turn: t.turn, image, sourceSha: sha });
      fileOfSha.set(sha, file);
    }
    return file;
  };

  let shown = fileFor(first, firstImage);
  let hudBase: RecordedHud = { ...recordedCamera(first), stepsRemaining: first.steps_remaining ?? null, cost: first.action_cost ?? 0 };
  let guessed = false;
  const blend = toFrames(CROSSFADE_S, fps);
  const hold = (t: Turn): number => toFrames(holdSeconds(replyChars(t)), fps);
  const viewKeyframe = (image: RecordedImage | undefined, offset: number, file: string, turn: number): SegmentPlan["keyframe"] =>
    image?.kind === "view" ? { offset, file, turn } : null;

  segments.push({
    turn: first.turn,
    kind: "opening",
    durationFrames: toFrames(OPENING_S, fps),
    motionFrames: 0,
    frames: [shown],
    hud: [hudOf(hudBase)],
    crossfade: null,
    pins: [],
    keyframe: viewKeyframe(firstImage, 0, shown, first.turn),
  });

  for (const t of turns.slice(1)) {
    const cam = recordedCamera(t);
    hudBase = {
      heading: cam.heading ?? hudBase.heading,
      fov: cam.fov ?? hudBase.fov,
      stepsRemaining: t.steps_remaining ?? hudBase.stepsRemaining,
      cost: t.action_cost ?? hudBase.cost,
    };
    const name = actionName(t);
    const image = imageOf.get(t.turn);
    const isGuess = turnGuessed(t);
    if (isGuess) guessed = true;
    const kind: SegmentPlan["kind"] = turnFailed(t)
      ? "hold"
      : isGuess
        ? "guess"
        : image?.kind === "map" || (name !== null && MAP_ACTIONS.has(name))
          ? "map"
          : !image
            ? "hold"
            : name !== null && MOVE_ACTIONS.has(name)
              ? "move"
              : "camera";
    const minHold = kind === "guess" ? toFrames(GUESS_HOLD_S, fps) : kind === "map" ? toFrames(MAP_HOLD_S, fps) : 0;
    const file = image ? fileFor(t, image) : shown;
    if (file !== shown) {
      // A new image: crossfade from what is on screen; the last blend frame shows it fully.
      segments.push({
        turn: t.turn,
        kind,
        durationFrames: blend + Math.max(minHold, hold(t)),
        motionFrames: blend,
        frames: [file],
        hud: [hudOf(hudBase)],
        crossfade: { from: shown, to: file, blendFrames: blend },
        pins: [],
        keyframe: viewKeyframe(image, blend - 1, file, t.turn),
      });
      shown = file;
    } else {
      // The same image again (or none): nothing changes on screen.
      segments.push({
        turn: t.turn,
        kind: kind === "move" || kind === "camera" ? "hold" : kind,
        durationFrames: Math.max(minHold, hold(t)),
        motionFrames: 0,
        frames: [shown],
        hud: [hudOf(hudBase)],
        crossfade: null,
        pins: [],
        keyframe: viewKeyframe(image, 0, shown, t.turn),
      });
    }
  }

  if (episode.outcome || guessed) {
    segments.push({
      turn: -1,
      kind: "score",
      durationFrames: toFrames(SCORE_S, fps),
      motionFrames: 0,
      frames: [shown],
      hud: [hudOf(hudBase)],
      crossfade: null,
      pins: [],
      keyframe: null,
    });
  }
  return { segments, jobs, guessed };
}
