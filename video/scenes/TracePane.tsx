/**
 * The trace pane: turns appear as they happen. The active turn shows the
 * model's raw reply (as text: React escapes it; long replies scroll through
 * the segment and clip with a fade), the parsed action as a tool call and the
 * environment's feedback. Past turns recede, newest first; failed turns are marked.
 */
import React from "react";
import type { TraceEntry } from "../../replay/timeline/timeline-schema.ts";
import { C, MONO, SANS } from "../theme.ts";
import { printable, replyBox, traceMotion, type ReplyBox, type TraceMotion } from "../motion.ts";

export { printable, estimateLines } from "../motion.ts";

function statusLabel(e: TraceEntry): string {
  if (!e.failed) return e.status === "forced_guess" ? "forced guess" : "ok";
  return e.status.split(":")[0].replace(/_/g, " ");
}

const Badge: React.FC<{ entry: TraceEntry; unit: number }> = ({ entry, unit }) => (
  <span
    style={{
      fontFamily: SANS,
      fontSize: 11 * unit,
      fontWeight: 600,
      textTransform: "uppercase",
      letterSpacing: 0.6 * unit,
      padding: `${2 * unit}px ${6 * unit}px`,
      borderRadius: 4 * unit,
      color: entry.failed ? "#fff" : C.bg,
      background: entry.failed ? C.fail : C.ok,
      whiteSpace: "nowrap",
    }}
  >
    {entry.failed ? `✗ ${statusLabel(entry)}` : statusLabel(entry)}
  </span>
);

/** Said in place of an absent reply: a fact about the recording, not an empty box. */
export const NO_REPLY = "no reply recorded";

const ActiveTurn: React.FC<{ entry: TraceEntry; box: ReplyBox; motion: TraceMotion; unit: number; noReply?: string }> = ({
  entry,
  box,
  motion,
  unit,
  noReply,
}) => {
  const { reply, fontSize, lineHeight, lines, overflow, replyHeight } = box;
  const { scroll, feedbackOpacity, appear } = motion;
  return (
    <div
      data-scene="active-turn"
      style={{
        background: C.panel,
        border: `${1 * unit}px solid ${entry.failed ? C.fail : C.panelEdge}`,
        borderRadius: 8 * unit,
        padding: 12 * unit,
        display: "flex",
        flexDirection: "column",
        gap: 8 * unit,
        opacity: appear,
        transform: `translateY(${(1 - appear) * 12 * unit}px)`,
      }}
    >
      <div style={{ display: "flex", alignItems: "center", gap: 8 * unit }}>
        <span style={{ fontFamily: SANS, fontWeight: 800, fontSize: 17 * unit, color: C.text }}>Turn {entry.turn}</span>
        <Badge entry={entry} unit={unit} />
        <span style={{ flex: 1 }} />
        <span style={{ fontFamily: MONO, fontSize: 11 * unit, color: C.faint, whiteSpace: "nowrap" }}>
          {entry.tokensIn !== null ? `${entry.tokensIn} in · ${entry.tokensOut ?? 0} out` : ""}
          {entry.latencyS !== null ? ` · ${entry.latencyS.toFixed(1)} s` : ""}
        </span>
      </div>
      <div style={{ position: "relative", height: Math.min(replyHeight, Math.max(1, lines) * lineHeight), overflow: "hidden" }}>
        <div
          style={{
            fontFamily: SANS,
            fontSize,
            lineHeight: `${lineHeight}px`,
            color: reply ? C.text : C.faint,
            fontStyle: reply ? "normal" : "italic",
            whiteSpace: "pre-wrap",
            overflowWrap: "anywhere",
            transform: `translateY(${-scroll}px)`,
          }}
        >
          {reply || `(${NO_REPLY}${noReply ? `: ${noReply}` : ""})`}
        </div>
        {overflow > 0 ? (
          <div style={{ position: "absolute", left: 0, right: 0, bottom: 0, height: 28 * unit, background: `linear-gradient(rgba(22,27,34,0), ${C.panel})` }} />
        ) : null}
      </div>
      <div
        data-scene="tool-call"
        style={{
          fontFamily: MONO,
          fontSize: 14 * unit,
          color: entry.toolCall ? C.accent : C.fail,
          background: "#0b0e13",
          borderRadius: 5 * unit,
          padding: `${6 * unit}px ${8 * unit}px`,
          whiteSpace: "nowrap",
          overflow: "hidden",
          textOverflow: "ellipsis",
        }}
      >
        {entry.toolCall ? `▶ ${printable(entry.toolCall)}` : `▶ no action parsed${entry.errors.length ? `: ${printable(entry.errors[0])}` : ""}`}
      </div>
      <div
        style={{
          fontFamily: SANS,
          fontSize: 13 * unit,
          color: C.dim,
          opacity: feedbackOpacity,
          whiteSpace: "nowrap",
          overflow: "hidden",
          textOverflow: "ellipsis",
        }}
      >
        {entry.feedback ? `◀ ${printable(entry.feedback)}` : entry.failed ? `◀ ${printable(entry.status)}` : ""}
      </div>
    </div>
  );
};

const PastTurn: React.FC<{ entry: TraceEntry; age: number; unit: number }> = ({ entry, age, unit }) => (
  <div
    style={{
      display: "flex",
      alignItems: "center",
      gap: 8 * unit,
      opacity: Math.max(0.25, 0.8 - age * 0.12),
      fontSize: 12.5 * unit,
      padding: `${3 * unit}px ${4 * unit}px`,
      borderLeft: `${3 * unit}px solid ${entry.failed ? C.fail : C.panelEdge}`,
    }}
  >
    <span style={{ fontFamily: SANS, fontWeight: 600, color: C.dim, width: 30 * unit, flexShrink: 0 }}>#{entry.turn}</span>
    <span style={{ fontFamily: MONO, color: entry.failed ? C.fail : C.text, whiteSpace: "nowrap", overflow: "hidden", textOverflow: "ellipsis", flex: 1 }}>
      {entry.failed ? `✗ ${statusLabel(entry)}` : printable(entry.toolCall ?? entry.actionName ?? "—")}
    </span>
  </div>
);

export const TracePane: React.FC<{
  trace: TraceEntry[];
  activeTurn: number;
  width: number;
  height: number;
  progress: number; // 0..1 through the active segment
  offset: number; // frames since the active segment started
  unit: number;
  /** Why replies are absent, when the whole recording has none (training traces). */
  noReply?: string;
}> = ({ trace, activeTurn, width, height, progress, offset, unit, noReply }) => {
  const active = trace.find((e) => e.turn === activeTurn) ?? null;
  const past = trace.filter((e) => e.turn < activeTurn && (!active || e !== active)).reverse();
  const motion = traceMotion(active, width, height, unit, progress, offset);
  return (
    <div data-scene="trace" style={{ width, height, overflow: "hidden", display: "flex", flexDirection: "column", gap: 8 * unit }}>
      {active ? <ActiveTurn entry={active} box={replyBox(active, width, height, unit)} motion={motion} unit={unit} noReply={noReply} /> : null}
      {past.length > 0 ? (
        <div style={{ fontFamily: SANS, fontSize: 11 * unit, textTransform: "uppercase", letterSpacing: 0.8 * unit, color: C.faint, marginTop: 4 * unit }}>
          Earlier turns
        </div>
      ) : null}
      {past.map((e, i) => (
        <PastTurn key={e.turn} entry={e} age={i} unit={unit} />
      ))}
    </div>
  );
};
