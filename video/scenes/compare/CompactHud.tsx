/**
 * A side's compact HUD: the compass tape and four numbers (heading, fov,
 * actions left, cost) from the generator's per-frame HUD state, plus the
 * side's own turn counter.
 */
import React from "react";
import type { HudState } from "../../../replay/timeline/timeline-schema.ts";
import { C, MONO, SANS } from "../../theme.ts";
import { CompassTape, hudValues } from "../Hud.tsx";

const SHOWN = new Set(["Heading", "FOV", "Actions left", "Cost"]);

/** The four values a compact HUD shows, in order ("—" for what the recording does not hold). */
export function compactHudValues(hud: HudState): [string, string][] {
  return hudValues(hud).filter(([label]) => SHOWN.has(label));
}

export const CompactHud: React.FC<{ hud: HudState; width: number; columns: 2 | 4; turnLabel: string; unit: number }> = ({
  hud,
  width,
  columns,
  turnLabel,
  unit,
}) => {
  const tapeKnown = !(hud.unknown ?? []).includes("heading");
  return (
    <div data-scene="compact-hud" style={{ width, display: "flex", flexDirection: "column", gap: 6 * unit }}>
      <div style={{ borderRadius: 6 * unit, overflow: "hidden", opacity: tapeKnown ? 1 : 0.3 }}>
        <CompassTape heading={hud.heading} fov={hud.fov} width={width} unit={unit * 0.8} />
      </div>
      <div style={{ display: "grid", gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))`, gap: 6 * unit }}>
        {compactHudValues(hud).map(([label, value]) => (
          <div key={label} style={{ padding: `${5 * unit}px ${8 * unit}px`, background: C.panel, borderRadius: 6 * unit, minWidth: 0 }}>
            <div
              style={{
                fontFamily: SANS,
                fontSize: 10 * unit,
                letterSpacing: 0.1 * unit,
                textTransform: "uppercase",
                color: C.dim,
                whiteSpace: "nowrap",
                overflow: "hidden",
              }}
            >
              {label}
            </div>
            <div style={{ fontFamily: MONO, fontSize: 17 * unit, color: C.text, whiteSpace: "nowrap" }}>{value}</div>
          </div>
        ))}
      </div>
      {columns === 2 ? <div style={{ fontFamily: SANS, fontSize: 14 * unit, color: C.dim, marginTop: 4 * unit }}>{turnLabel}</div> : null}
    </div>
  );
};
