/**
 * The Compare composition: two episodes side by side on one turn-aligned
 * clock (replay/timeline/align.ts), then one score card for both.
 * Frame-pure: it reads only its validated props and useCurrentFrame().
 */
import React, { useMemo } from "react";
import { AbsoluteFill, useCurrentFrame, useVideoConfig } from "remotion";
import type { CompareProps, CompareSide } from "./compare-props.ts";
import { sameTask } from "./compare-props.ts";
import { alignTimelines, slotAt, type CompareClock } from "../replay/timeline/align.ts";
import { compareSideFrame } from "./compare-state.ts";
import { compareLayout, type CompareColumn } from "./compare-layout.ts";
import type { Rect } from "./layout.ts";
import { creditLine } from "./lookup.ts";
import { C, MONO, SANS } from "./theme.ts";
import { Viewport } from "./scenes/Viewport.tsx";
import { MapPanel } from "./scenes/MapPanel.tsx";
import { CreditLine, SLIDESHOW_LABEL } from "./scenes/Overlays.tsx";
import { CompactHud } from "./scenes/compare/CompactHud.tsx";
import { TraceStrip } from "./scenes/compare/TraceStrip.tsx";
import { CompareScoreCard, SIDE_COLOURS } from "./scenes/compare/CompareScoreCard.tsx";

const at = (r: Rect): React.CSSProperties => ({ position: "absolute", left: r.x, top: r.y, width: r.width, height: r.height });

export const Compare: React.FC<CompareProps> = (props) => {
  const frame = useCurrentFrame();
  const { width, height } = useVideoConfig();
  const clock = useMemo(() => alignTimelines(props.a.timeline, props.b.timeline), [props.a.timeline, props.b.timeline]);
  const { slot } = slotAt(clock, frame);
  const L = compareLayout(width, height, [props.a.timeline.viewport, props.b.timeline.viewport]);
  const u = L.unit;

  if (slot.kind === "score") {
    return (
      <AbsoluteFill style={{ background: C.bg }}>
        <CompareScoreCard props={props} turns={clock.turns} offset={frame - clock.scoreStart} width={width} height={height} unit={u} />
      </AbsoluteFill>
    );
  }

  const same = sameTask(props);
  const ea = props.a.timeline.episode;
  const eb = props.b.timeline.episode;
  return (
    <AbsoluteFill style={{ background: C.bg, color: C.text }}>
      <div data-scene="header" style={{ ...at(L.header), display: "flex", alignItems: "center", gap: 12 * u, fontFamily: SANS }}>
        <span style={{ fontWeight: 800, fontSize: 18 * u, color: C.accent }}>georeplay</span>
        <span style={{ fontSize: 15 * u, color: C.text, fontWeight: 600, whiteSpace: "nowrap" }}>two-up</span>
        {same ? (
          <span style={{ fontFamily: MONO, fontSize: 12 * u, color: C.faint, whiteSpace: "nowrap", overflow: "hidden", textOverflow: "ellipsis", minWidth: 0 }}>
            same task · {ea.split} #{ea.index}
            {ea.taskId ? ` · ${ea.taskId}` : ""}
          </span>
        ) : (
          <span
            data-scene="different-tasks"
            style={{
              background: C.accent,
              color: C.bg,
              fontWeight: 800,
              fontSize: 12.5 * u,
              letterSpacing: 1 * u,
              padding: `${3 * u}px ${10 * u}px`,
              borderRadius: 5 * u,
              whiteSpace: "nowrap",
            }}
          >
            DIFFERENT TASKS · {ea.split} #{ea.index} vs {eb.split} #{eb.index}
          </span>
        )}
        <span style={{ flex: 1 }} />
        <span style={{ fontSize: 15 * u, color: C.dim, whiteSpace: "nowrap" }}>{slot.kind === "turn" ? `Turn ${slot.turn}` : "Start"}</span>
      </div>
      <Side side={props.a} index={0} clock={clock} frame={frame} col={L.columns[0]} stacked={L.stacked} unit={u} />
      <Side side={props.b} index={1} clock={clock} frame={frame} col={L.columns[1]} stacked={L.stacked} unit={u} />
    </AbsoluteFill>
  );
};

