/**
 * JPEG encoding identical to the environment's (PIL: quality 85, 4:2:0,
 * optimized Huffman, JFIF APP0). libjpeg-turbo through sharp with mozjpeg off
 * produces the same tables and scan data; PIL additionally writes this JFIF
 * APP0 segment (version 1.1, aspect 1:1, no thumbnail) right after SOI.
 */
import sharp from "sharp";

const JFIF_APP0 = Buffer.from([0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]);

export async function encodeJpeg(rgb: Uint8Array, width: number, height: number, quality = 85): Promise<Buffer> {
  const body = await sharp(rgb, { raw: { width, height, channels: 3 } })
    .jpeg({ quality, mozjpeg: false, chromaSubsampling: "4:2:0", optimiseCoding: true, progressive: false })
    .toBuffer();
  return withJfif(body);
}

/** Inserts the JFIF APP0 segment after SOI unless the stream already starts with one. */
export function withJfif(jpeg: Buffer): Buffer {
  if (jpeg[0] !== 0xff || jpeg[1] !== 0xd8) throw new Error("encoder did not produce a JPEG stream");
  if (jpeg[2] === 0xff && jpeg[3] === 0xe0) return jpeg;
  return Buffer.concat([jpeg.subarray(0, 2), JFIF_APP0, jpeg.subarray(2)]);
}
