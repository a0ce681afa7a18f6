/**
 * Lays out every line a video will show, once, with Skia and the registered
 * fonts, by building each frame's scene with a recording layouter: the plan
 * the Remotion composition replays, so its lines are these lines.
 */
import { sceneAt, videoFrames, type VideoSpec } from "../../../video/compositions.ts";
import { measuringLayouter, type TextPlan } from "../../../video/text/layouter.ts";
import { atlasFor, cellsFor } from "../../../video/map/atlas.ts";
import { mapProjection } from "../../../video/map/projection.ts";
import type { MapFrame } from "../../../video/map/frame.ts";
import { minPopulation, placeCellsFor, type Place } from "../../../video/map/places.ts";
import { nodeMeasure } from "./fonts.ts";
import { readPlaces } from "./map-data.ts";

export function planText(spec: VideoSpec): TextPlan {
  return planTextAndMaps(spec, false).text;
}

/**
 * The text plan, and (when asked) the atlas cells every map of the video reads: what a
 * player elsewhere (the page's) needs besides the props to paint the same frames.
 */
export function planTextAndMaps(spec: VideoSpec, maps = true): { text: TextPlan; cells: string[] } {
  const tx = measuringLayouter(nodeMeasure(), readPlaces);
  const total = videoFrames(spec);
  const framings = new Set<string>();
  const cells = new Set<string>();
  /** Per gazetteer cell, what the video's framings read of it: their views (shifted into the cell's longitudes) and floors. */
  const reads = new Map<string, { lat: [number, number]; lon: [number, number]; floor: number }[]>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== "object") return;
    const p = node as { t?: string; frame?: MapFrame; w?: number; h?: number };
    if (p.t === "map" && p.frame && p.w && p.h) {
      const key = JSON.stringify([p.frame, p.w, p.h]);
      if (framings.has(key)) return;
      framings.add(key);
      const view = mapProjection(p.frame, p.w, p.h).view;
      for (const ref of cellsFor(atlasFor(p.frame), view)) cells.add(ref.key);
      const floor = minPopulation(p.frame.halfWidthDeg);
      for (const c of placeCellsFor(view)) {
        const read = { lat: view.lat, lon: [view.lon[0] - c.shift, view.lon[1] - c.shift] as [number, number], floor };
        reads.set(c.key, [...(reads.get(c.key) ?? []), read]);
      }
      return;
    }
    for (const v of Object.values(node)) if (typeof v === "object") visit(v);
  };
  for (let f = 0; f < total; f++) visit(sceneAt(spec, f, tx));
  return { text: trimPlaces(tx.plan(), reads), cells: maps ? [...cells].sort() : [] };
}

/**
 * A gazetteer cell as the plan records it, cut to the places some framing of the video can
 * name: those inside a view that reads the cell, at or above that view's population floor.
 * The cut keeps the cell's order (most populous first), and a framing stops at its floor
 * (placesIn), so every framing names exactly what it named from the whole cell. Cells no
 * framing was seen to read stay whole.
 */
function trimPlaces(plan: TextPlan, reads: Map<string, { lat: [number, number]; lon: [number, number]; floor: number }[]>): TextPlan {
  const out: TextPlan = {};
  for (const [k, v] of Object.entries(plan)) {
    const views = k.startsWith("places|") ? reads.get(k.slice("places|".length)) : undefined;
    out[k] =
      views === undefined || !Array.isArray(v)
        ? v
        : (v as Place[]).filter((p) => views.some((w) => p[3] >= w.floor && p[1] >= w.lat[0] && p[1] <= w.lat[1] && p[2] >= w.lon[0] && p[2] <= w.lon[1]));
  }
  return out;
}

/** The spec with its text plan in the props (what the Remotion composition receives). */
export function withTextPlan(spec: VideoSpec): VideoSpec {
  const text = planText(spec);
  return spec.composition === "Rollout"
    ? { composition: "Rollout", props: { ...spec.props, text } }
    : { composition: "Compare", props: { ...spec.props, text } };
}
