/** A trivial composition of the same size and length as Rollout: the benchmark's baseline for render speed. */
import React from "react";
import { AbsoluteFill, useCurrentFrame, useVideoConfig } from "remotion";
import type { RolloutProps } from "./props.ts";

export const Trivial: React.FC<RolloutProps> = () => {
  const frame = useCurrentFrame();
  const { width, height, durationInFrames } = useVideoConfig();
  const x = (frame / Math.max(1, durationInFrames - 1)) * (width - 80);
  return (
    <AbsoluteFill style={{ background: "#0e1116" }}>
      <div style={{ position: "absolute", left: x, top: height / 2 - 40, width: 80, height: 80, background: "#e8b54a" }} />
      <div style={{ position: "absolute", left: 24, top: 24, color: "#fff", fontFamily: "Inter, sans-serif", fontSize: 32 }}>frame {frame}</div>
    </AbsoluteFill>
  );
};
