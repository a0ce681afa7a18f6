/**
 * What the model saw: the view (the view rectangle resized, boxes outlined) and the thumbnail
 * (the whole image at 128 px, the view outlined in yellow), as RGB pixels; `encodeView` makes
 * the gym's JPEG bytes. Contract: crops-trace-format.md "How a view is rendered".
 */
import { createHash } from "node:crypto";
import { encodeJpeg } from "../../../replay/render/encode.ts";
import { fitSize, rectPixels, THUMB_LONG } from "./geometry.ts";
import { resizeBicubic } from "./resize.ts";
import { drawRectangle, type Rgb } from "./draw.ts";

export const PALETTE: readonly Rgb[] = [
  [255, 59, 48],
  [52, 199, 89],
  [0, 122, 255],
  [255, 149, 0],
  [175, 82, 222],
  [255, 204, 0],
  [90, 200, 250],
  [255, 45, 85],
];
export const THUMB_COLOR: Rgb = [255, 255, 0];
export const BOX_WIDTH = 2;
export const THUMB_WIDTH = 1;
export const JPEG_QUALITY = 85;

/** A decoded image: 8-bit RGB, row-major. */
export interface RgbImage {
  width: number;
  height: number;
  data: Uint8Array;
}

export interface DrawnBox {
  id: number;
  box: readonly number[];
}

/** The boxes outlined on a W x H rendering of `view`, ascending id, later boxes over earlier ones. */
export function drawBoxes(px: Uint8Array, W: number, H: number, view: readonly number[], boxes: readonly DrawnBox[]): Uint8Array {
  for (const b of [...boxes].sort((a, c) => a.id - c.id)) {
    const r = rectPixels(b.box, view, W, H);
    if (r[2] < 0 || r[3] < 0 || r[0] > W - 1 || r[1] > H - 1) continue;
    drawRectangle(px, W, H, r, PALETTE[(((b.id - 1) % 8) + 8) % 8], BOX_WIDTH);
  }
  return px;
}

/** The four sides of an outline drawn on pixel rectangle `r` ([x0, y0, x1, y1], inclusive), `m` px of slack either way. */
function sides(r: readonly number[], m: number): number[][] {
  const xa = Math.min(r[0], r[2]) - m,
    xb = Math.max(r[0], r[2]) + m;
  const ya = Math.min(r[1], r[3]) - m,
    yb = Math.max(r[1], r[3]) + m;
  return [
    [xa, ya, xb, ya + 2 * m + 1],
    [xa, yb - 2 * m - 1, xb, yb],
    [xa, ya, xa + 2 * m + 1, yb],
    [xb - 2 * m - 1, ya, xb, yb],
  ];
}

/**
 * Where drawBoxes may change pixels, as thin rectangles ([x0, y0, x1, y1], inclusive, maybe
 * partly outside the image): each outline's four sides with BOX_WIDTH px of slack (drawRectangle
 * paints up to BOX_WIDTH rows past a tiny box's top). The interiors are left out, so an encoder
 * can reuse the undrawn view's blocks everywhere else.
 */
export const outlineRects = (W: number, H: number, view: readonly number[], boxes: readonly DrawnBox[]): number[][] =>
  boxes.flatMap((b) => sides(rectPixels(b.box, view, W, H), BOX_WIDTH));

/** Where renderThumb may change the thumbnail base's pixels (as `outlineRects`). */
export const thumbOutlineRects = (base: { width: number; height: number }, view: readonly number[], iw: number, ih: number): number[][] =>
  sides(rectPixels(view, [0, 0, iw, ih], base.width, base.height), BOX_WIDTH);

/** The view rectangle resized to W x H without boxes (shared by every turn that keeps the view), into `out` when given. */
export const viewBase = (img: RgbImage, view: readonly number[], W: number, H: number, out?: Uint8Array): Uint8Array =>
  resizeBicubic(img.data, img.width, img.height, W, H, view, out);

export function renderView(img: RgbImage, view: readonly number[], boxes: readonly DrawnBox[], W: number, H: number): Uint8Array {
  return drawBoxes(viewBase(img, view, W, H), W, H, view, boxes);
}

/** The whole image at the thumbnail size, before any outline. */
export function thumbBase(img: RgbImage): { data: Uint8Array; width: number; height: number } {
  const [tw, th] = fitSize(img.width, img.height, THUMB_LONG);
  return { data: resizeBicubic(img.data, img.width, img.height, tw, th, [0, 0, img.width, img.height]), width: tw, height: th };
}

/** A copy of the thumbnail base with `view` outlined (width 1, yellow). */
export const renderThumb = (base: { data: Uint8Array; width: number; height: number }, view: readonly number[], iw: number, ih: number): Uint8Array =>
  drawThumbOutline(base.data.slice(), base, view, iw, ih);

/** `view` outlined on thumbnail pixels `px` (of `base`'s size), in place. */
export function drawThumbOutline(px: Uint8Array, base: { width: number; height: number }, view: readonly number[], iw: number, ih: number): Uint8Array {
  drawRectangle(px, base.width, base.height, rectPixels(view, [0, 0, iw, ih], base.width, base.height), THUMB_COLOR, THUMB_WIDTH);
  return px;
}

/** The gym's JPEG (quality 85, 4:2:0, optimized Huffman, JFIF APP0 only). */
export const encodeView = (px: Uint8Array, W: number, H: number): Promise<Buffer> => encodeJpeg(px, W, H, JPEG_QUALITY);

export const sha256Hex = (b: Uint8Array): string => createHash("sha256").update(b).digest("hex");
