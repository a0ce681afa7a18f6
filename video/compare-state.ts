/**
 * What one Compare frame shows, as pure functions of (props, clock, frame):
 * the composition draws each side from `compareSideFrame`, and
 * `compareSignature` reduces a frame to the values its pixels depend on, so
 * the renderer screenshots the first of a run of equal frames (a side that
 * has guessed holding while the other plays on, the settled score card).
 */
import type { Timeline } from "../replay/timeline/timeline-schema.ts";
import { alignTimelines, sideAt, slotAt, type CompareClock, type SideFrame } from "../replay/timeline/align.ts";
import type { CompareProps } from "./compare-props.ts";
import type { FrameSignature } from "./frame-state.ts";
import { hudAt, panoramaOnScreen, recordedMapFiles, viewportAt, type ViewportFrame } from "./lookup.ts";
import { compareScoreMotion, mapMotion, traceStripAppear } from "./motion.ts";
import type { HudState } from "../replay/timeline/timeline-schema.ts";

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
export function compareSideFrame(clock: CompareClock, t: Timeline, index: 0 | 1, frame: number, maps: Set<string> = recordedMapFiles(t)): CompareSideFrame {
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

/**
 * Compare's signature: the clock slot's label, and per side its segment and
 * the animated values its scenes draw with (viewport, HUD, map motion, the
 * trace strip's fade-in); on the score card, its animation values. Raw
 * offsets never enter it, so a settled animation stops changing it.
 */
export function compareSignature(p: CompareProps): FrameSignature {
  const clock = alignTimelines(p.a.timeline, p.b.timeline);
  const maps = [recordedMapFiles(p.a.timeline), recordedMapFiles(p.b.timeline)] as const;
  return (frame) => {
    const { slot } = slotAt(clock, frame);
    if (slot.kind === "score") return JSON.stringify(["score", compareScoreMotion(frame - clock.scoreStart)]);
    const sides = ([0, 1] as const).map((i) => {
      const s = compareSideFrame(clock, i === 0 ? p.a.timeline : p.b.timeline, i, frame, maps[i]);
      return [
        s.sf.index,
        s.sf.finished,
        s.view,
        s.hud,
        s.showMap ? mapMotion(s.sf.offset) : null,
        s.panoramaVisible,
        s.turnLabel,
        traceStripAppear(s.sf.offset),
      ];
    });
    return JSON.stringify(["panel", slot.kind === "turn" ? slot.turn : 0, sides]);
  };
}
