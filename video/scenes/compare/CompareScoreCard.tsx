/**
 * The two-up score card: one map with the truth and both guesses (labelled
 * by arm), and both sides' distance, points, geoeval reward and turns.
 */
import React from "react";
import type { CompareProps, CompareSide } from "../../compare-props.ts";
import { sameTask } from "../../compare-props.ts";
import { geoevalReward } from "../../../replay/rules/reward.ts";
import { spanFrame } from "../../compare-frame.ts";
import { C, MONO, SANS } from "../../theme.ts";
import { formatKm } from "../ScoreCard.tsx";
import { WorldMap, type Marker } from "../WorldMap.tsx";
import { compareScoreMotion } from "../../motion.ts";

/** A's and B's colours on the map and in the table. */
export const SIDE_COLOURS = ["#4f8fe8", "#e8834a"] as const;

/** The numbers one side's column shows (null: unknown). */
export function sideResult(s: CompareSide, turns: number): { distanceKm: number | null; points: number | null; reward: number | null; turns: number } {
  const o = s.timeline.outcome;
  const distanceKm = o?.distanceKm ?? null;
  return {
    distanceKm,
    points: o?.points ?? null,
    // geoeval's recomputed reward (not the environment's stored one): no distance scores 0.
    reward: o ? geoevalReward({ distance_km: distanceKm, action_cost: o.cost }) : null,
    turns: o?.turnsUsed ?? turns,
  };
}

