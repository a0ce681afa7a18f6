/** A slideshow shows recorded images, maps among them: which of its frame files are maps, and when a panorama is on screen. */
import type { Timeline } from "../../replay/timeline/timeline-schema.ts";
import type { ViewportFrame } from "../scene/lookup.ts";

/**
 * Frame files of a slideshow that are recorded map images, not panoramas: a
 * slideshow marks every view image it shows as a segment keyframe, so a file
 * shown by a segment without one (a map or guess turn's `.png`) and never a
 * keyframe elsewhere is a map. Replays draw their maps themselves: none.
 */
export function recordedMapFiles(t: Timeline): Set<string> {
  const maps = new Set<string>();
  if (t.episode.source !== "slideshow") return maps;
  const views = new Set(t.segments.flatMap((s) => (s.keyframe ? [s.keyframe.file] : [])));
  for (const s of t.segments) {
    if (s.keyframe || (s.kind !== "map" && s.kind !== "guess")) continue;
    for (const f of [...s.frames, ...(s.crossfade ? [s.crossfade.to] : [])]) if (!views.has(f)) maps.add(f);
  }
  return maps;
}

/** Whether any panorama shows in this viewport frame (a crossfade shows both of its files). */
export function panoramaOnScreen(view: ViewportFrame, maps: Set<string>): boolean {
  const visible: string[] = [];
  if (view.file && !(view.blend && view.blend.opacity >= 1)) visible.push(view.file);
  if (view.blend && view.blend.opacity > 0) visible.push(view.blend.file);
  return visible.some((f) => !maps.has(f));
}
