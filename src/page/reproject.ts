/**
 * The board page's view reprojection: the environment's gnomonic projection
 * (envs/geoguesser/replay/render/reproject.ts, same formula and truncating samples) run on
 * the downscaled panorama embedded in the page. Pure, on typed arrays; the
 * result approximates the verified view (a smaller source), and the page
 * labels it as a browser reprojection.
 */
export interface ReprojectionSpec {
  heading: number;
  pitch: number;
  fov: number;
}

const DEG = Math.PI / 180;
const TWO_PI = 2 * Math.PI;

/** Fills `out` (RGBA, W x H) from `src` (RGBA equirectangular, sw x sh). */
export function reprojectRgba(src: Uint8ClampedArray, sw: number, sh: number, out: Uint8ClampedArray, W: number, H: number, v: ReprojectionSpec): void {
  const focal = (0.5 * W) / Math.tan((v.fov * DEG) / 2);
  const cp = Math.cos(v.pitch * DEG);
  const sp = Math.sin(v.pitch * DEG);
  const ch = Math.cos(v.heading * DEG);
  const shd = Math.sin(v.heading * DEG);
  for (let y = 0; y < H; y++) {
    const ry0 = -(y - H / 2);
    for (let x = 0; x < W; x++) {
      const rx0 = x - W / 2;
      const n = Math.sqrt(rx0 * rx0 + ry0 * ry0 + focal * focal);
      const rx = rx0 / n;
      const ry = ry0 / n;
      const rz = focal / n;
      const a1 = ry * cp - rz * sp;
      const a2 = ry * sp + rz * cp;
      const b0 = rx * ch + a2 * shd;
      const b2 = -rx * shd + a2 * ch;
      const lon = Math.atan2(b0, b2);
      const lat = Math.asin(a1 < -1 ? -1 : a1 > 1 ? 1 : a1);
      let u = Math.trunc((lon / TWO_PI + 0.5) * sw) % sw;
      if (u < 0) u += sw;
      let vv = Math.trunc((0.5 - lat / Math.PI) * sh);
      if (vv < 0) vv = 0;
      else if (vv > sh - 1) vv = sh - 1;
      const s = (vv * sw + u) * 4;
      const o = (y * W + x) * 4;
      out[o] = src[s];
      out[o + 1] = src[s + 1];
      out[o + 2] = src[s + 2];
      out[o + 3] = 255;
    }
  }
}
