/**
 * A side's trace strip: the current turn's tool call and the first lines of
 * its reply (as text: React escapes it; model text is never run), clipped.
 */
import React from "react";
import { traceStripAppear } from "../../motion.ts";
import type { TraceEntry } from "../../../replay/timeline/timeline-schema.ts";
import { C, MONO, SANS } from "../../theme.ts";
import { NO_REPLY, printable } from "../TracePane.tsx";

/** The first `n` non-empty lines of a reply, for the strip (the rest is clipped with a fade). */
export function firstLines(text: string, n: number): string {
  return printable(text)
    .split("\n")
    .map((l) => l.trimEnd())
    .filter((l) => l.trim() !== "")
    .slice(0, n)
    .join("\n");
}

export const TraceStrip: React.FC<{
  entry: TraceEntry | null;
  /** Shown instead of a turn (the opening). */
  intro?: string;
  /** A line above the turn: "Guessed after 8 turns". */
  note?: string;
  width: number;
  height: number;
  offset: number;
  unit: number;
  noReply?: string;
}> = ({ entry, intro, note, width, height, offset, unit, noReply }) => {
  const appear = traceStripAppear(offset);
  const box: React.CSSProperties = {
    width,
    height,
    boxSizing: "border-box",
    overflow: "hidden",
    background: C.panel,
    border: `${1 * unit}px solid ${entry?.failed ? C.fail : C.panelEdge}`,
    borderRadius: 8 * unit,
    padding: 10 * unit,
    display: "flex",
    flexDirection: "column",
    gap: 6 * unit,
    position: "relative",
  };
  if (!entry) {
    return (
      <div data-scene="trace-strip" style={box}>
        <div style={{ fontFamily: SANS, fontSize: 14 * unit, color: C.dim, lineHeight: 1.45 }}>{intro ?? ""}</div>
      </div>
    );
  }
  const reply = firstLines(entry.reply ?? "", 8);
  return (
    <div data-scene="trace-strip" style={{ ...box, opacity: note ? 0.75 : 1 }}>
      <div style={{ display: "flex", alignItems: "center", gap: 8 * unit, opacity: note ? 1 : appear }}>
        <span style={{ fontFamily: SANS, fontWeight: 800, fontSize: 15 * unit, color: C.text, whiteSpace: "nowrap" }}>Turn {entry.turn}</span>
        {entry.failed ? (
          <span
            style={{
              fontFamily: SANS,
              fontSize: 11 * unit,
              fontWeight: 600,
              textTransform: "uppercase",
              padding: `${2 * unit}px ${6 * unit}px`,
              borderRadius: 4 * unit,
              color: "#fff",
              background: C.fail,
              whiteSpace: "nowrap",
            }}
          >
            ✗ {entry.status.split(":")[0].replace(/_/g, " ")}
          </span>
        ) : null}
        <span style={{ flex: 1 }} />
        {note ? <span style={{ fontFamily: SANS, fontSize: 12 * unit, color: C.accent, whiteSpace: "nowrap" }}>{note}</span> : null}
      </div>
      <div
        data-scene="strip-tool-call"
        style={{
          fontFamily: MONO,
          fontSize: 13 * unit,
          color: entry.toolCall ? C.accent : C.fail,
          background: "#0b0e13",
          borderRadius: 5 * unit,
          padding: `${5 * unit}px ${8 * unit}px`,
          whiteSpace: "nowrap",
          overflow: "hidden",
          textOverflow: "ellipsis",
          flexShrink: 0,
        }}
      >
        {entry.toolCall ? `▶ ${printable(entry.toolCall)}` : `▶ no action parsed${entry.errors.length ? `: ${printable(entry.errors[0])}` : ""}`}
      </div>
      <div
        style={{
          fontFamily: SANS,
          fontSize: 12.5 * unit,
          lineHeight: 1.4,
          color: reply ? C.text : C.faint,
          fontStyle: reply ? "normal" : "italic",
          whiteSpace: "pre-wrap",
          overflowWrap: "anywhere",
          overflow: "hidden",
          flex: 1,
          minHeight: 0,
        }}
      >
        {reply || `(${NO_REPLY}${noReply ? `: ${noReply}` : ""})`}
      </div>
      <div style={{ position: "absolute", left: 0, right: 0, bottom: 0, height: 22 * unit, background: `linear-gradient(rgba(22,27,34,0), ${C.panel})` }} />
    </div>
  );
};
