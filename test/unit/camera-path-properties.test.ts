/** Property tests (fast-check) for the camera path: for any pair of cameras. */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  cameraMove,
  easeInOut,
  motionPoses,
  motionSeconds,
  shortestDelta,
  toFrames,
  wrapHeading,
  MOTION_MAX_S,
  MOTION_MIN_S,
  type Pose,
} from "../../replay/plan/camera-path.ts";

const pose = fc.record({
  heading: fc.double({ min: -3600, max: 3600, noNaN: true }),
  pitch: fc.double({ min: -90, max: 90, noNaN: true }),
  fov: fc.double({ min: 10, max: 120, noNaN: true }),
});
const between = (x: number, a: number, b: number, eps = 1e-9) => x >= Math.min(a, b) - eps && x <= Math.max(a, b) + eps;
/** Signed angular distance travelled from `from` to `h`, unwrapped in the move's direction. */
const travelled = (from: number, h: number, dir: number) => (dir >= 0 ? wrapHeading(h - from) : -wrapHeading(from - h));

describe("camera path properties", () => {
  it("takes the shortest angular path, and it lands on the target heading", () => {
    fc.assert(
      fc.property(pose, pose, (a, b) => {
        const d = shortestDelta(a.heading, b.heading);
        expect(d).toBeGreaterThan(-180);
        expect(d).toBeLessThanOrEqual(180);
        const diff = Math.abs(wrapHeading(a.heading + d) - wrapHeading(b.heading));
        expect(Math.min(diff, 360 - diff)).toBeLessThan(1e-6);
      }),
      { numRuns: 1000 },
    );
  });

  it("easing is monotonic and stays in [0, 1] (no overshoot)", () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), (s, t) => {
        const [lo, hi] = s <= t ? [s, t] : [t, s];
        expect(easeInOut(lo)).toBeLessThanOrEqual(easeInOut(hi));
        expect(easeInOut(lo)).toBeGreaterThanOrEqual(0);
        expect(easeInOut(hi)).toBeLessThanOrEqual(1);
      }),
      { numRuns: 1000 },
    );
  });

  it("every frame of a move progresses monotonically between the endpoints and ends exactly on the target", () => {
    fc.assert(
      fc.property(pose, pose, fc.constantFrom(10, 24, 30, 60), (a: Pose, b: Pose, fps) => {
        const m = cameraMove(a, b);
        const n = toFrames(motionSeconds(m), fps);
        const poses = motionPoses(m, n);
        expect(poses).toHaveLength(n);
        let lastTravel = 0;
        let lastFov = a.fov;
        let lastPitch = a.pitch;
        for (const p of poses) {
          const t = travelled(wrapHeading(a.heading), p.heading, m.headingDelta);
          // heading moves only in the chosen direction and never past the target
          if (m.headingDelta !== 0) {
            expect(Math.abs(t)).toBeGreaterThanOrEqual(Math.abs(lastTravel) - 1e-7);
            expect(Math.abs(t)).toBeLessThanOrEqual(Math.abs(m.headingDelta) + 1e-7);
          }
          expect(between(p.fov, a.fov, b.fov, 1e-7)).toBe(true);
          expect(between(p.pitch, a.pitch, b.pitch)).toBe(true);
          // monotonic towards the target (to within float64 noise of the log-tan round trip)
          expect((p.fov - lastFov) * Math.sign(b.fov - a.fov)).toBeGreaterThanOrEqual(-1e-9);
          expect((p.pitch - lastPitch) * Math.sign(b.pitch - a.pitch)).toBeGreaterThanOrEqual(-1e-9);
          lastTravel = t;
          lastFov = p.fov;
          lastPitch = p.pitch;
        }
        const end = poses[poses.length - 1];
        expect(end).toEqual({ heading: wrapHeading(b.heading), pitch: b.pitch, fov: b.fov });
      }),
      { numRuns: 400 },
    );
  });

  it("durations are bounded for any pair of cameras and grow with the angle", () => {
    fc.assert(
      fc.property(pose, pose, (a, b) => {
        const s = motionSeconds(cameraMove(a, b));
        expect(s).toBeGreaterThanOrEqual(MOTION_MIN_S);
        expect(s).toBeLessThanOrEqual(MOTION_MAX_S);
        const bigger = motionSeconds(cameraMove(a, { ...a, heading: a.heading + 170 }));
        const smaller = motionSeconds(cameraMove(a, { ...a, heading: a.heading + 20 }));
        expect(bigger).toBeGreaterThanOrEqual(smaller);
      }),
      { numRuns: 1000 },
    );
  });
});
