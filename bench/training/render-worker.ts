/**
 * Training-run generator worker: makes the panoramas of its pool tasks and
 * renders every reachable view of them with georeplay's renderer, returning
 * each view's digest as training traces record it (16 hex digits of sha256
 * over the JPEG's base64 text), so `georeplay verify` passes on the run.
 */
import { parentPort, workerData } from "node:worker_threads";
import { existsSync, writeFileSync, renameSync, readFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { renderView } from "../../envs/geoguesser/replay/render/view.ts";
import { decodePano } from "../../envs/geoguesser/replay/panos/store.ts";
import { imageDigest } from "../../replay/render/hash.ts";
import { writePano } from "../board/pano.ts";
import { FRAMES_PER_TASK, PANO_WIDTH, compassAngle, imageId, reachableCameras, viewKey } from "./shape.ts";

interface Job {
  tasks: number[];
  viewSize: number;
  panos: string;
}

sharp.cache(false);
sharp.concurrency(1);

async function run(job: Job): Promise<Record<string, string>> {
  const hashes: Record<string, string> = {};
  const hashDir = join(job.panos, "..", "hashes");
  mkdirSync(hashDir, { recursive: true });
  const cameras = reachableCameras();
  for (const task of job.tasks) {
    // Resumable: a task's hashes are kept once rendered.
    const done = join(hashDir, `${task}.json`);
    if (existsSync(done)) {
      Object.assign(hashes, JSON.parse(readFileSync(done, "utf8")));
      parentPort!.postMessage({ kind: "progress", task });
      continue;
    }
    const mine: Record<string, string> = {};
    for (let f = 0; f < FRAMES_PER_TASK; f++) {
      const id = imageId(task, f);
      const file = join(job.panos, `${id}.jpg`);
      await writePano(file, id, PANO_WIDTH);
      const pano = await decodePano(file);
      for (const c of cameras.filter((x) => x.frame_index === f)) {
        const view = { headingDeg: c.heading_deg + compassAngle(task, f), pitchDeg: c.pitch_deg, fovDeg: c.fov_deg, width: job.viewSize, height: job.viewSize };
        const { jpeg } = await renderView(pano, view);
        mine[viewKey(task, c)] = imageDigest(jpeg, "sha256-b64-16");
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
