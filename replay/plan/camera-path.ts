/**
 * Camera-path maths for the replay video: pure functions, no I/O.
 *
 * A camera move goes from one pose to another along the shortest angular
 * heading path, with the field of view interpolated in log(tan(fov/2)) (the
 * image scale, so a zoom looks uniform to the eye), pitch interpolated
 * linearly, all driven by one ease-in-out curve that never overshoots.
 */

export interface Pose {
  /** Camera heading in degrees; may be unwrapped (outside [0, 360)) along a path. */
  heading: number;
  pitch: number;
  fov: number;
}

/** Heading mod 360 in [0, 360). */
export function wrapHeading(deg: number): number {
  const h = deg % 360;
  const w = h < 0 ? h + 360 : h;
  return w === 360 ? 0 : w; // -1e-15 % 360 + 360 rounds to 360
}

/**
 * Signed shortest turn from `from` to `to`, in (-180, 180]. Works for raw
 * headings in any range (look accepts -3600..3600): 350 -> 10 is +20, never -340.
 * An exact half turn goes clockwise (+180) so the choice is deterministic.
 */
export function shortestDelta(from: number, to: number): number {
  const d = wrapHeading(to - from);
  return d > 180 ? d - 360 : d;
}

/** Smootherstep: zero velocity and acceleration at both ends, monotonic on [0, 1], no overshoot. */
export function easeInOut(t: number): number {
  if (t <= 0) return 0;
  if (t >= 1) return 1;
  // Smootherstep is symmetric (f(t) = 1 - f(1 - t)); evaluating the upper half through the
  // lower one keeps it monotonic to the last ulp and never past 1 (the plain polynomial
  // rounds to 1 + 1 ulp just below t = 1).
  const f = (s: number) => s * s * s * (s * (s * 6 - 15) + 10);
  return t <= 0.5 ? f(t) : 1 - f(1 - t);
}

const DEG = Math.PI / 180;

/** The zoom coordinate: log of the image-plane half-width; linear in it means uniform magnification. */
export function zoomCoord(fovDeg: number): number {
  return Math.log(Math.tan((fovDeg * DEG) / 2));
}

export function fovFromZoomCoord(z: number): number {
  return (2 * Math.atan(Math.exp(z))) / DEG;
}

/** A camera move from `from` to `to`, with the heading delta already chosen (shortest path). */
export interface CameraMove {
  from: Pose;
  to: Pose;
  headingDelta: number;
}

export function cameraMove(from: Pose, to: Pose): CameraMove {
  return { from, to, headingDelta: shortestDelta(from.heading, to.heading) };
}

/** True when the move changes nothing the renderer would see. */
export function isStill(m: CameraMove): boolean {
  return m.headingDelta === 0 && m.from.pitch === m.to.pitch && m.from.fov === m.to.fov;
}

/**
 * Pose at eased progress `e` in [0, 1]. Endpoints are exact: e = 1 gives the
 * target pose itself (heading mod 360), so the last frame is the recorded view.
 */
export function poseAt(m: CameraMove, e: number): Pose {
  if (e >= 1) return { heading: wrapHeading(m.to.heading), pitch: m.to.pitch, fov: m.to.fov };
  if (e <= 0) return { heading: wrapHeading(m.from.heading), pitch: m.from.pitch, fov: m.from.fov };
  const z0 = zoomCoord(m.from.fov);
  const z1 = zoomCoord(m.to.fov);
  return {
    heading: wrapHeading(m.from.heading + m.headingDelta * e),
    pitch: m.from.pitch + (m.to.pitch - m.from.pitch) * e,
    fov: m.from.fov === m.to.fov ? m.from.fov : fovFromZoomCoord(z0 + (z1 - z0) * e),
  };
}

/** Motion timing limits, in seconds. */
export const MOTION_MIN_S = 0.6;
export const MOTION_MAX_S = 2.2;

/**
 * How long a move takes: grows with the angle turned (heading and pitch) and
 * with the zoom ratio (in octaves of magnification), clamped to [0.6 s, 2.2 s].
 * A 90 degree look takes 1.1 s; a 3x zoom about 1.4 s.
 */
export function motionSeconds(m: CameraMove): number {
  const angle = Math.hypot(m.headingDelta, m.to.pitch - m.from.pitch);
  const octaves = Math.abs(zoomCoord(m.to.fov) - zoomCoord(m.from.fov)) / Math.LN2;
  const s = MOTION_MIN_S + angle / 180 + 0.5 * octaves;
  return Math.min(MOTION_MAX_S, Math.max(MOTION_MIN_S, s));
}

/** Seconds to whole video frames (at least one). */
export function toFrames(seconds: number, fps: number): number {
  return Math.max(1, Math.round(seconds * fps));
}

/**
 * The poses of a move's video frames: frame i (0-based) shows eased progress
 * (i+1)/n, so the first frame already differs from the pose before the move
 * and the last one is exactly the target.
 */
export function motionPoses(m: CameraMove, frames: number): Pose[] {
  const out: Pose[] = [];
  for (let i = 1; i <= frames; i++) out.push(poseAt(m, easeInOut(i / frames)));
  return out;
}

/** Readable hold after a turn: 1.2 s, up to 1.8 s for long replies. */
export function holdSeconds(replyChars: number): number {
  return 1.2 + 0.6 * Math.min(1, Math.max(0, replyChars) / 800);
}

export const OPENING_S = 1.5;
export const CROSSFADE_S = 0.8;
export const MAP_HOLD_S = 1.6;
export const GUESS_HOLD_S = 2.0;
export const SCORE_S = 4.0;

/** Points a human sees for a distance: round(5000 * exp(-d / 1492.7)). */
export function pointsForDistance(km: number): number {
  return Math.round(5000 * Math.exp(-km / 1492.7));
}
