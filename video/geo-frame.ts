/**
 * Map framing for the composition. The framing rules are the page's too and
 * live once in replay/rules/map-frame.ts; this adds only what drawing needs.
 * A frame fits 2 × halfWidthDeg degrees of longitude across the map's width
 * (Mercator at the centre).
 */
import { pinsFrame as pinsFrameOrNull, WORLD_FRAME, type MapFrame } from "../replay/rules/map-frame.ts";

export { revealFrame, separationDeg, WORLD_FRAME, type MapFrame } from "../replay/rules/map-frame.ts";

/** A pin map's framing: all pins in view (the shared rule), the whole world before the first pin. */
export function pinsFrame(pins: readonly (readonly [number, number])[]): MapFrame {
  return pinsFrameOrNull(pins) ?? WORLD_FRAME;
}

/** Atlas resolution for a framing: finer data only where it can be seen. */
export function atlasFor(frame: MapFrame): "10m" | "50m" | "110m" {
  if (frame.halfWidthDeg <= 8) return "10m"; // pin maps (6° or more) and close reveals: coastline detail
  if (frame.halfWidthDeg <= 30) return "50m";
  return "110m";
}
