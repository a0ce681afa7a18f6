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
import { renderView } from "../../envs/geoguesser/replay/render/view.ts";
import { writePano } from "./pano.ts";
import { decodePano } from "../../envs/geoguesser/replay/panos/store.ts";
import { HIRES_FOV_DEG } from "../../envs/geoguesser/replay/panos/store.ts";
import {
  FRAMES_PER_TASK,
  ORIG_WIDTH,
  PANO_WIDTH,
  START_CAMERA,
  compassAngle,
  episodeViews,
  hasOrig,
  imageId,
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
