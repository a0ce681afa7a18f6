/**
 * What one Rollout frame shows, as a pure function of (timeline, frame):
 * which segment, which frame files, which HUD state, whether the map and the
 * panorama are on screen. The scene (scene/rollout.ts) is laid out from it.
 */
import type { HudState, Timeline } from "../../replay/timeline/timeline-schema.ts";
import { hudAt, segmentAt, segmentProgress, viewportAt, type FramePosition, type ViewportFrame } from "../scene/lookup.ts";
import { panoramaOnScreen, recordedMapFiles } from "../slideshow/recorded-maps.ts";

export type RolloutFrame =
  | { kind: "score"; pos: FramePosition }
  | {
      kind: "panel";
      pos: FramePosition;
      view: ViewportFrame;
      hud: HudState;
      showMap: boolean;
      panoramaVisible: boolean;
      /** Trace pane inputs; null during the opening (the intro shows instead). */
      trace: { progress: number; offset: number } | null;
    };

/** `maps` is recordedMapFiles(t), passed in so a caller walking every frame computes it once. */
export function rolloutFrame(t: Timeline, frame: number, maps: Set<string> = recordedMapFiles(t)): RolloutFrame {
  const pos = segmentAt(t.segments, frame);
  const { segment, offset } = pos;
  if (segment.kind === "score") return { kind: "score", pos };
  const view = viewportAt(t.segments, pos);
  const showMap = segment.kind === "map" && segment.pins.length > 0;
  // The panorama is on screen unless the map fully covers it, or a slideshow shows a recorded map image.
  const panoramaVisible = view.file !== null && !(showMap && offset >= 8) && panoramaOnScreen(view, maps);
  return {
    kind: "panel",
    pos,
    view,
    hud: hudAt(segment, offset),
    showMap,
    panoramaVisible,
    trace: segment.kind === "opening" ? null : { progress: segmentProgress(pos), offset },
  };
}

/** The file the next video frame shows, fetched ahead (invisible: not part of the signature). */
export function prefetchFile(t: Timeline, frame: number): string | null {
  if (frame + 1 >= t.totalFrames) return null;
  const v = viewportAt(t.segments, segmentAt(t.segments, frame + 1));
  return v.blend?.file ?? v.file;
}
