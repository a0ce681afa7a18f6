/**
 * The generated training run's shape, shared by its generator and its render
 * workers: the task pool, which tasks each step draws, and the camera poses a
 * rollout can reach. Everything is a pure function of its arguments and the
 * generator version, so any process can recompute any part of the run.
 *
 * Distinct views are bounded on purpose. A real run of 1,000 steps x 8 tasks x
 * 16 generations re-renders about a million views; rendering each one distinct
 * would take days here. The run instead draws its tasks from a pool (as a
 * trainer's dataloader walks a dataset epoch after epoch) and its cameras from
 * a grid: per task 2 frames x 8 headings (every 45 degrees) x 2 fields of view
 * (90 and a 30 degree zoom), pitch 0. Every action (look, pan by 45, zoom,
 * move, reset) keeps the camera on that grid, so the whole run holds at most
 * pool x 32 distinct views: 64 x 32 = 2,048 by default, rendered in minutes.
 */
import { createHash } from "node:crypto";

/** Bump when the output changes: the cache is keyed by it. */
export const GENERATOR_VERSION = 1;

export interface TrainingShape {
  steps: number;
  tasksPerStep: number;
  generations: number;
  /** Rank files the rollouts are split over, as a multi-GPU trainer writes them. */
  ranks: number;
  /** Distinct tasks the steps draw from (a multiple of tasksPerStep). */
  pool: number;
  /** Size of the rendered views (the environment's default). */
  viewSize: number;
}

export const DEFAULT_TRAINING: TrainingShape = { steps: 1000, tasksPerStep: 8, generations: 16, ranks: 4, pool: 64, viewSize: 640 };

export const SPLIT = "train";
export const FRAMES_PER_TASK = 2;
export const PANO_WIDTH = 2048;
export const HEADINGS = [0, 45, 90, 135, 180, 225, 270, 315];
export const WIDE_FOV = 90;
export const ZOOM_FOV = 30;

/** Deterministic uniform [0, 1) from a label. */
export function unit(label: string): number {
  return createHash("sha256").update(label).digest().readUInt32LE(0) / 2 ** 32;
}

/** A fast seeded generator (mulberry32) for the many draws of one rollout; seeded from a label. */
export function seeded(label: string): () => number {
  let a = Math.floor(unit(label) * 2 ** 32) >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

export function imageId(task: number, frame: number): string {
  // Mapillary-like: 15 digits, apart from the board's.
  return String(200_000_000_000_000 + Math.floor(unit(`train-img:${task}:${frame}`) * 7e14));
}

export const compassAngle = (task: number, frame: number): number => unit(`train-compass:${task}:${frame}`) * 360;

export interface Camera {
  heading_deg: number;
  pitch_deg: number;
  fov_deg: number;
  frame_index: number;
}

/** The reset view, the same for every sibling of a group (GRPO's determinism contract). */
export const START_CAMERA: Camera = { heading_deg: 0, pitch_deg: 0, fov_deg: WIDE_FOV, frame_index: 0 };

/** Every camera a rollout can reach: the grid above. */
export function reachableCameras(): Camera[] {
  const out: Camera[] = [];
  for (let frame = 0; frame < FRAMES_PER_TASK; frame++)
    for (const heading of HEADINGS) for (const fov of [WIDE_FOV, ZOOM_FOV]) out.push({ heading_deg: heading, pitch_deg: 0, fov_deg: fov, frame_index: frame });
  return out;
}

export const viewKey = (task: number, c: Camera): string => `${task}|${c.frame_index}|${c.heading_deg}|${c.pitch_deg}|${c.fov_deg}`;

/**
 * The pool tasks of one step: the dataloader walks the pool in a fresh seeded
 * order each epoch, tasksPerStep prompts a step, so a step never holds one task twice.
 */
export function stepTasks(shape: TrainingShape, step: number): number[] {
  const out: number[] = [];
  for (let j = 0; j < shape.tasksPerStep; j++) {
    const at = step * shape.tasksPerStep + j;
    out.push(epochOrder(shape.pool, Math.floor(at / shape.pool))[at % shape.pool]);
  }
  return out;
}

const orders = new Map<string, number[]>();
function epochOrder(pool: number, epoch: number): number[] {
  const key = `${pool}:${epoch}`;
  let order = orders.get(key);
  if (!order) {
    order = Array.from({ length: pool }, (_, i) => i);
    const rand = seeded(`epoch:${epoch}`);
    for (let i = pool - 1; i > 0; i--) {
      const k = Math.floor(rand() * (i + 1));
      [order[i], order[k]] = [order[k], order[i]];
    }
    orders.set(key, order);
  }
  return order;
}
