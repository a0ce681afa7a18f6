/**
 * The board page's panorama table: each panorama a view was rendered from is
 * embedded once, downscaled (WebP), and the browser reprojects every view of
 * it from its camera. At board scale this is what lets every view stay
 * visible: 20,000 distinct views at 320 px would be several hundred MB, while
 * 600 panoramas at 1024x512 fit in a few tens of MB. The reprojection is
 * approximate and labelled as such; the exact 640 px view was re-rendered and
 * its bytes checked against the recorded sha256 while building the page.
 */
import { readFile } from "node:fs/promises";
import sharp from "sharp";
import { panoReadError } from "../../replay/panos/store.ts";
import type { ImageSink } from "../../../../src/page/images.ts";

export const PANO_WIDTH = 1024;
export const PANO_QUALITY = 50;

/** A panorama file as the page embeds it: downscaled to width x width/2, WebP; a file that cannot be read throws PanoError. */
export async function smallPano(path: string, width = PANO_WIDTH): Promise<Buffer> {
  try {
    // The bytes are read here so a missing file is ENOENT (libvips words it by a process-wide error buffer other threads clear).
    return await sharp(await readFile(path), { failOn: "warning" })
      .resize(width, width / 2, { fit: "fill", kernel: "lanczos3" })
      .webp({ quality: PANO_QUALITY, effort: 4 })
      .toBuffer();
  } catch (e) {
    throw panoReadError(path, e);
  }
}

export class PanoTable {
  private index = new Map<string, number>();
  private failed = new Map<string, Error>();
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

  /**
   * The table index of this panorama file, encoding and writing it the first
   * time; a file that cannot be read throws PanoError (every time it is asked
   * for, so each episode that needs it can say so).
   */
  async add(path: string): Promise<number> {
    const hit = this.index.get(path);
    if (hit !== undefined) return hit;
    const failed = this.failed.get(path);
    if (failed) throw failed;
    let small: Buffer;
    try {
      small = await smallPano(path, this.width);
    } catch (e) {
      this.failed.set(path, e as Error);
      throw e;
    }
    // Indexed once written: a failed panorama never takes a slot the page would point at.
    const n = this.index.size;
    this.index.set(path, n);
    const entry = `${n ? "," : ""}"data:image/webp;base64,${small.toString("base64")}"`;
    this.bytes += entry.length;
    await this.sink.write(entry);
    return n;
  }
}
