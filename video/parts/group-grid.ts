/**
 * Pixel geometry of the Group layout: a header, then the siblings in a grid
 * (row by row, sibling order), and a credit line under it. Pure so tests can
 * check every rectangle and crop the regions goldens compare.
 *
 * The grid: 1 -> 1x1, 2 -> 1x2, 3-4 -> 2x2, 5-8 -> 2 rows of 3 or 4,
 * 9-16 -> rows of 4 (3x4, 4x4), more -> as square as it gets; a portrait
 * video turns it on its side (rows and columns swapped). Cells left over stay
 * empty (3 siblings: 2x2 with the last cell empty).
 */
import type { Rect } from "../scene/layout.ts";
import { compareUnit } from "./compare-layout.ts";

export interface GridShape {
  rows: number;
  cols: number;
}

export function gridShape(n: number, width: number, height: number): GridShape {
  if (!Number.isInteger(n) || n < 1) throw new Error(`a group grid needs at least one sibling, got ${n}`);
  const cols = n <= 2 ? n : n <= 4 ? 2 : n <= 8 ? Math.ceil(n / 2) : n <= 16 ? 4 : Math.ceil(Math.sqrt(n));
  const rows = Math.ceil(n / cols);
  return height > width ? { rows: cols, cols: rows } : { rows, cols };
}

export interface GroupTile {
  /** The whole cell. */
  cell: Rect;
  /** Sibling number, turn status. */
  caption: Rect;
  /** Square box reserved for the panorama. */
  viewportBox: Rect;
  /** The panorama (frame aspect kept) inside the box. */
  viewport: Rect;
  /** Reward, advantage and the camera numbers: beside the viewport in a wide cell, under it in a tall one. */
  hud: Rect;
  beside: boolean;
  /** Output px per design px inside this tile (smaller tiles draw smaller, down to a readable floor). */
  unit: number;
}

export interface GroupLayout {
  /** Output px per design px of the frame (header, credit, score card). */
  unit: number;
  shape: GridShape;
  header: Rect;
  credit: Rect;
  /** One per sibling, in sibling order. */
  tiles: GroupTile[];
}

/** A tile is designed at 2x2 on 1280x720 (626x324); smaller ones scale down to this share (text stays legible at 720p), then clip. */
const TILE_DESIGN = { width: 626, height: 324 };
const MIN_TILE_SCALE = 0.75;
/** A HUD beside the viewport needs this many design px; narrower, it goes under. */
const MIN_HUD_BESIDE = 150;

export function groupLayout(width: number, height: number, n: number, view: { width: number; height: number }): GroupLayout {
  const u = compareUnit(width, height);
  const r = Math.round;
  const shape = gridShape(n, width, height);
  const pad = r(10 * u);
  const gap = r(8 * u);
  const header: Rect = { x: pad, y: r(6 * u), width: width - 2 * pad, height: r(30 * u) };
  const creditH = r(16 * u);
  const credit: Rect = { x: pad, y: height - pad - creditH + r(4 * u), width: width - 2 * pad, height: creditH };
  const top = header.y + header.height + r(6 * u);
  const bottom = credit.y - r(4 * u);
  const cellW = Math.floor((width - 2 * pad - (shape.cols - 1) * gap) / shape.cols);
  const cellH = Math.floor((bottom - top - (shape.rows - 1) * gap) / shape.rows);
  const tu = u * Math.min(1, Math.max(MIN_TILE_SCALE, Math.min(cellW / (TILE_DESIGN.width * u), cellH / (TILE_DESIGN.height * u))));
  const tiles: GroupTile[] = [];
  for (let i = 0; i < n; i++) {
    const row = Math.floor(i / shape.cols);
    const col = i % shape.cols;
    const cell: Rect = { x: pad + col * (cellW + gap), y: top + row * (cellH + gap), width: cellW, height: cellH };
    tiles.push(tileLayout(cell, tu, view));
  }
  return { unit: u, shape, header, credit, tiles };
}

/** One cell's caption, viewport and HUD. */
function tileLayout(cell: Rect, tu: number, view: { width: number; height: number }): GroupTile {
  const r = Math.round;
  const capH = r(26 * tu);
  const inner = r(6 * tu);
  const caption: Rect = { x: cell.x, y: cell.y, width: cell.width, height: capH };
  const bodyY = cell.y + capH + r(3 * tu);
  const bodyH = cell.y + cell.height - bodyY;
  const besideBox = Math.min(bodyH, cell.width);
  const beside = cell.width - besideBox - inner >= MIN_HUD_BESIDE * tu;
  let box: number;
  let boxRect: Rect;
  let hud: Rect;
  if (beside) {
    box = besideBox;
    boxRect = { x: cell.x, y: bodyY, width: box, height: box };
    hud = { x: cell.x + box + inner, y: bodyY, width: cell.width - box - inner, height: bodyH };
  } else {
    const hudH = r(UNDER_HUD_HEIGHT * tu);
    box = Math.max(0, Math.min(cell.width, bodyH - hudH - inner));
    boxRect = { x: cell.x + r((cell.width - box) / 2), y: bodyY, width: box, height: box };
    hud = { x: cell.x, y: bodyY + box + inner, width: cell.width, height: cell.y + cell.height - (bodyY + box + inner) };
  }
  const aspect = view.width / view.height;
  const vw = aspect >= 1 ? box : r(box * aspect);
  const vh = aspect >= 1 ? r(box / aspect) : box;
  return {
    cell,
    caption,
    viewportBox: boxRect,
    viewport: { x: boxRect.x + r((box - vw) / 2), y: boxRect.y + r((box - vh) / 2), width: vw, height: vh },
    hud,
    beside,
    unit: tu,
  };
}

/** A HUD under the viewport: one row of stat boxes (design px). */
export const UNDER_HUD_HEIGHT = 44;
