/**
 * Lays out every line a video will show, once, with Skia and the registered
 * fonts, by building each frame's scene with a recording layouter: the plan
 * the Remotion composition replays, so its lines are these lines.
 */
import { sceneAt, videoFrames, type VideoSpec } from "../../../video/compositions.ts";
import { measuringLayouter, type TextPlan } from "../../../video/text/layouter.ts";
import { MapReads } from "./map-reads.ts";
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
  const reads = new MapReads();
  for (let f = 0; f < total; f++) reads.visit(sceneAt(spec, f, tx));
  return { text: reads.trimPlan(tx.plan()), cells: maps ? reads.cells() : [] };
}

/** The spec with its text plan in the props (what the Remotion composition receives). */
export function withTextPlan(spec: VideoSpec): VideoSpec {
  const text = planText(spec);
  if (spec.composition === "Rollout") return { composition: "Rollout", props: { ...spec.props, text } };
  return spec.composition === "Compare" ? { composition: "Compare", props: { ...spec.props, text } } : { composition: "Group", props: { ...spec.props, text } };
}
