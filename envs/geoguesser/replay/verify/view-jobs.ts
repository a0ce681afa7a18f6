/**
 * Which views of an episode can be re-rendered, and from what: turns each
 * view turn into a render job (panorama file, absolute heading, size, the
 * recorded digest), and says plainly why a turn cannot be checked.
 */
import type { Episode, Turn, Camera } from "../schema/episode.ts";
import type { Frame, TaskRow } from "../schema/task.ts";
import type { HashScheme } from "../../../../replay/render/hash.ts";
import type { ViewSpec } from "../render/reproject.ts";
import { panoPath } from "../panos/files.ts";

export interface ViewJob {
  turn: number;
  /** The panorama file the environment sampled (hires rule applied). */
  path: string;
  view: ViewSpec;
  expected: string;
  scheme: HashScheme;
  camera: Camera;
}

export interface TurnCounts {
  map: number;
  none: number;
  viewWithoutHash: number;
}

/** True when the turn carries a view the verifier must reproduce. */
export function isCheckedView(t: Turn): boolean {
  return t.image_kind === "view" && typeof t.image_sha256 === "string" && t.image_sha256.length > 0;
}

/** The frame a camera looks at, or a specific reason it cannot. */
export function frameOf(task: TaskRow, camera: Camera, where: string): Frame {
  const frame = task.frames[camera.frame_index];
  if (!frame) {
    throw new Error(
      `${where}: camera_after.frame_index ${camera.frame_index} is out of range (task ${task.task_index} has ${task.frames.length} frames, 0..${task.frames.length - 1})`,
    );
  }
  return frame;
}

export function viewSpecFor(camera: Camera, frame: Frame, size: number): ViewSpec {
  return {
    headingDeg: camera.heading_deg + (frame.compass_angle ?? 0),
    pitchDeg: camera.pitch_deg,
    fovDeg: camera.fov_deg,
    width: size,
    height: size,
  };
}

/**
 * Render jobs for every checked view of the episode. Problems (frame out of
 * range, bad image id) are returned per turn so the other turns still run.
 */
export function viewJobs(
  episode: Episode,
  task: TaskRow,
  panosDir: string,
  size: number,
  scheme: HashScheme,
): { jobs: ViewJob[]; problems: { turn: number; message: string }[]; counts: TurnCounts } {
  const jobs: ViewJob[] = [];
  const problems: { turn: number; message: string }[] = [];
  const counts: TurnCounts = { map: 0, none: 0, viewWithoutHash: 0 };
  episode.turns.forEach((t, i) => {
    if (t.image_kind === "map") return void counts.map++;
    if (t.image_kind !== "view") return void counts.none++;
    if (!isCheckedView(t)) return void counts.viewWithoutHash++;
    const where = `turns[${i}] (turn ${t.turn})`;
    try {
      const camera = t.camera_after as Camera; // the schema guarantees it for hashed views
      const frame = frameOf(task, camera, where);
      jobs.push({
        turn: t.turn,
        path: panoPath(panosDir, frame.image_id, camera.fov_deg),
        view: viewSpecFor(camera, frame, size),
        expected: (t.image_sha256 as string).toLowerCase(),
        scheme,
        camera,
      });
    } catch (e) {
      const msg = (e as Error).message;
      problems.push({ turn: t.turn, message: msg.startsWith(where) ? msg : `${where}: ${msg}` });
    }
  });
  return { jobs, problems, counts };
}
