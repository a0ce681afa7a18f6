/**
 * `georeplay/video`: the scenes and the painter, to draw georeplay's frames
 * on any Canvas 2D context, and the Remotion compositions (`georeplay/video/remotion`,
 * which needs Remotion installed) to register in another Remotion project. GeoGuesser's
 * compositions (Rollout, Compare, Group) are registered on import, so `sceneAt` paints them.
 */
import "./register.ts";
import type { GeoVideoSpec } from "./composition.ts";

export type { GeoVideoSpec };
export { RolloutPropsSchema, outputSize, DEFAULT_WIDTH, DEFAULT_HEIGHT, type RolloutProps } from "./rollout/props.ts";
export { TimelineSchema, type Timeline } from "../replay/timeline/timeline-schema.ts";
export { ComparePropsSchema, CompareSideSchema, type CompareProps, type CompareSide } from "./compare/props.ts";
export { GroupPropsSchema, GroupSiblingSchema, type GroupProps, type GroupSibling } from "./group/props.ts";
export { gridShape, groupLayout, type GroupLayout, type GroupTile } from "../../../video/parts/group-grid.ts";
export { sceneAt, videoFrames, videoFps, videoSize, type VideoSpec } from "../../../video/compositions.ts";
export { measuringLayouter, planLayouter, type TextLayouter } from "../../../video/text/layouter.ts";
export { TextPlanSchema, type TextPlan } from "../../../video/text/text-plan-schema.ts";
export type { Scene, Prim } from "../../../video/scene/types.ts";
export { paint, type PaintEnv } from "../../../video/paint.ts";