export const CompareScoreCard: React.FC<{ props: CompareProps; turns: [number, number]; offset: number; width: number; height: number; unit: number }> = ({
  props,
  turns,
  offset,
  width,
  height,
  unit,
}) => {
  const sides = [props.a, props.b] as const;
  const pad = 24 * unit;
  const stacked = width / height < 1.2;
  const mapW = Math.round(stacked ? width - 2 * pad : height - 2 * pad);
  const mapH = Math.round(stacked ? Math.min(height * 0.5, mapW) : mapW);
  const sideW = stacked ? width - 2 * pad : width - mapW - 3 * pad;
  const truth = props.a.timeline.outcome?.truth ?? props.b.timeline.outcome?.truth ?? null;
  const same = sameTask(props);
  const guesses = sides.map((s) => s.timeline.outcome?.guess ?? null);
  const pts = [truth, ...guesses].filter((p): p is [number, number] => p !== null);
  const frame = spanFrame(pts, mapW, mapH);
  const motion = compareScoreMotion(offset);
  const markers: Marker[] = [];
  guesses.forEach((g, i) => {
    if (g)
      markers.push({
        at: g,
        color: SIDE_COLOURS[i],
        label: sides[i].label,
        labelBelow: i === 1,
        scale: motion.guess[i],
      });
  });
  // Different tasks have different truths: then only A's is drawn, and the card says so.
  if (truth) markers.push({ at: truth, color: C.truth, label: same ? "Truth" : "Truth (A)", scale: motion.truth });
  const { count, fade } = motion;
  const results = sides.map((s, i) => sideResult(s, turns[i]));
  const ep = props.a.timeline.episode;
  const country = ep.country ?? props.b.timeline.episode.country;
  const cell = (v: string, i: number, big?: boolean) => (
    <td
      key={i}
      style={{
        fontFamily: big ? SANS : MONO,
        fontWeight: big ? 800 : 400,
        fontSize: (big ? 26 : 17) * unit,
        color: C.text,
        textAlign: "right",
        padding: `${5 * unit}px 0 ${5 * unit}px ${12 * unit}px`,
        whiteSpace: "nowrap",
      }}
    >
      {v}
    </td>
  );
  const row = (label: string, values: string[], big?: boolean) => (
    <tr style={{ borderBottom: `${1 * unit}px solid ${C.panelEdge}` }}>
      <td
        style={{
          fontFamily: SANS,
          fontSize: 12.5 * unit,
          textTransform: "uppercase",
          letterSpacing: 0.7 * unit,
          color: C.dim,
          padding: `${5 * unit}px 0`,
          whiteSpace: "nowrap",
        }}
      >
        {label}
      </td>
      {values.map((v, i) => cell(v, i, big))}
    </tr>
  );
  return (
    <div
      data-scene="compare-score"
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
      <div style={{ width: mapW, height: mapH, borderRadius: 8 * unit, overflow: "hidden", flexShrink: 0, position: "relative" }}>
        <WorldMap frame={frame} width={mapW} height={mapH} markers={markers} unit={unit} />
        <div style={{ position: "absolute", left: 10 * unit, bottom: 8 * unit, fontFamily: SANS, fontSize: 11 * unit, color: C.dim }}>Map: Natural Earth</div>
      </div>
      <div style={{ width: sideW, flex: stacked ? 1 : undefined, minHeight: 0, overflow: "hidden", display: "flex", flexDirection: "column", gap: 6 * unit }}>
        <div style={{ fontFamily: SANS, fontSize: 14 * unit, textTransform: "uppercase", letterSpacing: 1.2 * unit, color: C.dim }}>
          {same
            ? `Same task · ${ep.split} #${ep.index}`
            : `Different tasks · ${ep.split} #${ep.index} and ${props.b.timeline.episode.split} #${props.b.timeline.episode.index}`}
        </div>
        {country && same ? (
          <div style={{ fontFamily: SANS, fontWeight: 800, fontSize: 34 * unit, color: C.truth, filter: "brightness(1.5)", lineHeight: 1.1 }}>{country}</div>
        ) : null}
        <table style={{ borderCollapse: "collapse", width: "100%", marginTop: 8 * unit }}>
          <thead>
            <tr>
              <th />
              {sides.map((s, i) => (
                <th
                  key={i}
                  style={{
                    textAlign: "right",
                    padding: `0 0 ${6 * unit}px ${12 * unit}px`,
                    fontFamily: SANS,
                    fontWeight: 800,
                    fontSize: 15 * unit,
                    color: SIDE_COLOURS[i],
                    filter: "brightness(1.15)",
                    maxWidth: sideW * 0.36,
                    overflow: "hidden",
                    textOverflow: "ellipsis",
                    whiteSpace: "nowrap",
                  }}
                >
                  {s.label}
                  {s.timeline.episode.source === "slideshow" ? (
                    <div style={{ fontSize: 10.5 * unit, color: C.slideshow, filter: "brightness(1.6)" }}>recorded images</div>
                  ) : !s.timeline.episode.verified ? (
                    <div style={{ fontSize: 10.5 * unit, color: C.fail }}>UNVERIFIED</div>
                  ) : null}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {row(
              "Distance",
              results.map((r) => (r.distanceKm !== null ? formatKm(r.distanceKm * count) : "—")),
              true,
            )}
            {row(
              "Points",
              results.map((r) => (r.points !== null ? `${Math.round(r.points * count)}` : "—")),
              true,
            )}
            {row(
              "Reward (geoeval)",
              results.map((r) => (r.reward !== null ? (r.reward * count).toFixed(3) : "—")),
            )}
            {row(
              "Turns",
              results.map((r, i) => String(r.turns) + (sides[i].timeline.outcome?.forcedGuess ? " (forced)" : "")),
            )}
          </tbody>
        </table>
        <div style={{ fontFamily: SANS, fontSize: 11.5 * unit, color: C.faint, marginTop: 4 * unit }}>
          Points out of 5000. Reward: geoeval&apos;s recomputed reward from distance and action cost, not the environment&apos;s stored reward.
        </div>
        <div style={{ flex: 1 }} />
        <div style={{ fontFamily: MONO, fontSize: 11.5 * unit, color: C.faint, lineHeight: 1.5 }}>
          {sides.map((s, i) => (
            <div key={i} style={{ whiteSpace: "nowrap", overflow: "hidden", textOverflow: "ellipsis" }}>
              <span style={{ color: SIDE_COLOURS[i] }}>●</span> {s.label.split(" · ")[0]}: {s.arm} · pass {s.pass ?? "—"} · episode{" "}
              {s.timeline.episode.episodeId}
              {guesses[i] ? ` · guess ${guesses[i]![0].toFixed(4)}, ${guesses[i]![1].toFixed(4)}` : " · no guess"}
            </div>
          ))}
          {truth ? (
            <div>
              <span style={{ color: C.truth, filter: "brightness(1.6)" }}>●</span> truth {truth[0].toFixed(4)}, {truth[1].toFixed(4)}
            </div>
          ) : null}
        </div>
      </div>
    </div>
  );
};
