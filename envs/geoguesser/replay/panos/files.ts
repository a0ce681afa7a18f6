/**
 * The one file rule for panoramas, used by every reader (verify, frames,
 * pages): `--panos` holds `<image_id>.jpg` and, optionally, the
 * full-resolution `<image_id>.orig.jpg` (docs/trace-format.md).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { checkImageId, HIRES_FOV_DEG } from "./store.ts";

/**
 * The file the environment sampled for this image at this fov: `.orig.jpg`
 * when zoomed in (fov <= 45) and present, else `.jpg`. Throws PanoError on an
 * image id that is not a plain file name.
 */
export function panoPath(panosDir: string, imageId: string, fovDeg: number): string {
  checkImageId(imageId);
  if (fovDeg <= HIRES_FOV_DEG) {
    const orig = join(panosDir, `${imageId}.orig.jpg`);
    if (existsSync(orig)) return orig;
  }
  return join(panosDir, `${imageId}.jpg`);
}

/**
 * A file that shows the whole panorama at any resolution, for pictures that
 * are downscaled anyway (the board page's embedded panoramas): `.jpg`, else
 * `.orig.jpg` (a folder may hold an image only at full resolution when every
 * view of it is zoomed in), else null: neither exists.
 */
export function anyPanoPath(panosDir: string, imageId: string): string | null {
  checkImageId(imageId);
  for (const name of [`${imageId}.jpg`, `${imageId}.orig.jpg`]) {
    const p = join(panosDir, name);
    if (existsSync(p)) return p;
  }
  return null;
}
