/**
 * Map framing, in the environment's own rules, as pure functions.
 * A frame is a centre and a longitude half-width in degrees; the map fits
 * 2 * halfWidth degrees of longitude across its width (Mercator at the centre).
 */
import { geoDistance } from "d3-geo";

export interface MapFrame {
  center: [number, number]; // [lat, lon]
  halfWidth: number; // degrees of longitude
}

const RAD = 180 / Math.PI;

/** Great-circle separation of two [lat, lon] points, in degrees. */
export function separationDeg(a: [number, number], b: [number, number]): number {
  return geoDistance([a[1], a[0]], [b[1], b[0]]) * RAD;
}

/**
 * The reveal map's framing: more than 25 degrees apart, centred on the truth
 * with a 12 degree half-width; otherwise on the midpoint, half-width
 * max(0.05, 0.75 * sep + 0.4).
 */
export function revealFrame(guess: [number, number], truth: [number, number]): MapFrame {
  const sep = separationDeg(guess, truth);
  if (sep > 25) return { center: truth, halfWidth: 12 };
  return { center: midpoint(guess, truth), halfWidth: Math.max(0.05, 0.75 * sep + 0.4) };
}

/** A pin map's framing: the pins' span (never tighter than a few degrees, so one pin shows its region). */
export function pinsFrame(pins: [number, number][]): MapFrame {
  if (pins.length === 0) return { center: [20, 0], halfWidth: 180 };
  const lats = pins.map((p) => p[0]);
  const lons = pins.map((p) => p[1]);
  const span = Math.max(Math.max(...lats) - Math.min(...lats), Math.max(...lons) - Math.min(...lons));
  const center: [number, number] = [(Math.max(...lats) + Math.min(...lats)) / 2, (Math.max(...lons) + Math.min(...lons)) / 2];
  return { center, halfWidth: Math.min(180, Math.max(4, 0.75 * span + 0.4)) };
}

/** Midpoint by plain averaging (the frames it is used for span under 25 degrees). */
function midpoint(a: [number, number], b: [number, number]): [number, number] {
  let dl = b[1] - a[1];
  if (dl > 180) dl -= 360;
  if (dl < -180) dl += 360;
  let lon = a[1] + dl / 2;
  if (lon > 180) lon -= 360;
  if (lon < -180) lon += 360;
  return [(a[0] + b[0]) / 2, lon];
}

/** Atlas resolution for a framing: finer data only where it can be seen. */
export function atlasFor(frame: MapFrame): "10m" | "50m" | "110m" {
  if (frame.halfWidth <= 4) return "10m";
  if (frame.halfWidth <= 30) return "50m";
  return "110m";
}
