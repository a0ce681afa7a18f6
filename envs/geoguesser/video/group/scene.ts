/**
 * Group: a GRPO group's siblings in a grid on one turn-aligned clock
 * (envs/geoguesser/replay/timeline/align.ts), then one score card ranking them, as a scene.
 * Pure: (validated props, frame, text layouter) -> primitives.
 */
import { slotAt } from "../../replay/timeline/align.ts";
import { groupClock } from "./clock.ts";
import type { GroupProps } from "./props.ts";
import { groupLayout } from "../../../../video/parts/group-grid.ts";
import { groupTile } from "./tile.ts";
import { groupScoreCard } from "./score-card.ts";
import { formatGroupReward } from "./rank.ts";
import { outputSize } from "../../../../video/scene/output-size.ts";
import { creditLine as creditText } from "../scene/lookup.ts";
import { C } from "../../../../video/scene/theme.ts";
import { Draw, font, identity, lineBox, rectOf } from "../../../../video/scene/draw.ts";
import type { Box, Scene } from "../../../../video/scene/types.ts";
import { creditLine } from "../../../../video/parts/overlays.ts";
import type { TextLayouter } from "../../../../video/text/layouter.ts";

export function groupScene(p: GroupProps, frame: number, tx: TextLayouter): Scene {
  const { width, height } = outputSize(p);
  const d = new Draw(tx);
  const clock = groupClock(p);
  const { slot } = slotAt(clock, frame);
  const L = groupLayout(width, height, p.siblings.length, p.siblings[0].timeline.viewport);
  const u = L.unit;
  if (slot.kind === "score") {
    groupScoreCard(d, p, clock.turns, frame - clock.scoreStart, width, height, u);
    return { width, height, background: C.bg, prims: d.prims };
  }
  const head = rectOf(L.header);
  const turnText = slot.kind === "turn" ? `Turn ${slot.turn}` : "Start";
  d.memo(["groupHeader", identity(p), head, turnText, u], () => header(d, p, head, turnText, Math.max(...clock.turns), u));
  // Each tile; the imagery credits of the panoramas on screen, once each, under the grid.
  const credits = new Set<string>();
  p.siblings.forEach((s, i) => {
    const state = groupTile(d, s, i, clock, frame, L.tiles[i]);
    if (state.panoramaVisible) credits.add(creditText(s.timeline));
  });
  if (credits.size) creditLine(d, [...credits].join(" · "), rectOf(L.credit), u * 0.92);
  return { width, height, background: C.bg, prims: d.prims };
}

/** Name, "group", which step and task, the group's mean and std (and zero spread), then the shared turn counter on the right. */
function header(d: Draw, p: GroupProps, b: Box, turnText: string, lastTurn: number, u: number): void {
  const g = p.group;
  const mid = b.y + b.h / 2;
  const gap = 12 * u;
  const tf = font("sans", 15 * u);
  d.text(turnText, b.x + b.w, mid, tf, C.dim, { align: "right" });
  let right = b.x + b.w - d.width(`Turn ${lastTurn}`, tf) - gap;
  if (g.zeroStd) {
    const pf = font("sans", 11.5 * u, 800);
    const h = lineBox(pf.size) + 6 * u;
    const pill = d.pill("ZERO SPREAD", right, mid - h / 2, pf, {
      fill: C.fail,
      color: C.white,
      padX: 8 * u,
      padY: 3 * u,
      r: 4 * u,
      spacing: u,
      anchor: "right",
    });
    right = pill.x - gap;
  }
  let x = b.x;
  const nf = font("sans", 18 * u, 800);
  d.text("georeplay", x, mid, nf, C.accent);
  x += d.width("georeplay", nf) + gap;
  const kf = font("sans", 15 * u, 600);
  const kind = `GRPO group of ${p.siblings.length}`;
  d.text(kind, x, mid, kf, C.text);
  x += d.width(kind, kf) + gap;
  const std = g.std === null ? "—" : g.std.toFixed(4);
  d.text(
    `step ${g.step} · ${g.split} #${g.index} · mean ${formatGroupReward(g.mean)} · std ${std} · scale_rewards ${g.scaleRewards} · ${g.run}`,
    x,
    mid,
    font("mono", 12 * u),
    C.faint,
    { maxWidth: right - x },
  );
}
