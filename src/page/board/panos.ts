/**
 * The board page's panorama table: each panorama a view was rendered from is
 * embedded once, downscaled (WebP), and the browser reprojects every view of
 * it from its camera. At board scale this is what lets every view stay
 * visible: 20,000 distinct views at 320 px would be several hundred MB, while
 * 600 panoramas at 1024x512 fit in a few tens of MB. The reprojection is
 * approximate and labelled as such; the exact 640 px view was re-rendered and
 * its bytes checked against the recorded sha256 while building the page.
 */
import sharp from "sharp";
import type { ImageSink } from "../images.ts";

export const PANO_WIDTH = 1024;
export const PANO_QUALITY = 50;

export class PanoTable {
  private index = new Map<string, number>();
  bytes = 0;
  constructor(
    private readonly sink: ImageSink,
    readonly width = PANO_WIDTH,
  ) {}

  get count(): number {
    return this.index.size;
  }

  get height(): number {
    return this.width / 2;
  }

  /** The table index of this panorama file, encoding and writing it the first time. */
  async add(path: string): Promise<number> {
    const hit = this.index.get(path);
    if (hit !== undefined) return hit;
    const n = this.index.size;
    this.index.set(path, n);
    const small = await sharp(path).resize(this.width, this.height, { fit: "fill", kernel: "lanczos3" }).webp({ quality: PANO_QUALITY, effort: 4 }).toBuffer();
    const entry = `${n ? "," : ""}"data:image/webp;base64,${small.toString("base64")}"`;
    this.bytes += entry.length;
    await this.sink.write(entry);
    return n;
  }
}
