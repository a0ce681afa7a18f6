/**
 * The crops camera path for `frames`: the camera is a rectangle of the image. A move between two
 * recorded views eases the centre with GeoGuesser's ease-in-out (smootherstep) and the size in
 * log scale (so a 4x zoom reads as one steady move, like GeoGuesser's fov in log(tan(fov/2))).
 * Width and height are each interpolated geometrically, so a move between views of one aspect
 * keeps it. Pure functions, no I/O.
 */
import { easeInOut } from "../../../replay/plan/camera-path.ts";
import type { Rect } from "./geometry.ts";

export { easeInOut };

/** Move timing limits in seconds (GeoGuesser's), and the holds on each recorded view. */
export const MOVE_MIN_S = 0.6;
export const MOVE_MAX_S = 2.2;
export const OPENING_HOLD_S = 1.5;
export const TURN_HOLD_S = 1.0;
export const FINAL_HOLD_S = 2.0;
/** Frames over which a removed box's outline fades in the composition. */
export const FADE_S = 0.4;

const logLerp = (a: number, b: number, e: number) => (a === b ? a : Math.exp(Math.log(a) + (Math.log(b) - Math.log(a)) * e));

/**
 * The camera at eased progress `e` in [0, 1] from `from` to `to` (both inside the iw x ih image).
 * The endpoints are the recorded rectangles themselves; in between, the centre moves linearly in
 * `e` and the size geometrically. Such a rectangle lies inside the linear blend of the two (same
 * centre, no larger), hence inside the image; the clamp only guards the last ulp.
 */
export function rectAt(from: Rect, to: Rect, e: number, iw: number, ih: number): Rect {
  if (e <= 0) return [...from];
  if (e >= 1) return [...to];
  const cx = (from[0] + from[2]) / 2 + ((to[0] + to[2]) / 2 - (from[0] + from[2]) / 2) * e;
  const cy = (from[1] + from[3]) / 2 + ((to[1] + to[3]) / 2 - (from[1] + from[3]) / 2) * e;
  const w = logLerp(from[2] - from[0], to[2] - to[0], e);
  const h = logLerp(from[3] - from[1], to[3] - to[1], e);
  return [Math.max(0, cx - w / 2), Math.max(0, cy - h / 2), Math.min(iw, cx + w / 2), Math.min(ih, cy + h / 2)];
}

export const sameRect = (a: readonly number[], b: readonly number[]): boolean => a.every((v, i) => v === b[i]);

/**
 * How long a move takes: 0.6 s, plus 0.5 s per octave of zoom (doubling of width) and 0.4 s per
 * view width travelled by the centre (measured in the geometric-mean width), at most 2.2 s.
 */
export function moveSeconds(from: Rect, to: Rect): number {
  const wa = from[2] - from[0];
  const wb = to[2] - to[0];
  const octaves = Math.abs(Math.log2(wb / wa));
  const travel = Math.hypot((to[0] + to[2] - from[0] - from[2]) / 2, (to[1] + to[3] - from[1] - from[3]) / 2) / Math.sqrt(wa * wb);
  return Math.min(MOVE_MAX_S, Math.max(MOVE_MIN_S, MOVE_MIN_S + 0.5 * octaves + 0.4 * travel));
}

/** Seconds to whole video frames, at least `min`. */
export const secondsToFrames = (s: number, fps: number, min = 1): number => Math.max(min, Math.round(s * fps));

/**
 * The cameras of a move's video frames: frame i (1-based, of n) at eased progress i/n, so the
 * first already differs from the view before and the last is exactly the recorded view after.
 * A move that changes nothing has no frames.
 */
export function moveRects(from: Rect, to: Rect, fps: number, iw: number, ih: number): Rect[] {
  if (sameRect(from, to)) return [];
  const n = secondsToFrames(moveSeconds(from, to), fps, 2);
  const out: Rect[] = [];
  for (let i = 1; i <= n; i++) out.push(rectAt(from, to, easeInOut(i / n), iw, ih));
  return out;
}
