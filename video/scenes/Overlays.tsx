/** Always-on overlays: the imagery credit (whenever a panorama shows) and the UNVERIFIED banner. */
import React from "react";
import { C, SANS } from "../theme.ts";

export const CreditLine: React.FC<{ text: string; unit: number }> = ({ text, unit }) => (
  <div data-scene="credit" style={{ fontFamily: SANS, fontSize: 12 * unit, color: C.dim, whiteSpace: "nowrap", overflow: "hidden", textOverflow: "ellipsis" }}>
    {text}
  </div>
);

export const UnverifiedBanner: React.FC<{ unit: number }> = ({ unit }) => (
  <div
    data-scene="unverified"
    style={{
      position: "absolute",
      top: 0,
      left: "50%",
      transform: "translateX(-50%)",
      background: C.unverified,
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
    UNVERIFIED REPLAY
  </div>
);
