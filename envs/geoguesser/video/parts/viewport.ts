/** The panorama view (the generator's frame file, blended during a move) and the pins map over it. */
import { pinsFrame, WORLD_FRAME } from "../../../../video/map/frame.ts";
import type { ViewportFrame } from "../scene/lookup.ts";
import { mapMotion } from "../../../../video/scene/motion.ts";
import { C } from "../../../../video/scene/theme.ts";
import type { Draw } from "../../../../video/scene/draw.ts";
import type { Box } from "../../../../video/scene/types.ts";
import { worldMap } from "../../../../video/parts/world-map.ts";

/** A frame file's path relative to the public dir (what Remotion's staticFile and the native painter resolve). */
export const framePath = (framesDir: string, file: string) => (framesDir ? `${framesDir}/${file}` : file);

export function viewportImages(d: Draw, framesDir: string, view: ViewportFrame, b: Box): void {
  if (view.file) d.prims.push({ t: "image", src: framePath(framesDir, view.file), ...b });
  if (view.blend) d.group({ alpha: view.blend.opacity }, () => d.prims.push({ t: "image", src: framePath(framesDir, view.blend!.file), ...b }));
}

/** The pins map for place_pin / view_map turns, framed at the pins' span (the shared rule), fading in over the view. */
export function mapPanel(d: Draw, pins: [number, number][], box: Box, offset: number, unit: number): void {
  const { appear, newestPin } = mapMotion(offset);
  const markers = pins.map((p, i) => ({
    at: p,
    color: C.accent,
    label: `Pin ${i + 1}`,
    // The newest pin drops in after the map appears.
    scale: i === pins.length - 1 ? newestPin : 1,
  }));
  d.group({ alpha: appear }, () => {
    worldMap(d, box, pinsFrame(pins) ?? WORLD_FRAME, markers, unit);
  });
}
