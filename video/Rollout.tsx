/**
 * The Rollout composition: lays out what the timeline says for the current
 * frame. Frame-pure: it reads only its validated props and useCurrentFrame(),
 * and everything that depends on the frame comes from rolloutFrame() (and
 * the scenes' motion functions), which the frame signature uses too.
 */
import React from "react";
import { AbsoluteFill, useCurrentFrame, useVideoConfig } from "remotion";
import type { RolloutProps } from "./props.ts";
import { rolloutLayout, type Rect } from "./layout.ts";
import { creditLine } from "./lookup.ts";
import { prefetchFile, rolloutFrame } from "./frame-state.ts";
import { C, MONO, SANS } from "./theme.ts";
import { Viewport } from "./scenes/Viewport.tsx";
import { Hud } from "./scenes/Hud.tsx";
import { TracePane } from "./scenes/TracePane.tsx";
import { MapPanel } from "./scenes/MapPanel.tsx";
import { ScoreCard } from "./scenes/ScoreCard.tsx";
import { CreditLine, OVERWRITTEN_NOTE, OverwrittenNote, SlideshowLabel, SourceBanner, UnverifiedBanner } from "./scenes/Overlays.tsx";

const at = (r: Rect): React.CSSProperties => ({ position: "absolute", left: r.x, top: r.y, width: r.width, height: r.height });

export const Rollout: React.FC<RolloutProps> = (props) => {
  const frame = useCurrentFrame();
  const { width, height } = useVideoConfig();
  const t = props;
  const L = rolloutLayout(width, height, t.viewport);
  const u = L.unit; // design px -> output px
  const f = rolloutFrame(t, frame);
  const { segment, offset } = f.pos;
  const lastTurn = t.trace.reduce((m, e) => Math.max(m, e.turn), 0);

  if (f.kind === "score") {
    return (
      <AbsoluteFill style={{ background: C.bg }}>
        <ScoreCard timeline={t} offset={offset} width={width} height={height} unit={u} />
        <SourceBanner episode={t.episode} unit={u} />
      </AbsoluteFill>
    );
  }

  const { view, hud, showMap, panoramaVisible } = f;
  const next = prefetchFile(t, frame);

  return (
    <AbsoluteFill style={{ background: C.bg, color: C.text }}>
      <div data-scene="header" style={{ ...at(L.header), display: "flex", alignItems: "center", gap: 12 * u, fontFamily: SANS }}>
        <span style={{ fontWeight: 800, fontSize: 18 * u, color: C.accent }}>georeplay</span>
        <span
          style={{ fontSize: 16 * u, color: C.text, fontWeight: 600, whiteSpace: "nowrap", overflow: "hidden", textOverflow: "ellipsis", maxWidth: 360 * u }}
        >
          {t.episode.modelName}
        </span>
        <span style={{ fontFamily: MONO, fontSize: 12 * u, color: C.faint, whiteSpace: "nowrap", overflow: "hidden", textOverflow: "ellipsis", minWidth: 0 }}>
          {t.episode.split} #{t.episode.index} · {t.episode.episodeId}
        </span>
        <span style={{ flex: 1 }} />
        {t.episode.source === "slideshow" ? <SlideshowLabel unit={u} /> : null}
        <span style={{ fontSize: 15 * u, color: C.dim, whiteSpace: "nowrap" }}>{segment.turn > 0 ? `Turn ${segment.turn} of ${lastTurn}` : "Start"}</span>
      </div>
      <div style={{ ...at(L.viewportBox), borderRadius: 8 * u, overflow: "hidden", background: C.panel }}>
        <div style={{ position: "absolute", left: L.viewport.x - L.viewportBox.x, top: L.viewport.y - L.viewportBox.y }}>
          <Viewport framesDir={t.framesDir} view={view} next={next} width={L.viewport.width} height={L.viewport.height} />
        </div>
        {showMap ? <MapPanel pins={segment.pins} size={L.viewportBox.width} offset={offset} unit={u} /> : null}
        {t.episode.imagesOverwritten ? <OverwrittenNote unit={u} /> : null}
      </div>
      <div style={at(L.credit)}>{panoramaVisible ? <CreditLine text={creditLine(t)} unit={u} /> : null}</div>
      <div style={at(L.hud)}>
        <Hud hud={hud} width={L.hud.width} unit={u} />
      </div>
      <div style={at(L.trace)}>
        {f.trace === null ? (
          <Intro timeline={t} unit={u} />
        ) : (
          <TracePane
            trace={t.trace}
            activeTurn={segment.turn}
            width={L.trace.width}
            height={L.trace.height}
            progress={f.trace.progress}
            offset={f.trace.offset}
            unit={u}
            noReply={t.episode.recordFormat === "train" ? "training traces keep no model reply, only the parsed tool call" : undefined}
          />
        )}
      </div>
      {t.episode.source === "replay" && !t.episode.verified ? <UnverifiedBanner unit={u} /> : null}
    </AbsoluteFill>
  );
};

const Intro: React.FC<{ timeline: RolloutProps; unit: number }> = ({ timeline, unit }) => (
  <div
    data-scene="intro"
    style={{ fontFamily: SANS, color: C.dim, fontSize: 15 * unit, lineHeight: 1.5, background: C.panel, borderRadius: 8 * unit, padding: 14 * unit }}
  >
    <div style={{ color: C.text, fontWeight: 800, fontSize: 20 * unit, marginBottom: 6 * unit }}>Where is this?</div>
    <div>
      {timeline.episode.modelName} sees this view and has {timeline.segments[0]?.hud[0]?.stepsRemaining ?? "a few"} actions to look around, walk, drop pins and
      guess.
    </div>
    <div style={{ marginTop: 6 * unit, fontSize: 12.5 * unit, color: C.faint }}>{provenance(timeline.episode)}</div>
    {timeline.episode.imagesOverwritten ? <div style={{ marginTop: 6 * unit, fontSize: 12.5 * unit, color: C.accent }}>{OVERWRITTEN_NOTE}.</div> : null}
  </div>
);

/** What the viewer is looking at: the one sentence that keeps a slideshow from passing for a replay. */
export function provenance(e: RolloutProps["episode"]): string {
  if (e.source === "slideshow")
    return "These are the images the environment recorded, shown as they were saved: nothing is re-rendered, and nothing is verified.";
  return e.verified
    ? "Every view below was re-rendered from the recorded camera and matched the recorded hash."
    : "Not every view could be re-rendered to its recorded hash.";
}
