/** The generated benchmarks' panoramas (board and training run): synthetic, deterministic, street-like. */
import { existsSync, writeFileSync, renameSync } from "node:fs";
import sharp from "sharp";
import { unit } from "./shape.ts";

/** A synthetic street-like panorama: sky gradient, blocks, road, and seeded noise so every pixel matters. */
export async function writePano(path: string, id: string, width: number): Promise<void> {
  if (existsSync(path)) return;
  const height = width / 2;
  const rgb = Buffer.alloc(width * height * 3);
  const hue = unit(`hue:${id}`);
  let s = Math.floor(unit(`seed:${id}`) * 2 ** 31) | 1;
  const blocks: number[] = [];
  for (let x = 0; x < width; x += 16 + ((blocks.length * 37) % 64)) blocks.push(x, Math.floor(height * (0.2 + unit(`b:${id}:${x}`) * 0.28)));
  for (let y = 0; y < height; y++) {
    const t = y / height;
    for (let x = 0; x < width; x++) {
      s ^= s << 13;
      s ^= s >>> 17;
      s ^= s << 5;
      const noise = (s & 15) - 8;
      let r: number, g: number, b: number;
      if (t < 0.5) {
        r = 40 + 60 * hue + 160 * t * 2;
        g = 90 + 40 * hue + 125 * t * 2;
        b = 170 + 60 * t;
        // skyline blocks
        let i = 0;
        while (i + 2 < blocks.length && blocks[i + 2] <= x) i += 2;
        if (y > blocks[i + 1]) {
          r = 60 + ((blocks[i] * 7) % 140);
          g = 60 + ((blocks[i] * 13) % 140);
          b = 60 + ((blocks[i] * 29) % 140);
          if ((x & 15) < 6 && (y & 15) < 8) {
            r = 250;
            g = 230;
            b = 150;
          }
        }
      } else if (t > 0.62 && t < 0.8) {
        r = g = 70;
        b = 75;
        if (t > 0.705 && t < 0.715 && x % (width / 32) < width / 64) r = g = b = 240;
      } else {
        r = 95 + 40 * hue;
        g = 90;
        b = 70;
      }
      const o = 3 * (y * width + x);
      rgb[o] = Math.max(0, Math.min(255, r + noise));
      rgb[o + 1] = Math.max(0, Math.min(255, g + noise));
      rgb[o + 2] = Math.max(0, Math.min(255, b + noise));
    }
  }
  const jpeg = await sharp(rgb, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, jpeg);
  renameSync(tmp, path);
}
