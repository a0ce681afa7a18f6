/**
 * Remotion root: `Rollout` (props = the timeline, validated by its zod
 * schema; duration, fps and size computed from it) and `Trivial` (same size
 * and length, the benchmark's baseline).
 */
import React from "react";
import { Composition, getStaticFiles, type CalculateMetadataFunction } from "remotion";
import { RolloutPropsSchema, outputSize, type RolloutProps } from "./props.ts";
import { Rollout } from "./Rollout.tsx";
import { Trivial } from "./Trivial.tsx";
import { PLACEHOLDER } from "./placeholder.ts";
import { loadFonts } from "./fonts.ts";

loadFonts();

/**
 * Duration, fps and size from the timeline. Given no timeline (the Studio
 * without --props), it previews the first `rollouts/<slug>/timeline.json` in
 * the public dir, e.g. the one `npm run demo` writes.
 */
export const calculateRolloutMetadata: CalculateMetadataFunction<RolloutProps> = async ({ props }) => {
  let p = props;
  if (props.episode.episodeId === PLACEHOLDER.episode.episodeId) p = (await publicTimeline()) ?? props;
  const { width, height } = outputSize(props);
  return { durationInFrames: p.totalFrames, fps: p.fps, width, height, props: { ...p, output: props.output } };
};

async function publicTimeline(): Promise<RolloutProps | null> {
  const found = getStaticFiles()
    .filter((f) => /^rollouts\/[^/]+\/timeline\.json$/.test(f.name))
    .sort((a, b) => a.name.localeCompare(b.name))[0];
  if (!found) return null;
  try {
    const res = await fetch(found.src);
    return RolloutPropsSchema.parse(await res.json());
  } catch {
    return null; // an unreadable file: keep the placeholder
  }
}

/** Rollout and its benchmark twin share props, metadata and defaults: only the component differs. */
const shared = {
  schema: RolloutPropsSchema,
  defaultProps: PLACEHOLDER,
  calculateMetadata: calculateRolloutMetadata,
  durationInFrames: PLACEHOLDER.totalFrames,
  fps: 30,
  width: 1280,
  height: 720,
} as const;

export const RemotionRoot: React.FC = () => (
  <>
    <Composition id="Rollout" component={Rollout} {...shared} />
    <Composition id="Trivial" component={Trivial} {...shared} />
  </>
);
