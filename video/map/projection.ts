/**
 * The map projection for a framing, shared by the scene (markers, the
 * great-circle line) and the painter (land and borders): Mercator centred
 * on the frame, 2 × halfWidthDeg degrees of longitude across the width.
 */
import { geoMercator, type GeoProjection } from "d3-geo";
import type { MapFrame } from "../../replay/rules/map-frame.ts";

export function mapProjection(frame: MapFrame, width: number, height: number): GeoProjection {
  const scale = width / ((2 * frame.halfWidthDeg * Math.PI) / 180);
  return geoMercator()
    .center([frame.center[1], frame.center[0]])
    .scale(scale)
    .translate([width / 2, height / 2])
    .clipExtent([
      [-2, -2],
      [width + 2, height + 2],
    ]);
}
