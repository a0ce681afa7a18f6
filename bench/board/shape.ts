/**
 * The synthetic board's shape, shared by the generator and its render
 * workers: which tasks, frames and panoramas exist, and which views every
 * episode sees. Everything is a pure function of (arm, pass, task) and the
 * generator version, so any process can recompute any part of the board.
 */
import { createHash } from "node:crypto";

/** Bump when the output changes: the cache is keyed by it. */
export const GENERATOR_VERSION = 2;

export interface BoardShape {
  arms: number;
  tasks: number;
  k: number;
  /** Target JSON bytes per episode line (the published board: ~95 KB). */
  lineBytes: number;
  /** Size of the rendered views (the environment's default). */
  viewSize: number;
}

export const DEFAULT_SHAPE: BoardShape = { arms: 16, tasks: 200, k: 4, lineBytes: 95_000, viewSize: 640 };

export const FRAMES_PER_TASK = 3;
export const PANO_WIDTH = 2048;
export const ORIG_WIDTH = 4096;

/** Deterministic uniform [0, 1) from a label. */
export function unit(label: string): number {
  return createHash("sha256").update(label).digest().readUInt32LE(0) / 2 ** 32;
}

export function imageId(task: number, frame: number): string {
  // Mapillary-like: 15 digits.
  return String(100_000_000_000_000 + Math.floor(unit(`img:${task}:${frame}`) * 8e14));
}

/** One in eight frames also has a full-resolution `.orig.jpg` (sampled at fov <= 45). */
export const hasOrig = (task: number, frame: number): boolean => unit(`orig:${task}:${frame}`) < 0.125;

export const compassAngle = (task: number, frame: number): number => unit(`compass:${task}:${frame}`) * 360;

export const ARM_NAMES = [
  "base",
  "sonnet-5",
  "ckpt50",
  "ckpt100",
  "ckpt150",
  "ckpt200",
  "ckpt250",
  "ckpt300",
  "gpt-5-mini",
  "gemini-3-flash",
  "qwen3-vl-8b",
  "qwen3-vl-32b",
  "llama-4-scout",
  "pixtral-12b",
  "glm-4.6v",
  "internvl-3.5",
];
export const armName = (a: number): string => ARM_NAMES[a] ?? `arm-${a}`;

export interface Camera {
  heading_deg: number;
  pitch_deg: number;
  fov_deg: number;
  frame_index: number;
}

export interface PlannedView {
  action: Record<string, unknown>;
  camera: Camera;
}

/** The start view: the same for every attempt of a task (it is the one view that repeats). */
export const START_CAMERA: Camera = { heading_deg: 0, pitch_deg: 0, fov_deg: 90, frame_index: 0 };

/**
 * The episode's own views after the start: one or two (about 1.55 on average, so the board holds
 * about 200 + 12,800 x 1.55 = 20,000 distinct views), each a look, zoom or move no other episode makes.
 */
export function episodeViews(arm: number, pass: number, task: number): PlannedView[] {
  const key = `${arm}:${pass}:${task}`;
  const n = unit(`nviews:${key}`) < 0.55 ? 2 : 1;
  const out: PlannedView[] = [];
  for (let j = 0; j < n; j++) {
    const r = unit(`view:${key}:${j}`);
    // Headings distinct per episode: a fine-grained offset no two (arm, pass, task, j) share.
    const heading = (Math.round(((arm * 4 + pass) * 2 + j) * 1.37 * 1000 + unit(`h:${key}:${j}`) * 997) / 1000) % 360;
    if (r < 0.45) {
      const pitch = Math.round((unit(`p:${key}:${j}`) * 40 - 20) * 100) / 100;
      out.push({
        action: { action: "look", heading_deg: heading, pitch_deg: pitch, fov_deg: 90 },
        camera: { heading_deg: heading, pitch_deg: pitch, fov_deg: 90, frame_index: 0 },
      });
    } else if (r < 0.75) {
      const fov = 20 + Math.round(unit(`f:${key}:${j}`) * 40 * 100) / 100;
      out.push({ action: { action: "zoom", fov_deg: fov }, camera: { heading_deg: heading, pitch_deg: 0, fov_deg: fov, frame_index: 0 } });
    } else {
      const frame = 1 + Math.floor(unit(`m:${key}:${j}`) * (FRAMES_PER_TASK - 1));
      out.push({
        action: { action: "move", direction: "forward", meters: 10 * frame },
        camera: { heading_deg: heading, pitch_deg: 0, fov_deg: 90, frame_index: frame },
      });
    }
  }
  return out;
}

export const viewKey = (task: number, c: Camera): string => `${task}|${c.frame_index}|${c.heading_deg}|${c.pitch_deg}|${c.fov_deg}`;
