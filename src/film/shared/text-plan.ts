/**
 * Lays out every line a video will show, once, with Skia and the registered
 * fonts, by building each frame's scene with a recording layouter: the plan
 * the Remotion composition replays, so its lines are these lines.
 */
// The environments' compositions, registered before any scene is built.
import "../../../envs/compositions.ts";
import { sceneAt, videoFrames, type VideoSpec } from "../../../video/compositions.ts";
import { LayoutCache, measuringLayouter, type TextPlan } from "../../../video/text/layouter.ts";
import type { Measure } from "../../../video/text/lines.ts";
import { MapReads } from "./map-reads.ts";
import { nodeMeasure } from "./fonts.ts";
import { readPlaces } from "./map-data.ts";

/**
 * One Skia measure and one layout cache for every plan of the process: a page plans thousands of
 * episodes whose texts repeat (the same labels, models, tasks and feedback in the same fonts), and
 * a cached answer is the answer measuring would give (the same measure, an exact key).
 */
let process_: { measure: Measure; layouts: LayoutCache } | undefined;
const shared = () => (process_ ??= { measure: nodeMeasure(), layouts: new LayoutCache() });

export function planText(spec: VideoSpec): TextPlan {
  return planTextAndMaps(spec, false).text;
}

/**
 * The text plan, and (when asked) the atlas cells every map of the video reads: what a
 * player elsewhere (the page's) needs besides the props to paint the same frames.
 */
export function planTextAndMaps(spec: VideoSpec, maps = true): { text: TextPlan; cells: string[] } {
  const tx = measuringLayouter(shared().measure, readPlaces, shared().layouts);
  const total = videoFrames(spec);
  const reads = new MapReads();
  for (let f = 0; f < total; f++) reads.visitScene(sceneAt(spec, f, tx));
  return { text: reads.trimPlan(tx.plan()), cells: maps ? reads.cells() : [] };
}

/** The spec with its text plan in the props (what the Remotion composition receives). */
export function withTextPlan<S extends VideoSpec>(spec: S): S {
  return { ...spec, props: { ...spec.props, text: planText(spec) } };
}
