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
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== "object") return;
    const p = node as { t?: string; frame?: MapFrame; w?: number; h?: number };
    if (p.t === "map" && p.frame && p.w && p.h) {
      const key = JSON.stringify([p.frame, p.w, p.h]);
      if (framings.has(key)) return;
      framings.add(key);
      for (const ref of cellsFor(atlasFor(p.frame), mapProjection(p.frame, p.w, p.h).view)) cells.add(ref.key);
      return;
    }
    for (const v of Object.values(node)) if (typeof v === "object") visit(v);
  };
  for (let f = 0; f < total; f++) {
    const scene = sceneAt(spec, f, tx);
    if (maps) visit(scene);
  }
  return { text: tx.plan(), cells: [...cells].sort() };
}

/** The spec with its text plan in the props (what the Remotion composition receives). */
export function withTextPlan(spec: VideoSpec): VideoSpec {
  const text = planText(spec);
  return spec.composition === "Rollout"
    ? { composition: "Rollout", props: { ...spec.props, text } }
    : { composition: "Compare", props: { ...spec.props, text } };
}
