/**
 * One sibling's tile in the group grid: caption (its number and colour, its
 * turn), viewport (the view, the pins map, the GUESSED marker once it is
 * done while others play on), and a HUD with the reward and advantage the
 * trainer used beside the camera numbers.
 */
import type { SharedClock } from "../../replay/timeline/align.ts";
import type { HudState, TraceEntry } from "../../replay/timeline/timeline-schema.ts";
import type { GroupSibling } from "./props.ts";
import type { GroupTile } from "../../../../video/parts/group-grid.ts";
import { compareSideFrame, type CompareSideFrame } from "../compare/state.ts";
import { formatAdvantage, formatGroupReward } from "./rank.ts";
import { C, siblingColour } from "../../../../video/scene/theme.ts";
import { Draw, font, lineBox, rectOf } from "../../../../video/scene/draw.ts";
import type { Box } from "../../../../video/scene/types.ts";
import { compactHudValues } from "../parts/hud.ts";
import { banner, guessedMarker, SLIDESHOW_LABEL, UNVERIFIED_LABEL } from "../../../../video/parts/overlays.ts";
import { toolCallText } from "../../../../video/parts/trace-pane.ts";
import { mapPanel, viewportImages } from "../parts/viewport.ts";

/** The colour an advantage is written in: above the group's mean green, below red, on it dim. */
export function advantageColour(a: number): string {
  return formatAdvantage(a) === "0.00" ? C.dim : a > 0 ? C.ok : C.fail;
}

/** Draws sibling `i`'s tile at a clock frame; returns what it shows (the scene's footer needs the visible panoramas). */
export function groupTile(d: Draw, s: GroupSibling, i: number, clock: SharedClock, frame: number, tile: GroupTile): CompareSideFrame {
  const t = s.timeline;
  const state = compareSideFrame(clock, t, i, frame);
  const { sf, view, showMap } = state;
  const u = tile.unit;
  const colour = siblingColour(i);
  const cap = rectOf(tile.caption);
  d.memo(["groupCaption", i, cap, state.turnLabel, t.episode.episodeId, u], () => caption(d, i, t.episode.episodeId, state.turnLabel, colour, cap, u));
  const box = rectOf(tile.viewportBox);
  if (box.w > 0 && box.h > 0)
    d.group({ clip: { ...box, r: 6 * u } }, () => {
      d.rect(box, C.panel);
      viewportImages(d, t.framesDir, view, rectOf(tile.viewport));
      if (showMap) mapPanel(d, sf.segment.pins, box, sf.offset, u * 0.8);
      const stamp = { size: 11, padX: 10, padY: 3, spacing: 1.2, anchor: "center" as const };
      if (t.episode.source === "slideshow") banner(d, SLIDESHOW_LABEL, C.slideshow, box.x + box.w / 2, box.y, u, stamp);
      else if (!t.episode.verified) banner(d, UNVERIFIED_LABEL, C.unverified, box.x + box.w / 2, box.y, u, stamp);
      if (sf.finished) guessedMarker(d, t.outcome?.guess != null, colour, box, u * 0.8);
    });
  const hudBox = rectOf(tile.hud);
  const entry = sf.segment.kind === "opening" ? null : (t.trace.find((e) => e.turn === sf.segment.turn) ?? null);
  d.memo(["groupHud", state.hud, hudBox, tile.beside, s.reward, s.advantage, entry?.turn ?? null, i, u], () =>
    tileHud(d, s, state.hud, entry, hudBox, tile.beside, u),
  );
  return state;
}

function caption(d: Draw, i: number, episodeId: string, turnLabel: string, colour: string, b: Box, u: number): void {
  d.rect({ x: b.x, y: b.y + 2 * u, w: 4 * u, h: b.h - 4 * u }, colour);
  const mid = b.y + b.h / 2;
  const nf = font("sans", 17 * u, 800);
  const sf = font("sans", 13 * u);
  const name = `#${i + 1}`;
  const x = b.x + 10 * u;
  d.text(name, x, mid, nf, colour);
  const statusW = d.width(turnLabel, sf);
  d.text(turnLabel, b.x + b.w, mid, sf, C.dim, { align: "right" });
  const ex = x + d.width(name, nf) + 8 * u;
  const room = b.x + b.w - statusW - 10 * u - ex;
  if (room > 30 * u) d.text(episodeId, ex, mid, font("mono", 11 * u), C.faint, { maxWidth: room });
}

/** One stat box: label over value. */
function stat(d: Draw, b: Box, label: string, value: string, colour: string, u: number, big: boolean): void {
  d.rect(b, C.panel, 5 * u);
  const lf = font("sans", 10 * u);
  const vf = big ? font("sans", 17 * u, 800) : font("mono", 16 * u);
  const padX = 8 * u;
  const top = b.y + 5 * u;
  d.text(label.toUpperCase(), b.x + padX, top + lineBox(lf.size) / 2, lf, C.dim, { maxWidth: b.w - 2 * padX, spacing: 0.1 * u });
  d.text(value, b.x + padX, top + lineBox(lf.size) + lineBox(vf.size) / 2, vf, colour, { maxWidth: b.w - 2 * padX });
}

/** Height of one stat box at this unit. */
const statH = (u: number) => 10 * u + lineBox(10 * u) + lineBox(17 * u);

/**
 * Beside the viewport: env reward and advantage, then the camera numbers two by two and the turn's
 * tool call, as many rows as fit. Under it: one row of env reward, advantage, actions left, cost.
 */
function tileHud(d: Draw, s: GroupSibling, hud: HudState, entry: TraceEntry | null, b: Box, beside: boolean, u: number): void {
  const stats: [string, string, string, boolean][] = [
    ["Env reward", formatGroupReward(s.reward), C.text, true],
    ["Advantage", formatAdvantage(s.advantage), advantageColour(s.advantage), true],
    ...compactHudValues(hud).map(([l, v]): [string, string, string, boolean] => [l, v, C.text, false]),
  ];
  const gap = 5 * u;
  const h = statH(u);
  d.group({ clip: b }, () => {
    if (!beside) {
      const row = [stats[0], stats[1], stats[4], stats[5]];
      const w = (b.w - gap * (row.length - 1)) / row.length;
      row.forEach(([l, v, c, big], k) => stat(d, { x: b.x + k * (w + gap), y: b.y, w, h: Math.min(h, b.h) }, l, v, c, u, big));
      return;
    }
    const w = (b.w - gap) / 2;
    let y = b.y;
    for (let k = 0; k < stats.length && y + h <= b.y + b.h; k += 2) {
      for (let c = 0; c < 2 && k + c < stats.length; c++) {
        const [l, v, col, big] = stats[k + c];
        stat(d, { x: b.x + c * (w + gap), y, w, h }, l, v, col, u, big);
      }
      y += h + gap;
    }
    const cf = font("mono", 12 * u);
    const ch = lineBox(cf.size) + 8 * u;
    if (entry && y + ch <= b.y + b.h) {
      d.rect({ x: b.x, y, w: b.w, h: ch }, C.code, 4 * u);
      d.text(toolCallText(entry), b.x + 6 * u, y + ch / 2, cf, entry.toolCall ? C.accent : C.fail, { maxWidth: b.w - 12 * u });
    }
  });
}
