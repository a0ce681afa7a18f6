/**
 * What one side of a Compare frame shows, as a pure function of (clock,
 * timeline, side, frame): the scene (scene/compare.ts) draws each side from it.
 */
import type { Timeline } from "../../replay/timeline/timeline-schema.ts";
import { sideAt, type CompareClock, type SideFrame } from "../../replay/timeline/align.ts";
import { hudAt, viewportAt, type ViewportFrame } from "../scene/lookup.ts";
import { panoramaOnScreen, recordedMapFiles } from "../slideshow/recorded-maps.ts";
import type { HudState } from "../../replay/timeline/timeline-schema.ts";

export interface CompareSideFrame {
  sf: SideFrame;
  view: ViewportFrame;
  /** The file the next clock frame shows on this side, fetched ahead (invisible: not in the signature). */
  next: string | null;
  hud: HudState;
  showMap: boolean;
  panoramaVisible: boolean;
  turnLabel: string;
}

/** `maps` is recordedMapFiles(t), passed in so a caller walking every frame computes it once. */
export function compareSideFrame(clock: CompareClock, t: Timeline, index: number, frame: number, maps: Set<string> = recordedMapFiles(t)): CompareSideFrame {
  const sf = sideAt(clock, t.segments, index, frame);
  const { segment, offset } = sf;
  const view = viewportAt(t.segments, { index: sf.index, segment, offset });
  const nextSf = frame + 1 < clock.totalFrames ? sideAt(clock, t.segments, index, frame + 1) : null;
  const nextView = nextSf ? viewportAt(t.segments, { index: nextSf.index, segment: nextSf.segment, offset: nextSf.offset }) : null;
  const showMap = segment.kind === "map" && segment.pins.length > 0;
  const turns = clock.turns[index];
  const turnNo = clock.slots.findIndex((s) => s.segments[index] === sf.index);
  const slotTurn = turnNo >= 0 ? clock.slots[turnNo].turn : 0;
  return {
    sf,
    view,
    next: nextView ? (nextView.blend?.file ?? nextView.file) : null,
    hud: hudAt(segment, offset),
    showMap,
    panoramaVisible: view.file !== null && !(showMap && offset >= 8) && panoramaOnScreen(view, maps),
    turnLabel: sf.finished ? `Done after ${turns} turn${turns === 1 ? "" : "s"}` : slotTurn > 0 ? `Turn ${slotTurn} of ${turns}` : "Start",
  };
}
