/**
 * Pillow 9.4's `ImageDraw.rectangle(outline=..., width=w)` on RGB pixels, quirks included:
 * horizontal lines are clipped and inclusive, vertical lines step |dy| pixels and never set
 * their end pixel (so tiny boxes can paint just outside their rectangle). Contract step 3.
 */

export type Rgb = readonly [number, number, number];

export function drawRectangle(px: Uint8Array, W: number, H: number, r: readonly number[], color: Rgb, width: number): void {
  const [x0, , x1] = r;
  let [, y0, , y1] = r;
  if (y0 > y1) [y0, y1] = [y1, y0];
  const [c0, c1, c2] = color;
  // Index loops rather than a per-pixel closure: this runs for every box of every rendered view.
  const hline = (xa: number, y: number, xb: number) => {
    if (y < 0 || y >= H) return;
    if (xa > xb) [xa, xb] = [xb, xa];
    if (xa < 0) xa = 0;
    else if (xa >= W) return;
    if (xb < 0) return;
    else if (xb >= W) xb = W - 1;
    for (let o = (y * W + xa) * 3, end = (y * W + xb) * 3; o <= end; o += 3) {
      px[o] = c0;
      px[o + 1] = c1;
      px[o + 2] = c2;
    }
  };
  const vline = (x: number, ya: number, yb: number) => {
    if (x < 0 || x >= W) return;
    const dy = yb - ya;
    const step = dy >= 0 ? 1 : -1;
    let y = ya;
    for (let i = Math.abs(dy); i > 0; i--, y += step) {
      if (y < 0 || y >= H) continue;
      const o = (y * W + x) * 3;
      px[o] = c0;
      px[o + 1] = c1;
      px[o + 2] = c2;
    }
  };
  for (let i = 0; i < width; i++) {
    hline(x0, y0 + i, x1);
    hline(x0, y1 - i, x1);
    vline(x1 - i, y0 + width, y1 - width + 1);
    vline(x0 + i, y0 + width, y1 - width + 1);
  }
}
