/**
 * The score card at the end: guess (red) against truth (green) on the map,
 * framed like the environment's reveal map, with a dashed great-circle line,
 * and the numbers a researcher quotes.
 */
import React from "react";
import { scoreMotion } from "../motion.ts";
import type { Timeline } from "../../replay/timeline/timeline-schema.ts";
import { revealFrame, pinsFrame } from "../geo-frame.ts";
import { C, MONO, SANS } from "../theme.ts";
import { isStacked } from "../layout.ts";
import { WorldMap, type Marker } from "./WorldMap.tsx";

export function formatKm(km: number): string {
  if (km < 1) return `${(km * 1000).toFixed(0)} m`;
  if (km < 10) return `${km.toFixed(2)} km`;
  if (km < 100) return `${km.toFixed(1)} km`;
  return `${Math.round(km).toLocaleString("en-US")} km`;
}

const Row: React.FC<{ label: string; value: string; big?: boolean; color?: string; unit: number }> = ({ label, value, big, color, unit }) => (
  <div
    style={{
      display: "flex",
      alignItems: "baseline",
      justifyContent: "space-between",
      gap: 12 * unit,
      padding: `${big ? 6 : 4}px 0`,
      borderBottom: `${1 * unit}px solid ${C.panelEdge}`,
    }}
  >
    <span style={{ fontFamily: SANS, fontSize: 13 * unit, textTransform: "uppercase", letterSpacing: 0.8 * unit, color: C.dim }}>{label}</span>
    <span
      style={{ fontFamily: big ? SANS : MONO, fontWeight: big ? 800 : 400, fontSize: (big ? 30 : 18) * unit, color: color ?? C.text, whiteSpace: "nowrap" }}
    >
      {value}
    </span>
  </div>
);

export const ScoreCard: React.FC<{ timeline: Timeline; offset: number; width: number; height: number; unit: number }> = ({
  timeline,
  offset,
  width,
  height,
  unit,
}) => {
  const o = timeline.outcome;
  const ep = timeline.episode;
  const pad = 24 * unit;
  const stacked = isStacked(width, height);
  // Beside: a square map as tall as the frame. Stacked (square or portrait video): map on top.
  const mapW = Math.round(stacked ? Math.min(width - 2 * pad, height * 0.5) : height - 2 * pad);
  const mapH = mapW;
  const sideW = stacked ? width - 2 * pad : width - mapW - 3 * pad;
  const guess = o?.guess ?? null;
  const truth = o?.truth ?? null;
  const frame = guess && truth ? revealFrame(guess, truth) : pinsFrame([guess, truth].filter((p): p is [number, number] => p !== null));
  const m = scoreMotion(offset);
  const markers: Marker[] = [];
  if (guess) markers.push({ at: guess, color: C.guess, label: "Guess", labelBelow: true, scale: m.guessPin });
  if (truth) markers.push({ at: truth, color: C.truth, label: "Truth", scale: m.truthPin });
  const lineProgress = m.line;
  const count = m.count;
  const fade = m.fade;
  const points = o?.points ?? null;
  return (
    <div
      data-scene="score"
      style={{
        position: "absolute",
        inset: 0,
        background: C.bg,
        display: "flex",
        flexDirection: stacked ? "column" : "row",
        alignItems: stacked ? "center" : "stretch",
        gap: pad,
        padding: pad,
        opacity: fade,
      }}
    >
      <div style={{ width: mapW, height: mapH, borderRadius: 8 * unit, overflow: "hidden", flexShrink: 0 }}>
        <WorldMap
          frame={frame}
          width={mapW}
          height={mapH}
          markers={markers}
          line={guess && truth ? { from: guess, to: truth, progress: lineProgress } : null}
          unit={unit}
        />
      </div>
      <div style={{ width: sideW, flex: stacked ? 1 : undefined, minHeight: 0, overflow: "hidden", display: "flex", flexDirection: "column", gap: 6 * unit }}>
        <div style={{ fontFamily: SANS, fontSize: 14 * unit, textTransform: "uppercase", letterSpacing: 1.2 * unit, color: C.dim }}>Result</div>
        <div style={{ fontFamily: SANS, fontWeight: 800, fontSize: 40 * unit, color: C.text, lineHeight: 1.1 }}>{o?.verdict ?? (guess ? "—" : "No guess")}</div>
        {ep.country ? <div style={{ fontFamily: SANS, fontSize: 20 * unit, color: C.truth, filter: "brightness(1.5)" }}>{ep.country}</div> : null}
        <div style={{ height: 8 * unit }} />
        <div style={{ display: "grid", gridTemplateColumns: stacked ? "1fr 1fr" : "1fr", columnGap: 28 * unit }}>
          <Row label="Distance" value={o?.distanceKm != null ? formatKm(o.distanceKm * count) : "—"} big unit={unit} />
          <Row label="Points" value={points !== null ? `${Math.round(points * count)} / 5000` : "—"} big color={C.accent} unit={unit} />
          <Row label="Reward" value={o?.reward != null ? (o.reward * count).toFixed(3) : "—"} unit={unit} />
          <Row label="Cost" value={o?.cost != null ? o.cost.toFixed(2) : "—"} unit={unit} />
          <Row label="Turns" value={o?.turnsUsed != null ? String(o.turnsUsed) + (o.forcedGuess ? " (forced guess)" : "") : "—"} unit={unit} />
          <Row label="Model" value={ep.modelName} unit={unit} />
        </div>
        <div style={{ flex: 1 }} />
        <div style={{ fontFamily: MONO, fontSize: 12 * unit, color: C.faint, lineHeight: 1.5 }}>
          {guess ? (
            <div>
              <span style={{ color: C.guess, filter: "brightness(1.6)" }}>●</span> guess {guess[0].toFixed(4)}, {guess[1].toFixed(4)}
            </div>
          ) : null}
          {truth ? (
            <div>
              <span style={{ color: C.truth, filter: "brightness(1.6)" }}>●</span> truth {truth[0].toFixed(4)}, {truth[1].toFixed(4)}
            </div>
          ) : null}
          <div>
            episode {ep.episodeId} · {ep.split} #{ep.index}
          </div>
        </div>
      </div>
    </div>
  );
};
