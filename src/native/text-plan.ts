/**
 * Lays out every line a video will show, once, with Skia and the registered
 * fonts, by building each frame's scene with a recording layouter: the plan
 * the Remotion composition replays, so its lines are these lines.
 */
import { sceneAt, videoFrames, type VideoSpec } from "../../video/scene/index.ts";
import { measuringLayouter, type TextPlan } from "../../video/scene/text.ts";
import { nodeMeasure } from "./fonts.ts";
import { readPlaces } from "./map-data.ts";

export function planText(spec: VideoSpec): TextPlan {
  const tx = measuringLayouter(nodeMeasure(), readPlaces);
  const total = videoFrames(spec);
  for (let f = 0; f < total; f++) sceneAt(spec, f, tx);
  return tx.plan();
}

/** The spec with its text plan in the props (what the Remotion composition receives). */
export function withTextPlan(spec: VideoSpec): VideoSpec {
  const text = planText(spec);
  return spec.composition === "Rollout"
    ? { composition: "Rollout", props: { ...spec.props, text } }
    : { composition: "Compare", props: { ...spec.props, text } };
}
