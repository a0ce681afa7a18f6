/**
 * `georeplay/video`: the composition, to embed in another Remotion project.
 * Register them with your own <Composition component={Rollout} schema={RolloutPropsSchema} … />
 * (or Compare with ComparePropsSchema: two timelines side by side)
 * and pass a timeline.json written by `georeplay frames` (its frame files in your public dir).
 */
export { Rollout } from "./Rollout.tsx";
export { RolloutPropsSchema, outputSize, DEFAULT_WIDTH, DEFAULT_HEIGHT, type RolloutProps } from "./props.ts";
export { TimelineSchema, type Timeline } from "../replay/timeline/timeline-schema.ts";
export { Compare } from "./Compare.tsx";
export { ComparePropsSchema, CompareSideSchema, type CompareProps, type CompareSide } from "./compare-props.ts";
