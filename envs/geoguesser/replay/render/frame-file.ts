/**
 * Renders one in-between frame file: reprojection + the environment's JPEG
 * encoder, written to a temp file beside the target and renamed, so a frame
 * file that exists is always complete. Runs on the pool's workers (or the
 * calling thread), so both produce the same bytes.
 */
import { createHash } from "node:crypto";
import { writeAtomic } from "../../../../replay/io/atomic.ts";
import type { Pano } from "../panos/store.ts";
import { indexMap, type ViewSpec } from "./reproject.ts";
import { encodeJpeg } from "../../../../replay/render/encode.ts";
import { viewBuffers, type ViewBuffers } from "./view.ts";

export interface RenderTask {
  /** Absolute path of the frame file to write. */
  path: string;
  /** The panorama file to sample (hires rule already applied). */
  pano: string;
  view: ViewSpec;
}

export const sha256 = (b: Uint8Array): string => createHash("sha256").update(b).digest("hex");

/**
 * Renders, encodes and writes the frame; resolves to the file's sha256. The
 * index map (the row walk: exact, no cache, so zooms and tilts cost what pans
 * cost) and the gather run before the first await, into `buffers`.
 */
export function renderFrameFile(pano: Pano, task: RenderTask, buffers: ViewBuffers = viewBuffers(task.view.width, task.view.height)): Promise<string> {
  indexMap(task.view, pano.width, pano.height, undefined, false, buffers.map, { src: pano.data, base: pano.top * pano.width, rgb: buffers.rgb });
  return encodeJpeg(buffers.rgb, task.view.width, task.view.height).then(async (jpeg) => {
    await writeAtomic(task.path, jpeg);
    return sha256(jpeg);
  });
}
