/**
 * Remotion root: `Rollout` (props = the timeline, validated by its zod
 * schema; duration, fps and size computed from it) and `Trivial` (same size
 * and length, the benchmark's baseline).
 */
import React from "react";
import { Composition, type CalculateMetadataFunction } from "remotion";
import { RolloutPropsSchema, outputSize, type RolloutProps } from "./props.ts";
import { Rollout } from "./Rollout.tsx";
import { Trivial } from "./Trivial.tsx";
import { PLACEHOLDER } from "./placeholder.ts";
import { loadFonts } from "./fonts.ts";

loadFonts();

export const calculateRolloutMetadata: CalculateMetadataFunction<RolloutProps> = ({ props }) => {
  const { width, height } = outputSize(props);
  return { durationInFrames: props.totalFrames, fps: props.fps, width, height };
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
      id="Trivial"
      component={Trivial}
      schema={RolloutPropsSchema}
      defaultProps={PLACEHOLDER}
      calculateMetadata={calculateRolloutMetadata}
      durationInFrames={PLACEHOLDER.totalFrames}
      fps={30}
      width={1280}
      height={720}
    />
  </>
);
