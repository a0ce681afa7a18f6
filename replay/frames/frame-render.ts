/**
 * Renders one in-between frame file: reprojection + the environment's JPEG
 * encoder, written to a temp file beside the target and renamed, so a frame
 * file that exists is always complete. Shared by the worker threads and the
 * in-thread fallback, so both produce the same bytes.
 */
import { createHash } from "node:crypto";
import { writeAtomic } from "../io/atomic.ts";
import type { PanoStore } from "../panos/store.ts";
import { indexMap, indexMapExact, sampleRgb, type ViewSpec } from "../render/reproject.ts";
import { encodeJpeg } from "../render/encode.ts";
import { levelIndexMap } from "../render/level-index-map.ts";

export interface RenderTask {
  /** Absolute path of the frame file to write. */
  path: string;
  /** The panorama file to sample (hires rule already applied). */
  pano: string;
  view: ViewSpec;
}

export const sha256 = (b: Uint8Array): string => createHash("sha256").update(b).digest("hex");

/** Reusable buffers per output size: a frame allocates nothing per pixel. */
const scratch = new Map<number, { map: Int32Array; rgb: Uint8Array }>();
/** Geometry (fov, pitch, sizes) of the previous frame rendered by this thread. */
let lastGeometry = "";

/**
 * The source index map. Both paths give the reference's exact indices; they
 * differ in cost. indexMap caches per-(fov, pitch) geometry, which pays off
 * when the camera only pans (a look at constant fov); during a zoom or a tilt
 * every frame has new geometry, and building the cache costs more than the
 * plain per-pixel computation, so those frames use indexMapExact, or the
 * mirrored computation for a level camera (half the trigonometry).
 */
function sourceIndices(view: ViewSpec, srcW: number, srcH: number, out: Int32Array): Int32Array {
  const geometry = `${view.fovDeg}:${view.pitchDeg}:${view.width}x${view.height}:${srcW}x${srcH}`;
  const panning = geometry === lastGeometry;
  lastGeometry = geometry;
  if (levelIndexMap(view, srcW, srcH, out)) return out;
  if (panning) return indexMap(view, srcW, srcH, undefined, false, out).map;
  out.set(indexMapExact(view, srcW, srcH));
  return out;
}

export async function renderFrameFile(store: PanoStore, task: RenderTask): Promise<string> {
  const pano = await store.get(task.pano);
  const n = task.view.width * task.view.height;
  let buf = scratch.get(n);
  if (!buf) scratch.set(n, (buf = { map: new Int32Array(n), rgb: new Uint8Array(n * 3) }));
  sourceIndices(task.view, pano.width, pano.height, buf.map);
  sampleRgb(pano.data, buf.map, buf.rgb);
  const jpeg = await encodeJpeg(buf.rgb, task.view.width, task.view.height);
  await writeAtomic(task.path, jpeg);
  return sha256(jpeg);
}
