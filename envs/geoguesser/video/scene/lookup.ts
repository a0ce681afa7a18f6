/**
 * Pure lookups from a video frame number into the timeline. The composition
 * never computes camera geometry: it only picks what the generator wrote
 * for this frame (segment, frame file, HUD state, crossfade weight).
 */
import type { HudState, Segment, Timeline } from "../../replay/timeline/timeline-schema.ts";

export interface FramePosition {
  index: number; // segment index
  segment: Segment;
  offset: number; // video frames since the segment started
}

/** The segment covering `frame` (binary search; frames past the end stay on the last segment). */
export function segmentAt(segments: Segment[], frame: number): FramePosition {
  let lo = 0;
  let hi = segments.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (segments[mid].startFrame <= frame) lo = mid;
    else hi = mid - 1;
  }
  const segment = segments[lo];
  return { index: lo, segment, offset: Math.max(0, frame - segment.startFrame) };
}

/** The HUD state for a segment offset: one per motion frame, the last one holds. */
export function hudAt(segment: Segment, offset: number): HudState {
  return segment.hud[Math.min(offset, segment.hud.length - 1)];
}

export interface ViewportFrame {
  /** The frame file to show fully. */
  file: string | null;
  /** During a move: the other file and its opacity on top of `file`. */
  blend: { file: string; opacity: number } | null;
}

/**
 * What the viewport shows. A segment without frame files (score card, a
 * no-image turn) keeps the last file of the nearest earlier segment, so the
 * panorama never blinks out.
 */
export function viewportAt(segments: Segment[], pos: FramePosition): ViewportFrame {
  const { segment, offset } = pos;
  const cf = segment.crossfade;
  if (cf && offset < cf.blendFrames) {
    // Blend weight reaches 1 on the last blend frame, so the cut to `to` is invisible.
    return { file: cf.from, blend: { file: cf.to, opacity: (offset + 1) / cf.blendFrames } };
  }
  if (segment.frames.length > 0) return { file: segment.frames[Math.min(offset, segment.frames.length - 1)], blend: null };
  if (cf) return { file: cf.to, blend: null };
  return { file: lastFileBefore(segments, pos.index), blend: null };
}

function lastFileBefore(segments: Segment[], index: number): string | null {
  for (let i = index - 1; i >= 0; i--) {
    const s = segments[i];
    if (s.frames.length > 0) return s.frames[s.frames.length - 1];
    if (s.crossfade) return s.crossfade.to;
  }
  return null;
}

/** Whether the score card (or the guess reveal) has started: the country may be shown from here on. */
export function guessMade(segments: Segment[], pos: FramePosition): boolean {
  for (let i = 0; i <= pos.index; i++) if (segments[i].kind === "guess" || segments[i].kind === "score") return true;
  return false;
}

/** 0..1 progress through a segment. */
export function segmentProgress(pos: FramePosition): number {
  return pos.segment.durationFrames <= 1 ? 1 : Math.min(1, pos.offset / (pos.segment.durationFrames - 1));
}

/** "CC-BY-SA-4.0" -> "CC BY-SA 4.0"; other licence strings are shown as they are. */
export function licenceLabel(licence: string): string {
  const m = /^CC[- ]([A-Z-]+?)[- ](\d\.\d)$/i.exec(licence.trim());
  return m ? `CC ${m[1].toUpperCase()} ${m[2]}` : licence;
}

export function creditLine(t: Timeline): string {
  const a = t.episode.attribution;
  return `Imagery: ${a.creator ?? "unknown contributor"} / ${a.source}, ${licenceLabel(a.licence)}`;
}
