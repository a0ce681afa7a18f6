/** Pixel geometry of the Rollout layout, pure so tests can crop the regions they compare. */
import { DESIGN_HEIGHT } from "./theme.ts";

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface RolloutLayout {
  unit: number; // output px per design px
  header: Rect;
  viewportBox: Rect; // square box reserved for the panorama
  viewport: Rect; // the panorama itself (frame aspect kept), inside the box
  credit: Rect;
  hud: Rect;
  trace: Rect;
}

/** Narrower than this, the panel goes under the viewport instead of beside it. */
export const STACK_BELOW_ASPECT = 1.2;

export function isStacked(width: number, height: number): boolean {
  return width / height < STACK_BELOW_ASPECT;
}

/** Output px per design px: the design is 720 px tall beside, 720 px wide stacked. */
export function designUnit(width: number, height: number): number {
  return isStacked(width, height) ? Math.min(width, height) / DESIGN_HEIGHT : height / DESIGN_HEIGHT;
}

export function rolloutLayout(width: number, height: number, view: { width: number; height: number }): RolloutLayout {
  const u = designUnit(width, height);
  const pad = 16 * u;
  const top = 56 * u;
  const stacked = isStacked(width, height);
  const box = stacked ? Math.round(Math.min(width - 2 * pad, (height - top) * 0.5)) : Math.round(height - top - 36 * u);
  const aspect = view.width / view.height;
  const vw = aspect >= 1 ? box : Math.round(box * aspect);
  const vh = aspect >= 1 ? Math.round(box / aspect) : box;
  const boxRect = { x: Math.round(stacked ? (width - box) / 2 : pad), y: Math.round(top), width: box, height: box };
  const credit = { x: boxRect.x, y: Math.round(top + box + 8 * u), width: box, height: Math.round(20 * u) };
  const panelX = Math.round(stacked ? pad : pad + box + pad);
  const panelW = Math.round(stacked ? width - 2 * pad : width - panelX - pad);
  const panelY = Math.round(stacked ? credit.y + credit.height + 8 * u : top);
  const hudH = Math.round(108 * u);
  const traceY = Math.round(panelY + hudH + 12 * u);
  return {
    unit: u,
    header: { x: Math.round(pad), y: Math.round(12 * u), width: Math.round(width - 2 * pad), height: Math.round(32 * u) },
    viewportBox: boxRect,
    viewport: { x: boxRect.x + Math.round((box - vw) / 2), y: boxRect.y + Math.round((box - vh) / 2), width: vw, height: vh },
    credit,
    hud: { x: panelX, y: panelY, width: panelW, height: hudH },
    trace: { x: panelX, y: traceY, width: panelW, height: Math.max(0, Math.round(height - traceY - pad)) },
  };
}