const Side: React.FC<{ side: CompareSide; index: 0 | 1; clock: CompareClock; frame: number; col: CompareColumn; stacked: boolean; unit: number }> = ({
  side,
  index,
  clock,
  frame,
  col,
  stacked,
  unit: u,
}) => {
  const t = side.timeline;
  const { sf, view, next, hud, showMap, panoramaVisible, turnLabel } = compareSideFrame(clock, t, index, frame);
  const { segment, offset } = sf;
  const entry = segment.kind === "opening" ? null : (t.trace.find((e) => e.turn === segment.turn) ?? null);
  const guessed = t.outcome?.guess != null;
  const colour = SIDE_COLOURS[index];
  return (
    <>
      <div
        data-scene="caption"
        style={{
          ...at(col.caption),
          borderLeft: `${4 * u}px solid ${colour}`,
          paddingLeft: 10 * u,
          boxSizing: "border-box",
          display: "flex",
          flexDirection: "column",
          justifyContent: "center",
          fontFamily: SANS,
          minWidth: 0,
        }}
      >
        <div style={{ display: "flex", alignItems: "baseline", gap: 10 * u, minWidth: 0 }}>
          <span style={{ fontWeight: 800, fontSize: 19 * u, color: C.text, whiteSpace: "nowrap", overflow: "hidden", textOverflow: "ellipsis" }}>
            <span style={{ color: colour, filter: "brightness(1.15)" }}>{index === 0 ? "A" : "B"}</span> {side.arm}
          </span>
          <span style={{ fontSize: 14 * u, color: C.dim, whiteSpace: "nowrap" }}>pass {side.pass ?? "—"}</span>
        </div>
        <div style={{ fontFamily: MONO, fontSize: 11.5 * u, color: C.faint, whiteSpace: "nowrap", overflow: "hidden", textOverflow: "ellipsis" }}>
          episode {t.episode.episodeId} · {t.episode.split} #{t.episode.index}
        </div>
      </div>
      <div style={{ ...at(col.viewportBox), borderRadius: 8 * u, overflow: "hidden", background: C.panel }}>
        <div style={{ position: "absolute", left: col.viewport.x - col.viewportBox.x, top: col.viewport.y - col.viewportBox.y }}>
          <Viewport framesDir={t.framesDir} view={view} next={next} width={col.viewport.width} height={col.viewport.height} />
        </div>
        {showMap ? <MapPanel pins={segment.pins} size={col.viewportBox.width} offset={offset} unit={u * 0.8} /> : null}
        {t.episode.source === "slideshow" ? (
          <Stamp text={SLIDESHOW_LABEL} background={C.slideshow} scene="slideshow" unit={u} />
        ) : !t.episode.verified ? (
          <Stamp text="UNVERIFIED REPLAY" background={C.unverified} scene="unverified" unit={u} />
        ) : null}
        {sf.finished ? <GuessedMarker text={guessed ? "✓ GUESSED" : "NO GUESS"} colour={colour} unit={u} /> : null}
      </div>
      <div style={at(col.credit)}>{panoramaVisible ? <CreditLine text={creditLine(t)} unit={u * 0.92} /> : null}</div>
      <div style={at(col.hud)}>
        <CompactHud hud={hud} width={col.hud.width} columns={stacked ? 4 : 2} turnLabel={turnLabel} unit={u} />
      </div>
      <div style={at(col.trace)}>
        <TraceStrip
          entry={entry}
          intro={`${side.arm} sees this view and has ${t.segments[0]?.hud[0]?.stepsRemaining ?? "a few"} actions to look around, walk, drop pins and guess.`}
          note={sf.finished ? turnLabel : undefined}
          width={col.trace.width}
          height={col.trace.height}
          offset={offset}
          unit={u}
          noReply={t.episode.recordFormat === "train" ? "training traces keep no model reply, only the parsed tool call" : undefined}
        />
      </div>
    </>
  );
};

/** Over the top of a side's viewport: what its pixels are, when they are not a verified replay. */
const Stamp: React.FC<{ text: string; background: string; scene: string; unit: number }> = ({ text, background, scene, unit }) => (
  <div
    data-scene={scene}
    style={{
      position: "absolute",
      top: 0,
      left: "50%",
      transform: "translateX(-50%)",
      background,
      color: "#fff",
      fontFamily: SANS,
      fontWeight: 800,
      fontSize: 13 * unit,
      letterSpacing: 1.5 * unit,
      padding: `${4 * unit}px ${14 * unit}px`,
      borderBottomLeftRadius: 6 * unit,
      borderBottomRightRadius: 6 * unit,
      whiteSpace: "nowrap",
      zIndex: 5,
    }}
  >
    {text}
  </div>
);

/** The side that finished first holds its last view under this marker until the other finishes. */
const GuessedMarker: React.FC<{ text: string; colour: string; unit: number }> = ({ text, colour, unit }) => (
  <div
    data-scene="guessed"
    style={{
      position: "absolute",
      left: 0,
      right: 0,
      bottom: 0,
      top: 0,
      background: "rgba(14,17,22,0.35)",
      display: "flex",
      alignItems: "flex-end",
      justifyContent: "center",
      paddingBottom: 18 * unit,
      zIndex: 4,
    }}
  >
    <div
      style={{
        background: colour,
        color: "#fff",
        fontFamily: SANS,
        fontWeight: 800,
        fontSize: 20 * unit,
        letterSpacing: 2.5 * unit,
        padding: `${7 * unit}px ${20 * unit}px`,
        borderRadius: 6 * unit,
        boxShadow: `0 ${2 * unit}px ${10 * unit}px rgba(0,0,0,0.5)`,
      }}
    >
      {text}
    </div>
  </div>
);
