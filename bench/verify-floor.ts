/**
 * The floor under `georeplay verify`, as a whole process: Node's start, every
 * panorama file of the run decoded once (envs/geoguesser/replay/panos/store.ts's decodePano,
 * whole) and N views of the output size encoded (replay/render/encode.ts,
 * the environment's JPEG settings), with no index maps, no records read and
 * no worker threads. Whatever verify spends beyond this is overhead to cut;
 * this much it cannot drop below while decoding and encoding with
 * libjpeg-turbo.
 *
 *   node dist/bench/verify-floor.js PANOS_DIR VIEWS [SIZE]
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { decodePano } from "../envs/geoguesser/replay/panos/store.ts";
import { encodeJpeg } from "../replay/render/encode.ts";

sharp.cache(false);
sharp.concurrency(1);
const [dir, viewsArg, sizeArg] = process.argv.slice(2);
const views = Number(viewsArg);
const size = Number(sizeArg ?? 640);
const files = readdirSync(dir)
  .filter((f) => f.endsWith(".jpg"))
  .sort();
// Real panorama content for the encodes (JPEG time depends on it): a size x size crop of each source.
const crops: Uint8Array[] = [];
for (const f of files) {
  const p = await decodePano(join(dir, f));
  const crop = new Uint8Array(size * size * 3);
  const top = Math.max(0, Math.floor(p.height / 2 - size / 2));
  for (let y = 0; y < size; y++)
    crop.set(p.data.subarray(((top + y) * p.width + p.width / 4) * 3, ((top + y) * p.width + p.width / 4 + size) * 3), y * size * 3);
  crops.push(crop);
}
let bytes = 0;
for (let i = 0; i < views; i++) bytes += (await encodeJpeg(crops[i % crops.length], size, size)).byteLength;
console.log(JSON.stringify({ sources: files.length, views, bytes }));
