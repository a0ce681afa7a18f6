/**
 * A recorded image (example-rollout folders) as a frame file of the
 * viewport size. A view JPEG that already has that size is used byte for
 * byte: it is the image the environment sent. Anything else (map PNGs,
 * another size) is fitted into the square with sharp and encoded as JPEG,
 * deterministically (same input and sharp version, same bytes).
 */
import { readFileSync } from "node:fs";
import sharp from "sharp";
import type { RecordedImage } from "../formats/example.ts";

/** Bump when the transcoding below changes, so old manifests stop matching. */
export const RECORDED_FRAME_TAG = "rec1";

/** Letterbox colour around images that are not square: the composition's panel colour. */
const BACKGROUND = { r: 0x16, g: 0x1b, b: 0x22 }; // #161b22

export interface RecordedFrame {
  bytes: Buffer;
  /** True when `bytes` are the recorded file unchanged. */
  copied: boolean;
}

export async function recordedFrame(image: RecordedImage, size: number): Promise<RecordedFrame> {
  const raw = readFileSync(image.path);
  const meta = await sharp(raw, { failOn: "warning" }).metadata();
  const want = image.kind === "view" ? "jpeg" : "png";
  if (meta.format !== want) throw new Error(`is ${meta.format ?? "not an image"}, expected ${want}`);
  if (meta.format === "jpeg" && meta.width === size && meta.height === size && !(meta.orientation && meta.orientation > 1)) {
    return { bytes: raw, copied: true };
  }
  const w = meta.width ?? size;
  const h = meta.height ?? size;
  // Enlarging a small image 2x or more: keep its pixels visibly square rather than smearing them,
  // so a low-resolution recording looks like what it is.
  const enlarge = Math.min(size / w, size / h);
  const bytes = await sharp(raw, { failOn: "warning" })
    .flatten({ background: BACKGROUND })
    .resize(size, size, { fit: "contain", background: BACKGROUND, kernel: enlarge >= 2 ? "nearest" : "lanczos3" })
    .jpeg({ quality: 92, chromaSubsampling: "4:4:4", mozjpeg: false })
    .toBuffer();
  return { bytes, copied: false };
}
