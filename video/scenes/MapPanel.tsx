/** The pins map for place_pin / view_map turns, framed at the pins' span. */
import React from "react";
import { mapMotion } from "../motion.ts";
import { pinsFrame } from "../geo-frame.ts";
import { C, SANS } from "../theme.ts";
import { WorldMap } from "./WorldMap.tsx";

export const MapPanel: React.FC<{ pins: [number, number][]; size: number; offset: number; unit: number }> = ({ pins, size, offset, unit }) => {
  const { appear, newestPin } = mapMotion(offset);
  const markers = pins.map((p, i) => ({
    at: p,
    color: C.accent,
    label: `Pin ${i + 1}`,
    // The newest pin drops in after the map appears.
    scale: i === pins.length - 1 ? newestPin : 1,
  }));
  return (
    <div data-scene="map" style={{ position: "absolute", inset: 0, opacity: appear }}>
      <WorldMap frame={pinsFrame(pins)} width={size} height={size} markers={markers} unit={unit} />
      <div style={{ position: "absolute", left: 10 * unit, bottom: 8 * unit, fontFamily: SANS, fontSize: 11 * unit, color: C.dim }}>Map: Natural Earth</div>
    </div>
  );
};
