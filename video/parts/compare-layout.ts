/**
 * Pixel geometry of the Compare layout (two columns, A left and B right),
 * pure so tests can crop the regions they compare. 16:9 puts each side's
 * compact HUD beside its viewport; square or portrait, under it.
 */
import type { Rect } from "../scene/layout.ts";
import { isStacked } from "../scene/layout.ts";

export interface CompareColumn {
  caption: Rect; // arm, pass, episode id
  viewportBox: Rect; // square box reserved for the panorama
  viewport: Rect; // the panorama (frame aspect kept) inside the box
  credit: Rect;
  hud: Rect;
  trace: Rect;
}

export interface CompareLayout {
  unit: number; // output px per design px
  stacked: boolean;
  header: Rect;
  columns: [CompareColumn, CompareColumn];
}

/** Output px per design px: designed at 1280x720 beside, 1080 wide stacked. */
export function compareUnit(width: number, height: number): number {
  return isStacked(width, height) ? Math.min(width, height) / 1080 : Math.min(height / 720, width / 1280);
}

export function compareLayout(width: number, height: number, views: [{ width: number; height: number }, { width: number; height: number }]): CompareLayout {
  const u = compareUnit(width, height);
  const stacked = isStacked(width, height);
  const pad = Math.round((stacked ? 14 : 12) * u);
  const r = Math.round;
  const header: Rect = { x: pad, y: r(8 * u), width: width - 2 * pad, height: r(34 * u) };
  const colW = Math.floor((width - 3 * pad) / 2);
  const captionY = header.y + header.height + r(6 * u);
  const captionH = r(42 * u);
  const boxY = captionY + captionH + r(4 * u);
  const column = (side: 0 | 1): CompareColumn => {
    const x = side === 0 ? pad : width - pad - colW;
    const caption: Rect = { x, y: captionY, width: colW, height: captionH };
    let box: number;
    let hud: Rect;
    let credit: Rect;
    let traceY: number;
    if (stacked) {
      box = Math.min(colW, r((height - boxY) * 0.5));
      const bx = x + r((colW - box) / 2);
      credit = { x: bx, y: boxY + box + r(4 * u), width: box, height: r(18 * u) };
      hud = { x, y: credit.y + credit.height + r(4 * u), width: colW, height: r(100 * u) };
      traceY = hud.y + hud.height + r(10 * u);
      const v = fit(box, views[side]);
      return {
        caption,
        viewportBox: { x: bx, y: boxY, width: box, height: box },
        viewport: { x: bx + r((box - v.width) / 2), y: boxY + r((box - v.height) / 2), width: v.width, height: v.height },
        credit,
        hud,
        trace: { x, y: traceY, width: colW, height: Math.max(0, height - traceY - pad) },
      };
    }
    box = Math.min(r(380 * u), r(colW * 0.62));
    hud = { x: x + box + r(10 * u), y: boxY, width: colW - box - r(10 * u), height: box };
    credit = { x, y: boxY + box + r(4 * u), width: colW, height: r(18 * u) };
    traceY = credit.y + credit.height + r(4 * u);
    const v = fit(box, views[side]);
    return {
      caption,
      viewportBox: { x, y: boxY, width: box, height: box },
      viewport: { x: x + r((box - v.width) / 2), y: boxY + r((box - v.height) / 2), width: v.width, height: v.height },
      credit,
      hud,
      trace: { x, y: traceY, width: colW, height: Math.max(0, height - traceY - pad) },
    };
  };
  return { unit: u, stacked, header, columns: [column(0), column(1)] };
}

/** The frame file's size inside a square box, aspect kept. */
function fit(box: number, view: { width: number; height: number }): { width: number; height: number } {
  const aspect = view.width / view.height;
  return aspect >= 1 ? { width: box, height: Math.round(box / aspect) } : { width: Math.round(box * aspect), height: box };
}
