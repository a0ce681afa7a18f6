/**
 * Always-on overlays: the imagery credit (whenever a panorama shows), and the
 * banner saying what the pixels are when they are not a verified replay.
 */
import React from "react";
import { C, SANS } from "../theme.ts";

export const CreditLine: React.FC<{ text: string; unit: number }> = ({ text, unit }) => (
  <div data-scene="credit" style={{ fontFamily: SANS, fontSize: 12 * unit, color: C.dim, whiteSpace: "nowrap", overflow: "hidden", textOverflow: "ellipsis" }}>
    {text}
  </div>
);

const Banner: React.FC<{ scene: string; text: string; background: string; unit: number; right?: boolean }> = ({ scene, text, background, unit, right }) => (
  <div
    data-scene={scene}
    style={{
      position: "absolute",
      top: 0,
      ...(right ? { right: 16 * unit } : { left: "50%", transform: "translateX(-50%)" }),
      background,
      color: "#fff",
      fontFamily: SANS,
      fontWeight: 800,
      fontSize: 15 * unit,
      letterSpacing: 2 * unit,
      padding: `${5 * unit}px ${18 * unit}px`,
      borderBottomLeftRadius: 6 * unit,
      borderBottomRightRadius: 6 * unit,
      zIndex: 10,
      whiteSpace: "nowrap",
    }}
  >
    {text}
  </div>
);

export const UnverifiedBanner: React.FC<{ unit: number }> = ({ unit }) => (
  <Banner scene="unverified" text="UNVERIFIED REPLAY" background={C.unverified} unit={unit} />
);

/** A slideshow is not a replay at all, so it never says "replay", verified or not. */
export const SLIDESHOW_LABEL = "RECORDED IMAGES · NOT A REPLAY";

/** The slideshow label as a pill in the header row (a centred banner would cover the header's text). */
export const SlideshowLabel: React.FC<{ unit: number }> = ({ unit }) => (
  <span
    data-scene="slideshow"
    style={{
      background: C.slideshow,
      color: "#fff",
      fontFamily: SANS,
      fontWeight: 800,
      fontSize: 13 * unit,
      letterSpacing: 1.5 * unit,
      padding: `${4 * unit}px ${12 * unit}px`,
      borderRadius: 5 * unit,
      whiteSpace: "nowrap",
      flexShrink: 0,
    }}
  >
    {SLIDESHOW_LABEL}
  </span>
);

/** The banner for this episode, or none for a verified replay. On the score card a slideshow's sits top right, clear of its text. */
export const SourceBanner: React.FC<{ episode: { source: "replay" | "slideshow"; verified: boolean }; unit: number }> = ({ episode, unit }) =>
  episode.source === "slideshow" ? (
    <Banner scene="slideshow" text={SLIDESHOW_LABEL} background={C.slideshow} unit={unit} right />
  ) : !episode.verified ? (
    <UnverifiedBanner unit={unit} />
  ) : null;

export const OVERWRITTEN_NOTE = "Images from a later episode of this task (the folder overwrites them per task)";

/** Over the bottom of the viewport: the recorded image files belong to another episode than the trace. */
export const OverwrittenNote: React.FC<{ unit: number }> = ({ unit }) => (
  <div
    data-scene="overwritten"
    style={{
      position: "absolute",
      left: 0,
      right: 0,
      bottom: 0,
      background: "rgba(14,17,22,0.82)",
      color: C.accent,
      fontFamily: SANS,
      fontWeight: 600,
      fontSize: 13 * unit,
      padding: `${6 * unit}px ${10 * unit}px`,
      textAlign: "center",
      whiteSpace: "nowrap",
      overflow: "hidden",
      textOverflow: "ellipsis",
    }}
  >
    ⚠ {OVERWRITTEN_NOTE}
  </div>
);
