/**
 * The page's image table: each distinct rendered view (keyed by its digest)
 * is downscaled once and appended as a data URL to a JSON array written
 * straight to a part file, so a large run never holds its images in memory.
 * In the folder form the table holds the path of the exact file instead.
 */
import sharp from "sharp";

import { DEFAULT_IMAGE_SIZE } from "./image-size.ts";
import type { PageFolder } from "./output/folder.ts";

export { DEFAULT_IMAGE_SIZE };
/** WebP at this quality keeps a 320 px street view near 6-10 KB; every current browser decodes it. */
export const IMAGE_QUALITY = 62;

export interface ImageSink {
  write(chunk: string): Promise<void>;
}

export async function downscale(jpeg: Buffer, size: number): Promise<Buffer> {
  return sharp(jpeg).resize(size, size, { fit: "inside", kernel: "lanczos3" }).webp({ quality: IMAGE_QUALITY, effort: 4 }).toBuffer();
}

export class ImageTable {
  private index = new Map<string, number>();
  bytes = 0;

  /** With a page folder (the folder form) each view is its exact file, named by sha256, and the table holds its path. */
  constructor(
    private readonly sink: ImageSink,
    private readonly size: number,
    private readonly folder: PageFolder | null = null,
  ) {}

  get count(): number {
    return this.index.size;
  }

  /** The table index of this image, encoding and writing it only the first time its digest is seen. */
  async add(digest: string, jpeg: Buffer): Promise<number> {
    const key = digest.toLowerCase();
    const hit = this.index.get(key);
    if (hit !== undefined) return hit;
    const n = this.index.size;
    this.index.set(key, n);
    const src = this.folder ? this.folder.addView(jpeg) : `data:image/webp;base64,${(await downscale(jpeg, this.size)).toString("base64")}`;
    const entry = `${n ? "," : ""}"${src}"`;
    this.bytes += entry.length;
    await this.sink.write(entry);
    return n;
  }
}
