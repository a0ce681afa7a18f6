/**
 * The crops gym's coordinates: view size, per-mille -> image mapping, view fitting,
 * and image -> view pixel rectangles. Float64 with the contract's operation order
 * (docs: crops-trace-format.md "Coordinates"), so every number equals the gym's bit for bit.
 */

/** [x0, y0, x1, y1] in whole-image pixels (or per-mille of a view, for what the model writes). */
export type Rect = [number, number, number, number];

export const VIEW_LONG = 512;
export const THUMB_LONG = 128;
export const COORD_MAX = 1000;

/** Pixel size with the given long side and the image's aspect (integer rounding half up). */
export function fitSize(iw: number, ih: number, long: number): [number, number] {
  if (iw >= ih) return [long, Math.max(1, Math.floor((long * ih + Math.floor(iw / 2)) / iw))];
  return [Math.max(1, Math.floor((long * iw + Math.floor(ih / 2)) / ih)), long];
}

/** View per-mille -> whole-image coordinate: multiply, divide by 1000, then add. */
export const fromView = (u: number, a0: number, a1: number): number => a0 + (u * (a1 - a0)) / COORD_MAX;

/** A per-mille rectangle of `view` in whole-image pixels; nothing clamped or rounded. */
export function mapBox(b: readonly number[], view: readonly number[]): Rect {
  return [fromView(b[0], view[0], view[2]), fromView(b[1], view[1], view[3]), fromView(b[2], view[0], view[2]), fromView(b[3], view[1], view[3])];
}

export const wholeView = (iw: number, ih: number): Rect => [0, 0, iw, ih];

/** The clamp/shift tail of `fit` (and all of `pan`): keep the size, move inside the image. */
export function placeView(x0: number, y0: number, w: number, h: number, iw: number, ih: number): Rect {
  if (x0 < 0) x0 = 0;
  if (y0 < 0) y0 = 0;
  if (x0 + w > iw) x0 = iw - w;
  if (y0 + h > ih) y0 = ih - h;
  let x1 = x0 + w;
  let y1 = y0 + h;
  if (x1 > iw) x1 = iw;
  if (y1 > ih) y1 = ih;
  return [x0, y0, x1, y1];
}

/** A view of about w x h centred on (cx, cy): widened to the view's aspect W:H, shrunk to fit, shifted inside. */
export function fitView(cx: number, cy: number, w: number, h: number, iw: number, ih: number, W: number, H: number): Rect {
  if (w * H < h * W) w = (h * W) / H;
  else h = (w * H) / W;
  if (w > iw) {
    h = (h * iw) / w; // with the old w
    w = iw;
  }
  if (h > ih) {
    w = (w * ih) / h;
    h = ih;
  }
  return placeView(cx - w / 2, cy - h / 2, w, h, iw, ih);
}

/** Whole-image coordinate -> pixel edge index in an n-pixel rendering of [a0, a1]. */
export const pix = (v: number, a0: number, a1: number, n: number): number => Math.floor(((v - a0) * n) / (a1 - a0) + 0.5);

/** Inclusive pixel rectangle of a whole-image box in a W x H rendering of `view` (end edge exclusive, at least one pixel). */
export function rectPixels(box: readonly number[], view: readonly number[], W: number, H: number): Rect {
  const x0 = pix(box[0], view[0], view[2], W);
  let x1 = pix(box[2], view[0], view[2], W) - 1;
  const y0 = pix(box[1], view[1], view[3], H);
  let y1 = pix(box[3], view[1], view[3], H) - 1;
  if (x1 < x0) x1 = x0;
  if (y1 < y0) y1 = y0;
  return [x0, y0, x1, y1];
}
