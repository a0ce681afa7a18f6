/**
 * The HUD: a compass tape with the heading and the field of view, and the
 * camera and budget numbers. Every value comes from the generator's per-frame
 * HUD state, so they move with the camera instead of jumping.
 */
import React from "react";
import type { HudState } from "../../replay/timeline/timeline-schema.ts";
import { C, MONO, SANS } from "../theme.ts";

const CARDINALS: Record<number, string> = { 0: "N", 45: "NE", 90: "E", 135: "SE", 180: "S", 225: "SW", 270: "W", 315: "NW" };

/** Heading in [0, 360). */
function norm(deg: number): number {
  return ((deg % 360) + 360) % 360;
}

export const CompassTape: React.FC<{ heading: number; fov: number; width: number; unit: number }> = ({ heading, fov, width, unit }) => {
  const span = 180; // degrees visible across the tape
  const h = 46 * unit;
  const pxPerDeg = width / span;
  const hd = norm(heading);
  const ticks: React.ReactNode[] = [];
  const first = Math.ceil((hd - span / 2) / 5) * 5;
  for (let d = first; d <= hd + span / 2; d += 5) {
    const x = width / 2 + (d - hd) * pxPerDeg;
    const n = norm(d);
    const major = n % 45 === 0;
    const mid = n % 15 === 0;
    const len = major ? 14 : mid ? 9 : 5;
    ticks.push(<line key={`t${d}`} x1={x} x2={x} y1={h - len * unit} y2={h} stroke={major ? C.text : C.dim} strokeWidth={(major ? 2 : 1) * unit} />);
    if (major || mid) {
      ticks.push(
        <text
          key={`l${d}`}
          x={x}
          y={h - 18 * unit}
          textAnchor="middle"
          fontSize={(major ? 15 : 11) * unit}
          fontWeight={major ? 700 : 400}
          fill={major ? C.text : C.dim}
          fontFamily={major ? SANS : MONO}
        >
          {CARDINALS[n] ?? String(n)}
        </text>,
      );
    }
  }
  const fovW = Math.min(width, fov * pxPerDeg);
  return (
    <svg data-scene="compass" width={width} height={h} style={{ display: "block", overflow: "hidden" }}>
      <rect x={0} y={0} width={width} height={h} fill={C.panel} />
      <rect x={(width - fovW) / 2} y={h - 6 * unit} width={fovW} height={6 * unit} fill={C.accent} opacity={0.35} />
      {ticks}
      <polygon points={`${width / 2 - 7 * unit},0 ${width / 2 + 7 * unit},0 ${width / 2},${9 * unit}`} fill={C.accent} />
      <line x1={width / 2} x2={width / 2} y1={0} y2={h} stroke={C.accent} strokeWidth={2 * unit} />
    </svg>
  );
};

const Stat: React.FC<{ label: string; value: string; unit: number }> = ({ label, value, unit }) => (
  <div style={{ flex: 1, padding: `${6 * unit}px ${10 * unit}px`, background: C.panel, borderRadius: 6 * unit, minWidth: 0 }}>
    <div
      style={{
        fontFamily: SANS,
        fontSize: 10.5 * unit,
        letterSpacing: 0.1 * unit,
        textTransform: "uppercase",
        color: C.dim,
        whiteSpace: "nowrap",
        overflow: "hidden",
      }}
    >
      {label}
    </div>
    <div style={{ fontFamily: MONO, fontSize: 19 * unit, color: C.text, whiteSpace: "nowrap" }}>{value}</div>
  </div>
);

/** Shown for a value the recording does not hold: never a made-up number. */
export const UNKNOWN = "—";

/** The stat texts, in order; a field listed in `hud.unknown` reads "—". */
export function hudValues(hud: HudState): [string, string][] {
  const unknown = new Set(hud.unknown ?? []);
  const v = (field: NonNullable<HudState["unknown"]>[number], text: () => string) => (unknown.has(field) ? UNKNOWN : text());
  return [
    ["Heading", v("heading", () => `${norm(hud.heading).toFixed(0).padStart(3, "0")}°`)],
    ["FOV", v("fov", () => `${hud.fov.toFixed(0)}°`)],
    ["Pitch", v("pitch", () => `${hud.pitch >= 0 ? "+" : ""}${hud.pitch.toFixed(0)}°`)],
    ["Actions left", v("stepsRemaining", () => (hud.stepsRemaining === null ? UNKNOWN : String(hud.stepsRemaining)))],
    ["Cost", v("cost", () => hud.cost.toFixed(2))],
    ["Walked", v("metres", () => `${hud.metres.toFixed(1)} m`)],
  ];
}

export const Hud: React.FC<{ hud: HudState; width: number; unit: number }> = ({ hud, width, unit }) => {
  // Without a recorded heading the tape has nothing to point at: dim it rather than point north.
  const tapeKnown = !(hud.unknown ?? []).includes("heading");
  return (
    <div data-scene="hud" style={{ width, display: "flex", flexDirection: "column", gap: 6 * unit }}>
      <div style={{ position: "relative", borderRadius: 6 * unit, overflow: "hidden", opacity: tapeKnown ? 1 : 0.3 }}>
        <CompassTape heading={hud.heading} fov={hud.fov} width={width} unit={unit} />
      </div>
      <div style={{ display: "flex", gap: 6 * unit }}>
        {hudValues(hud).map(([label, value]) => (
          <Stat key={label} label={label} value={value} unit={unit} />
        ))}
      </div>
    </div>
  );
};
