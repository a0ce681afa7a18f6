/**
 * In-between frames drawn from the exact views. The environment renders a
 * view as a pinhole camera at the panorama's centre (the gnomonic formula of
 * src/page/reproject.ts), so a verified view is the exact picture of every
 * ray inside its frustum, at full detail, while the page's panorama is a
 * 1024 px downscale (a 15-degree zoom holds 43 of its pixels across). An
 * in-between frame on the same panorama (a zoom's or a look's motion
 * frames, a pose-changing walk's first frame) therefore takes each pixel
 * whose ray a verified view of that panorama saw from that view, and only
 * the rest from the panorama: a zoom in sharpens as it goes and ends on the
 * keyframe without a jump; a zoom out starts from it.
 *
 * Which views: the verified views of the panorama nearest before and after
 * the frame file in display order (the move's start and end), narrower
 * first. Pure maths here; gl.ts runs the same in a shader, source.ts picks.
 */
import type { ReprojectionSpec } from "../../../../../src/page/reproject.ts";
import type { ExactView, FileSource } from "./format.ts";

const DEG = Math.PI / 180;

/** The verified views an in-between frame file is drawn from: at most two, narrower first. */
export function exactViewsFor(files: readonly FileSource[], index: number): ExactView[] {
  const f = files[index];
  if (!f || f.length !== 4) return [];
  const pano = f[0];
  const found: ExactView[] = [];
  for (const step of [-1, 1]) {
    for (let i = index + step; i >= 0 && i < files.length; i += step) {
      const g = files[i];
      if (g.length === 5 && g[1] === pano) {
        found.push(g);
        break;
      }
    }
  }
  if (found.length === 2 && found[0][0] === found[1][0]) found.pop();
  return found.sort((a, b) => a[4] - b[4]);
}

/** Whether a view at `pose` and fov can see any of `view`'s rays (cheap: their cones meet). */
export function overlaps(pose: ReprojectionSpec, view: ReprojectionSpec): boolean {
  const d = (p: ReprojectionSpec) => {
    const cp = Math.cos(p.pitch * DEG);
    return [Math.sin(p.heading * DEG) * cp, -Math.sin(p.pitch * DEG), Math.cos(p.heading * DEG) * cp];
  };
  const [a, b] = [d(pose), d(view)];
  const angle = Math.acos(Math.max(-1, Math.min(1, a[0] * b[0] + a[1] * b[1] + a[2] * b[2]))) / DEG;
  // Half-diagonals of square views: a cone of half-angle atan(sqrt(2) tan(fov/2)) holds the frustum.
  const half = (fov: number) => Math.atan(Math.SQRT2 * Math.tan((fov * DEG) / 2)) / DEG;
  return angle < half(pose.fov) + half(view.fov);
}

export interface ExactPixels {
  rgba: Uint8ClampedArray;
  width: number;
  height: number;
  pose: ReprojectionSpec;
}

/**
 * Overwrites the pixels of `out` (RGBA, W x H, a reprojection at `pose`) whose ray one of
 * `views` saw, bilinearly sampled from the first (narrowest) that did. The JS twin of gl.ts's shader.
 */
export function overlayExact(out: Uint8ClampedArray, W: number, H: number, pose: ReprojectionSpec, views: readonly ExactPixels[]): void {
  if (views.length === 0) return;
  const focal = (0.5 * W) / Math.tan((pose.fov * DEG) / 2);
  const cp = Math.cos(pose.pitch * DEG);
  const sp = Math.sin(pose.pitch * DEG);
  const ch = Math.cos(pose.heading * DEG);
  const sh = Math.sin(pose.heading * DEG);
  const cams = views.map((v) => ({
    v,
    cp: Math.cos(v.pose.pitch * DEG),
    sp: Math.sin(v.pose.pitch * DEG),
    ch: Math.cos(v.pose.heading * DEG),
    sh: Math.sin(v.pose.heading * DEG),
    f: (0.5 * v.width) / Math.tan((v.pose.fov * DEG) / 2),
  }));
  for (let y = 0; y < H; y++) {
    const ry0 = -(y - H / 2);
    for (let x = 0; x < W; x++) {
      // The ray of output pixel (x, y) in the world, as reprojectRgba computes it.
      const rx0 = x - W / 2;
      const a1 = ry0 * cp - focal * sp;
      const a2 = ry0 * sp + focal * cp;
      const b0 = rx0 * ch + a2 * sh;
      const b2 = -rx0 * sh + a2 * ch;
      for (const c of cams) {
        // The same ray in the view's camera: undo its heading, then its pitch.
        const vx = b0 * c.ch - b2 * c.sh;
        const va2 = b0 * c.sh + b2 * c.ch;
        const vy = a1 * c.cp + va2 * c.sp;
        const vz = -a1 * c.sp + va2 * c.cp;
        if (vz <= 0) continue;
        // Its pixel in the view (pixel i sees the ray at i - width/2), then a bilinear sample.
        const px = c.v.width / 2 + (c.f * vx) / vz;
        const py = c.v.height / 2 - (c.f * vy) / vz;
        if (px < -0.5 || py < -0.5 || px > c.v.width - 0.5 || py > c.v.height - 0.5) continue;
        sample(c.v, px, py, out, (y * W + x) * 4);
        break;
      }
    }
  }
}

function sample(v: ExactPixels, px: number, py: number, out: Uint8ClampedArray, o: number): void {
  const x0 = Math.max(0, Math.min(v.width - 1, Math.floor(px)));
  const y0 = Math.max(0, Math.min(v.height - 1, Math.floor(py)));
  const x1 = Math.min(v.width - 1, x0 + 1);
  const y1 = Math.min(v.height - 1, y0 + 1);
  const fx = Math.max(0, Math.min(1, px - x0));
  const fy = Math.max(0, Math.min(1, py - y0));
  const s = v.rgba;
  const i00 = (y0 * v.width + x0) * 4;
  const i10 = (y0 * v.width + x1) * 4;
  const i01 = (y1 * v.width + x0) * 4;
  const i11 = (y1 * v.width + x1) * 4;
  for (let k = 0; k < 3; k++) {
    const top = s[i00 + k] + (s[i10 + k] - s[i00 + k]) * fx;
    const bottom = s[i01 + k] + (s[i11 + k] - s[i01 + k]) * fx;
    out[o + k] = top + (bottom - top) * fy;
  }
  out[o + 3] = 255;
}

/** Whether the page may read an image's pixels: its own data:/blob: URLs, or a file of its own http(s) origin. */
export function readablePixels(src: string, page: Pick<Location, "protocol" | "href" | "origin"> = location): boolean {
  if (/^(data|blob):/.test(src)) return true;
  if (page.protocol === "file:") return false;
  try {
    return new URL(src, page.href).origin === page.origin;
  } catch {
    return false;
  }
}
