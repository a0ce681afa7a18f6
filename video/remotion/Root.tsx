/**
 * Remotion root, for Studio previews and `--engine remotion`: `Rollout`
 * (props = the timeline, validated by its zod schema; duration, fps and size
 * computed from it) and `Compare` (two timelines side by side on one
 * turn-aligned clock) and `Group` (a GRPO group's siblings in a grid on one
 * clock). Each is one <canvas> painted from the same scenes the native
 * engine paints.
 */
import React, { useMemo } from "react";
import { Composition, getStaticFiles, type CalculateMetadataFunction } from "remotion";
import { RolloutPropsSchema, outputSize, type RolloutProps } from "../../envs/geoguesser/video/rollout/props.ts";
import { PLACEHOLDER } from "../../envs/geoguesser/video/rollout/placeholder.ts";
import { loadFonts } from "./fonts.ts";
import { ComparePropsSchema, CompareSideSchema, sideLabels, type CompareProps } from "../../envs/geoguesser/video/compare/props.ts";
import { compareClock } from "../../envs/geoguesser/video/compare/clock.ts";
import { COMPARE_PLACEHOLDER } from "../../envs/geoguesser/video/compare/placeholder.ts";
import { GroupPropsSchema, type GroupProps } from "../../envs/geoguesser/video/group/props.ts";
import { groupClock } from "../../envs/geoguesser/video/group/clock.ts";
import { GROUP_PLACEHOLDER } from "../../envs/geoguesser/video/group/placeholder.ts";
import { CanvasVideo } from "./CanvasVideo.tsx";

/** A timeline as a two-up side holds it (the compositions own their props' schemas; the wrapper knows no environment). */
const TimelineSchema = CompareSideSchema.shape.timeline;
type Timeline = CompareProps["a"]["timeline"];

export const Rollout: React.FC<RolloutProps> = (props) => {
  const spec = useMemo(() => ({ composition: "Rollout" as const, props }), [props]);
  return <CanvasVideo spec={spec} />;
};

export const Compare: React.FC<CompareProps> = (props) => {
  const spec = useMemo(() => ({ composition: "Compare" as const, props }), [props]);
  return <CanvasVideo spec={spec} />;
};

export const Group: React.FC<GroupProps> = (props) => {
  const spec = useMemo(() => ({ composition: "Group" as const, props }), [props]);
  return <CanvasVideo spec={spec} />;
};

loadFonts();

/**
 * Duration, fps and size from the timeline. Given no timeline (the Studio
 * without --props), it previews the first `rollouts/<slug>/props.json` (or
 * timeline.json) in the public dir, e.g. the ones `npm run demo` writes.
 */
export const calculateRolloutMetadata: CalculateMetadataFunction<RolloutProps> = async ({ props }) => {
  let p = props;
  if (props.episode.episodeId === PLACEHOLDER.episode.episodeId) p = (await publicTimeline()) ?? props;
  const { width, height } = outputSize(props);
  return { durationInFrames: p.totalFrames, fps: p.fps, width, height, props: { ...p, output: props.output, text: props.text ?? p.text } };
};

/** Per episode folder under public/rollouts/, its props.json (text laid out in Node) or else its timeline.json. */
function publicTimelineFiles() {
  const files = getStaticFiles().filter((f) => /^rollouts\/[^/]+\/(props|timeline)\.json$/.test(f.name));
  const byFolder = new Map<string, (typeof files)[number]>();
  for (const f of files.sort((a, b) => a.name.localeCompare(b.name))) {
    const folder = f.name.slice(0, f.name.lastIndexOf("/"));
    if (!byFolder.has(folder) || f.name.endsWith("/props.json")) byFolder.set(folder, f);
  }
  return [...byFolder.values()];
}

async function publicTimeline(): Promise<RolloutProps | null> {
  const found = publicTimelineFiles()[0];
  if (!found) return null;
  try {
    const res = await fetch(found.src);
    return RolloutPropsSchema.parse(await res.json());
  } catch {
    return null; // an unreadable file: keep the placeholder
  }
}

/**
 * Compare: duration from the two timelines' shared clock, fps from them, size
 * from the optional output prop. Given no props (the Studio), it compares the
 * first two timelines of one task in `public/rollouts/` (`npm run demo` writes
 * a pair), else the first timeline with itself.
 */
export const calculateCompareMetadata: CalculateMetadataFunction<CompareProps> = async ({ props }) => {
  let p = props;
  if (props.a.timeline.episode.episodeId === COMPARE_PLACEHOLDER.a.timeline.episode.episodeId) p = (await publicPair()) ?? props;
  const clock = compareClock(p);
  const { width, height } = outputSize(props);
  return { durationInFrames: clock.totalFrames, fps: clock.fps, width, height, props: { ...p, output: props.output } };
};

async function publicPair(): Promise<CompareProps | null> {
  const timelines: Timeline[] = [];
  for (const f of publicTimelineFiles()) {
    try {
      timelines.push(TimelineSchema.parse(await (await fetch(f.src)).json()));
    } catch {
      /* unreadable: skip it */
    }
  }
  if (timelines.length === 0) return null;
  const key = (t: Timeline) => `${t.episode.split}#${t.episode.index}`;
  const a = timelines.find((t) => timelines.some((u) => u !== t && key(u) === key(t))) ?? timelines[0];
  const b = timelines.find((u) => u !== a && key(u) === key(a)) ?? a;
  const side = (t: Timeline) => ({ arm: t.episode.modelName, pass: null });
  const [la, lb] = sideLabels(side(a), side(b));
  return ComparePropsSchema.parse({ version: 1, a: { timeline: a, ...side(a), label: la }, b: { timeline: b, ...side(b), label: lb } });
}

/** Group: duration and fps from the siblings' shared clock, size from the optional output prop (props from `georeplay render --group`). */
export const calculateGroupMetadata: CalculateMetadataFunction<GroupProps> = async ({ props }) => {
  const clock = groupClock(props);
  const { width, height } = outputSize(props);
  return { durationInFrames: clock.totalFrames, fps: clock.fps, width, height, props };
};

export const RemotionRoot: React.FC = () => (
  <>
    <Composition
      id="Rollout"
      component={Rollout}
      schema={RolloutPropsSchema}
      defaultProps={PLACEHOLDER}
      calculateMetadata={calculateRolloutMetadata}
      durationInFrames={PLACEHOLDER.totalFrames}
      fps={30}
      width={1280}
      height={720}
    />
    <Composition
      id="Compare"
      component={Compare}
      schema={ComparePropsSchema}
      defaultProps={COMPARE_PLACEHOLDER}
      calculateMetadata={calculateCompareMetadata}
      durationInFrames={compareClock(COMPARE_PLACEHOLDER).totalFrames}
      fps={30}
      width={1280}
      height={720}
    />
    <Composition
      id="Group"
      component={Group}
      schema={GroupPropsSchema}
      defaultProps={GROUP_PLACEHOLDER}
      calculateMetadata={calculateGroupMetadata}
      durationInFrames={groupClock(GROUP_PLACEHOLDER).totalFrames}
      fps={30}
      width={1280}
      height={720}
    />
  </>
);
