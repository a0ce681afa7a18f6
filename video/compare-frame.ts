/** The two-up score map's framing: truth and both guesses in view (pure). */
import type { MapFrame } from "./geo-frame.ts";

/**
 * Centre on the points' bounding box; the half-width (degrees of longitude)
 * fits both their longitude span and their latitude span (Mercator-stretched
 * at the centre, scaled by the map's aspect), with a margin, never tighter
 * than 0.05 degrees (one town) nor wider than the world.
 */
export function spanFrame(points: [number, number][], width: number, height: number): MapFrame {
  if (points.length === 0) return { center: [20, 0], halfWidthDeg: 180 };
  const lats = points.map((p) => p[0]);
  const lons = points.map((p) => p[1]);
  const center: [number, number] = [(Math.max(...lats) + Math.min(...lats)) / 2, (Math.max(...lons) + Math.min(...lons)) / 2];
  const cos = Math.max(0.2, Math.cos((center[0] * Math.PI) / 180));
  const lonSpan = Math.max(...lons) - Math.min(...lons);
  const latSpan = ((Math.max(...lats) - Math.min(...lats)) / cos) * (width / height);
  const span = Math.max(lonSpan, latSpan);
  return { center, halfWidthDeg: Math.min(180, Math.max(0.05, 0.9 * span + 0.3)) };
}
