/**
 * Compare: two episodes side by side on one turn-aligned clock
 * (envs/geoguesser/replay/timeline/align.ts), then one score card for both, as a scene.
 * Pure: (validated props, frame, text layouter) -> primitives.
 */
import { slotAt } from "../../replay/timeline/align.ts";
import { compareClock } from "./clock.ts";
import { sameTask } from "./sides.ts";
import type { CompareProps } from "./props.ts";
import { compareLayout } from "../../../../video/parts/compare-layout.ts";
import { outputSize } from "../../../../video/scene/output-size.ts";
import { C } from "../../../../video/scene/theme.ts";
import { Draw, font, lineBox, rectOf } from "../../../../video/scene/draw.ts";
import type { TextLayouter } from "../../../../video/text/layouter.ts";
import type { Scene } from "../../../../video/scene/types.ts";
import { compareSide } from "./side.ts";
import { compareScoreCard } from "./score-card.ts";

export function compareScene(p: CompareProps, frame: number, tx: TextLayouter): Scene {
  const { width, height } = outputSize(p);
  const d = new Draw(tx);
  const clock = compareClock(p);
  const { slot } = slotAt(clock, frame);
  const L = compareLayout(width, height, [p.a.timeline.viewport, p.b.timeline.viewport]);
  const u = L.unit;
  if (slot.kind === "score") {
    compareScoreCard(d, p, clock.turns, frame - clock.scoreStart, width, height, u);
    return { width, height, background: C.bg, prims: d.prims };
  }
  // Header: name, "two-up", the task (or DIFFERENT TASKS), and the shared turn counter on the right.
  const b = rectOf(L.header);
  const mid = b.y + b.h / 2;
  const gap = 12 * u;
  d.text(slot.kind === "turn" ? `Turn ${slot.turn}` : "Start", b.x + b.w, mid, font("sans", 15 * u), C.dim, { align: "right" });
  const right = b.x + b.w - d.width(`Turn ${Math.max(...clock.turns)}`, font("sans", 15 * u)) - gap;
  let x = b.x;
  const nf = font("sans", 18 * u, 800);
  d.text("georeplay", x, mid, nf, C.accent);
  x += d.width("georeplay", nf) + gap;
  const tf = font("sans", 15 * u, 600);
  d.text("two-up", x, mid, tf, C.text);
  x += d.width("two-up", tf) + gap;
  const ea = p.a.timeline.episode;
  const eb = p.b.timeline.episode;
  if (sameTask(p)) {
    d.text(`same task · ${ea.split} #${ea.index}${ea.taskId ? ` · ${ea.taskId}` : ""}`, x, mid, font("mono", 12 * u), C.faint, { maxWidth: right - x });
  } else {
    const pf = font("sans", 12.5 * u, 800);
    const text = d.tx.fit(`DIFFERENT TASKS · ${ea.split} #${ea.index} vs ${eb.split} #${eb.index}`, pf, right - x - 20 * u);
    const h = lineBox(pf.size) + 6 * u;
    d.pill(text, x, mid - h / 2, pf, { fill: C.accent, color: C.bg, padX: 10 * u, padY: 3 * u, r: 5 * u, spacing: u });
  }
  compareSide(d, p.a, 0, clock, frame, L.columns[0], L.stacked, u);
  compareSide(d, p.b, 1, clock, frame, L.columns[1], L.stacked, u);
  return { width, height, background: C.bg, prims: d.prims };
}
