/**
 * Board generator worker: makes the panoramas of its tasks and renders every
 * distinct view of those tasks with georeplay's renderer, returning the
 * sha256 of each view's JPEG (the recorded image_sha256).
 */
import { parentPort, workerData } from "node:worker_threads";
import { createHash } from "node:crypto";
import { existsSync, writeFileSync, renameSync, readFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { renderView } from "../../replay/render/view.ts";
import { decodePano } from "../../replay/panos/store.ts";
import { HIRES_FOV_DEG } from "../../replay/panos/store.ts";
import {
  FRAMES_PER_TASK,
  ORIG_WIDTH,
  PANO_WIDTH,
  START_CAMERA,
  compassAngle,
  episodeViews,
  hasOrig,
  imageId,
  unit,
  viewKey,
  type BoardShape,
  type Camera,
} from "./shape.ts";

interface Job {
  tasks: number[];
  shape: BoardShape;
  panos: string;
}

sharp.cache(false);
sharp.concurrency(1);

/** A synthetic street-like panorama: sky gradient, blocks, road, and seeded noise so every pixel matters. */
async function writePano(path: string, id: string, width: number): Promise<void> {
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

async function run(job: Job): Promise<Record<string, string>> {
  const { shape, panos } = job;
  const hashes: Record<string, string> = {};
  const hashDir = join(panos, "..", "hashes");
  mkdirSync(hashDir, { recursive: true });
  for (const task of job.tasks) {
    // Resumable: a task's hashes are kept once rendered, so an interrupted build picks up where it stopped.
    const done = join(hashDir, `${task}.json`);
    if (existsSync(done)) {
      Object.assign(hashes, JSON.parse(readFileSync(done, "utf8")));
      parentPort!.postMessage({ kind: "progress", task });
      continue;
    }
    const mine: Record<string, string> = {};
    for (let f = 0; f < FRAMES_PER_TASK; f++) {
      const id = imageId(task, f);
      await writePano(join(panos, `${id}.jpg`), id, PANO_WIDTH);
      if (hasOrig(task, f)) await writePano(join(panos, `${id}.orig.jpg`), `${id}.orig`, ORIG_WIDTH);
    }
    const cams = new Map<string, Camera>([[viewKey(task, START_CAMERA), START_CAMERA]]);
    for (let a = 0; a < shape.arms; a++)
      for (let p = 0; p < shape.k; p++) for (const v of episodeViews(a, p, task)) cams.set(viewKey(task, v.camera), v.camera);
    // Group by panorama file so each is decoded once.
    const byFile = new Map<string, [string, Camera][]>();
    for (const [key, c] of cams) {
      const id = imageId(task, c.frame_index);
      const file = c.fov_deg <= HIRES_FOV_DEG && hasOrig(task, c.frame_index) ? `${id}.orig.jpg` : `${id}.jpg`;
      const list = byFile.get(file) ?? [];
      list.push([key, c]);
      byFile.set(file, list);
    }
    for (const [file, list] of byFile) {
      const pano = await decodePano(join(panos, file));
      for (const [key, c] of list) {
        const view = {
          headingDeg: c.heading_deg + compassAngle(task, c.frame_index),
          pitchDeg: c.pitch_deg,
          fovDeg: c.fov_deg,
          width: shape.viewSize,
          height: shape.viewSize,
        };
        const { jpeg } = await renderView(pano, view);
        mine[key] = createHash("sha256").update(jpeg).digest("hex");
      }
    }
    writeFileSync(`${done}.tmp-${process.pid}`, JSON.stringify(mine));
    renameSync(`${done}.tmp-${process.pid}`, done);
    Object.assign(hashes, mine);
    parentPort!.postMessage({ kind: "progress", task });
  }
  return hashes;
}

run(workerData as Job).then(
  (hashes) => parentPort!.postMessage({ kind: "done", hashes }),
  (e) => parentPort!.postMessage({ kind: "error", message: (e as Error)?.stack ?? String(e) }),
);
