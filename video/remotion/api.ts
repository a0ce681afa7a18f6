/**
 * `georeplay/video/remotion`: the Rollout, Compare and Group compositions, to
 * register in another Remotion project (needs remotion and react installed):
 * <Composition component={Rollout} schema={RolloutPropsSchema} … /> with a
 * timeline.json (or props.json) written by `georeplay frames`, its frame files in your public dir.
 */
export { Rollout, Compare, Group, RemotionRoot } from "./Root.tsx";
