/**
 * What one Rollout frame shows, as a pure function of (timeline, frame, size):
 * the composition draws from it, and `rolloutSignature` reduces it to the
 * values the pixels depend on. Frames with equal signatures are drawn
 * alike, so the renderer screenshots the first of a run of equal frames
 * and lets the encoder repeat it (holds, guesses, the settled score card).
 */
import type { HudState, Timeline } from "../replay/timeline/timeline-schema.ts";
import { hudAt, panoramaOnScreen, recordedMapFiles, segmentAt, segmentProgress, viewportAt, type FramePosition, type ViewportFrame } from "./lookup.ts";
import { mapMotion, scoreMotion, traceMotion } from "./motion.ts";
import { rolloutLayout } from "./layout.ts";

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

/** A pure function from frame number to a string: equal strings mean equal pixels. */
export type FrameSignature = (frame: number) => string;

/**
 * Rollout's signature: the segment (everything constant through it) plus the
 * animated values each scene computes with the same motion functions it draws
 * with. Raw offsets never enter it, so a settled animation stops changing it.
 */
export function rolloutSignature(t: Timeline, size: { width: number; height: number }): FrameSignature {
  const maps = recordedMapFiles(t);
  const L = rolloutLayout(size.width, size.height, t.viewport);
  return (frame) => {
    const f = rolloutFrame(t, frame, maps);
    const { index, segment, offset } = f.pos;
    if (f.kind === "score") return JSON.stringify(["score", index, scoreMotion(offset)]);
    const active = t.trace.find((e) => e.turn === segment.turn) ?? null;
    return JSON.stringify([
      "panel",
      index,
      f.view,
      f.hud,
      f.panoramaVisible,
      f.showMap ? mapMotion(offset) : null,
      f.trace ? traceMotion(active, L.trace.width, L.trace.height, L.unit, f.trace.progress, f.trace.offset) : null,
    ]);
  };
}
