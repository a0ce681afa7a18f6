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

export function rolloutLayout(width: number, height: number, view: { width: number; height: number }): RolloutLayout {
  const u = height / DESIGN_HEIGHT;
  const pad = 16 * u;
  const top = 56 * u;
  const box = Math.round(height - top - 36 * u);
  const aspect = view.width / view.height;
  const vw = aspect >= 1 ? box : Math.round(box * aspect);
  const vh = aspect >= 1 ? Math.round(box / aspect) : box;
  const boxRect = { x: Math.round(pad), y: Math.round(top), width: box, height: box };
  const rightX = Math.round(pad + box + pad);
  const rightW = Math.round(width - rightX - pad);
  const hudH = Math.round(108 * u);
  return {
    unit: u,
    header: { x: Math.round(pad), y: Math.round(12 * u), width: Math.round(width - 2 * pad), height: Math.round(32 * u) },
    viewportBox: boxRect,
    viewport: { x: boxRect.x + Math.round((box - vw) / 2), y: boxRect.y + Math.round((box - vh) / 2), width: vw, height: vh },
    credit: { x: boxRect.x, y: Math.round(top + box + 8 * u), width: box, height: Math.round(20 * u) },
    hud: { x: rightX, y: Math.round(top), width: rightW, height: hudH },
    trace: { x: rightX, y: Math.round(top + hudH + 12 * u), width: rightW, height: Math.round(height - (top + hudH + 12 * u) - pad) },
  };
}
