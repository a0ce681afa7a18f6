/** Camera-path maths: shortest headings, uniform zooms, easing without overshoot, bounded durations. */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  cameraMove,
  easeInOut,
  fovFromZoomCoord,
  holdSeconds,
  motionPoses,
  motionSeconds,
  MOTION_MAX_S,
  MOTION_MIN_S,
  pointsForDistance,
  poseAt,
  shortestDelta,
  toFrames,
  wrapHeading,
  zoomCoord,
} from "../../replay/plan/camera-path.ts";

const pose = (heading: number, pitch = 0, fov = 90) => ({ heading, pitch, fov });
/** Unwraps a wrapped heading sequence into a continuous one. */
function unwrap(hs: number[]): number[] {
  const out = [hs[0]];
  for (let i = 1; i < hs.length; i++) out.push(out[i - 1] + shortestDelta(hs[i - 1], hs[i]));
  return out;
}

describe("headings", () => {
  it("takes the shortest way round, also for raw headings from look (-3600..3600)", () => {
    expect(shortestDelta(350, 10)).toBe(20);
    expect(shortestDelta(10, 350)).toBe(-20);
    expect(shortestDelta(0, 90)).toBe(90);
    expect(shortestDelta(90, 0)).toBe(-90);
    expect(shortestDelta(0, 270)).toBe(-90);
    expect(shortestDelta(-3590, 3610)).toBe(0); // both are 10 deg
    expect(shortestDelta(3590, -3590)).toBe(20); // 350 -> 10
    expect(shortestDelta(0, 180)).toBe(180); // a half turn is clockwise, deterministically
    expect(shortestDelta(180, 0)).toBe(180);
  });

  it("property: the delta is in (-180, 180] and lands on the target heading", () => {
    fc.assert(
      fc.property(fc.double({ min: -3600, max: 3600, noNaN: true }), fc.double({ min: -3600, max: 3600, noNaN: true }), (a, b) => {
        const d = shortestDelta(a, b);
        expect(d).toBeGreaterThan(-180);
        expect(d).toBeLessThanOrEqual(180);
        const miss = Math.abs(shortestDelta(wrapHeading(a + d), b));
        expect(miss).toBeLessThan(1e-9);
      }),
    );
  });

  it("wraps into [0, 360)", () => {
    for (const h of [-1e-15, -360, 360, 720.5, -0.5, 359.9999999999999]) {
      const w = wrapHeading(h);
      expect(w).toBeGreaterThanOrEqual(0);
      expect(w).toBeLessThan(360);
    }
    expect(wrapHeading(-90)).toBe(270);
  });
});

describe("easing", () => {
  it("is monotonic, starts and ends at rest, never overshoots", () => {
    let prev = 0;
    for (let i = 0; i <= 1000; i++) {
      const e = easeInOut(i / 1000);
      expect(e).toBeGreaterThanOrEqual(prev);
      expect(e).toBeGreaterThanOrEqual(0);
      expect(e).toBeLessThanOrEqual(1);
      prev = e;
    }
    expect(easeInOut(0)).toBe(0);
    expect(easeInOut(1)).toBe(1);
    expect(easeInOut(0.5)).toBeCloseTo(0.5, 12);
    // slow in, slow out: the first and last 10% cover far less than 10% of the way
    expect(easeInOut(0.1)).toBeLessThan(0.02);
    expect(1 - easeInOut(0.9)).toBeLessThan(0.02);
  });
});

describe("camera moves", () => {
  it("350 -> 10 passes through 0, never through 180", () => {
    const poses = motionPoses(cameraMove(pose(350), pose(10)), 30);
    for (const p of poses) expect(p.heading >= 350 || p.heading <= 10).toBe(true);
    const u = unwrap([350, ...poses.map((p) => p.heading)]);
    expect(u.at(-1)).toBeCloseTo(370, 9);
    for (let i = 1; i < u.length; i++) expect(u[i]).toBeGreaterThan(u[i - 1]);
    expect(poses.some((p) => p.heading < 5) && poses.some((p) => p.heading > 355)).toBe(true);
  });

  it("interpolates fov in log(tan(fov/2)): equal steps of eased time give equal magnification ratios", () => {
    const m = cameraMove(pose(0, 0, 90), pose(0, 0, 30));
    const zs = [0, 0.25, 0.5, 0.75, 1].map((e) => zoomCoord(poseAt(m, e).fov));
    for (let i = 1; i < zs.length; i++) expect(zs[i] - zs[i - 1]).toBeCloseTo((zs[4] - zs[0]) / 4, 12);
    // not linear in degrees: halfway in time is below the degree midpoint (60)
    expect(poseAt(m, 0.5).fov).toBeLessThan(60);
    expect(fovFromZoomCoord(zoomCoord(37.5))).toBeCloseTo(37.5, 12);
  });

  it("ends exactly on the target pose and starts one step away from the start", () => {
    const m = cameraMove(pose(0, 0, 30), pose(90, -10, 90));
    const poses = motionPoses(m, toFrames(motionSeconds(m), 30));
    expect(poses.at(-1)).toEqual({ heading: 90, pitch: -10, fov: 90 });
    expect(poses[0]).not.toEqual({ heading: 0, pitch: 0, fov: 30 });
    // every coordinate moves monotonically, no overshoot
    for (let i = 1; i < poses.length; i++) {
      expect(poses[i].heading).toBeGreaterThan(poses[i - 1].heading);
      expect(poses[i].pitch).toBeLessThan(poses[i - 1].pitch);
      expect(poses[i].fov).toBeGreaterThan(poses[i - 1].fov);
      expect(poses[i].heading).toBeLessThanOrEqual(90);
      expect(poses[i].fov).toBeLessThanOrEqual(90);
    }
  });

  it("durations grow with the angle and the zoom ratio, within bounds", () => {
    const s = (a: number, b: number, fa = 90, fb = 90) => motionSeconds(cameraMove(pose(a, 0, fa), pose(b, 0, fb)));
    expect(s(0, 10)).toBeLessThan(s(0, 90));
    expect(s(0, 90)).toBeLessThan(s(0, 180));
    expect(s(0, 0, 90, 60)).toBeLessThan(s(0, 0, 90, 20));
    expect(s(0, 0, 20, 15)).toBeGreaterThanOrEqual(MOTION_MIN_S);
    expect(s(0, 180, 120, 10)).toBe(MOTION_MAX_S);
    expect(s(0, 0.01)).toBeCloseTo(MOTION_MIN_S, 3);
    expect(s(0, 0)).toBe(MOTION_MIN_S);
    // a 90 degree look at 30 fps has at least 20 frames
    expect(toFrames(s(0, 90), 30)).toBeGreaterThanOrEqual(20);
    // zoom in and zoom out by the same ratio take the same time
    expect(s(0, 0, 90, 30)).toBeCloseTo(s(0, 0, 30, 90), 12);
  });

  it("holds longer for long replies, within 1.2..1.8 s", () => {
    expect(holdSeconds(0)).toBe(1.2);
    expect(holdSeconds(400)).toBeGreaterThan(1.2);
    expect(holdSeconds(100000)).toBeCloseTo(1.8, 12);
  });
});

describe("points", () => {
  it("is round(5000 * exp(-d / 1492.7))", () => {
    expect(pointsForDistance(0)).toBe(5000);
    expect(pointsForDistance(0.6187981749684509)).toBe(4998);
    expect(pointsForDistance(1492.7)).toBe(Math.round(5000 / Math.E));
    expect(pointsForDistance(20000)).toBe(0);
  });
});
