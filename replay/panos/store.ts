/**
 * Panorama store: resolves `<image_id>.jpg` / `<image_id>.orig.jpg` under a
 * trusted --panos directory, decodes with sharp to 8-bit RGB exactly as the
 * environment does (no ICC transform, no EXIF rotation), and keeps decoded
 * panoramas in an LRU bounded by bytes so a pan over one frame decodes once.
 */
import { statSync, existsSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";

// libvips' own operation cache would keep a second copy of every decoded panorama;
// the store below is the cache, bounded by bytes.
sharp.cache(false);
import { GeoreplayError, errorMessage } from "../io/errors.ts";
import { ioReason } from "../io/jsonl.ts";

export interface Pano {
  path: string;
  width: number;
  height: number;
  /** Packed RGB, row-major. */
  data: Uint8Array;
}

/** fov at or below which the environment samples the full-resolution original. */
export const HIRES_FOV_DEG = 45;

/** A plain image id: letters, digits, `_`, `-`, `.`; never a path. */
const PLAIN_ID = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*$/;

export function checkImageId(id: string): void {
  if (!PLAIN_ID.test(id) || id.includes("..")) {
    throw new PanoError(`image id ${JSON.stringify(id)} is not a plain id (it contains a path separator, "..", NUL or other characters); refusing to use it as a file name`);
  }
}

/** A problem with one panorama (the view is reported, other views go on). */
export class PanoError extends Error {}

/** Checks the --panos argument once, up front. */
export function openPanoDir(dir: string): string {
  let st;
  try {
    st = statSync(dir);
  } catch (e) {
    throw new GeoreplayError(`--panos ${dir}: ${ioReason(e)}`);
  }
  if (!st.isDirectory()) throw new GeoreplayError(`--panos ${dir}: not a directory`);
  return dir;
}

export class PanoStore {
  private cache = new Map<string, Pano>();
  private inflight = new Map<string, Promise<Pano>>();
  private bytes = 0;

  constructor(
    readonly dir: string,
    readonly maxBytes = 256 * 1024 * 1024,
    /** At most this many decoded panoramas (a pool worker keeps about two). */
    readonly maxEntries = Infinity,
  ) {}

  /** True when the panorama is decoded and cached here. */
  has(path: string): boolean {
    return this.cache.has(path);
  }

  /** The file the environment would sample for this image at this fov (the hires rule). */
  resolve(imageId: string, fovDeg: number): string {
    checkImageId(imageId);
    if (fovDeg <= HIRES_FOV_DEG) {
      const orig = join(this.dir, `${imageId}.orig.jpg`);
      if (existsSync(orig)) return orig;
    }
    return join(this.dir, `${imageId}.jpg`);
  }

  async get(path: string): Promise<Pano> {
    const hit = this.cache.get(path);
    if (hit) {
      // Refresh recency: Map iteration order is insertion order.
      this.cache.delete(path);
      this.cache.set(path, hit);
      return hit;
    }
    let p = this.inflight.get(path);
    if (!p) {
      p = decodePano(path).finally(() => this.inflight.delete(path));
      this.inflight.set(path, p);
      const pano = await p;
      this.insert(pano);
      return pano;
    }
    return p;
  }

  private insert(pano: Pano): void {
    this.cache.set(pano.path, pano);
    this.bytes += pano.data.byteLength;
    for (const [k, v] of this.cache) {
      if ((this.bytes <= this.maxBytes && this.cache.size <= this.maxEntries) || this.cache.size <= 1) break;
      this.cache.delete(k);
      this.bytes -= v.data.byteLength;
    }
  }
}

/** Decodes one panorama to RGB, with a specific error for every way a file can be wrong. */
export async function decodePano(path: string): Promise<Pano> {
  let size: number;
  try {
    size = statSync(path).size;
  } catch (e) {
    throw new PanoError(`panorama ${path}: ${ioReason(e)}`);
  }
  if (size === 0) throw new PanoError(`panorama ${path}: empty file (0 bytes)`);
  try {
    const img = sharp(path, { ignoreIcc: true, failOn: "warning", limitInputPixels: 16384 * 8192 });
    const meta = await img.metadata();
    if (meta.format !== "jpeg") {
      throw new PanoError(`panorama ${path}: is ${meta.format ?? "an unknown format"}, expected a JPEG`);
    }
    const { data, info } = await img.removeAlpha().raw().toBuffer({ resolveWithObject: true });
    if (info.width !== 2 * info.height) {
      throw new PanoError(`panorama ${path}: is ${info.width}x${info.height}, expected an equirectangular panorama twice as wide as high`);
    }
    if (info.channels !== 1 && info.channels !== 3) {
      throw new PanoError(`panorama ${path}: has ${info.channels} channels, expected RGB`);
    }
    const bytes = info.width * info.height * 3;
    const rgb: Uint8Array = info.channels === 3 ? data : new Uint8Array(bytes);
    if (info.channels === 1) {
      // Greyscale JPEG: the environment's convert("RGB") repeats the channel.
      for (let i = 0; i < data.length; i++) rgb[3 * i] = rgb[3 * i + 1] = rgb[3 * i + 2] = data[i];
    }
    return { path, width: info.width, height: info.height, data: rgb };
  } catch (e) {
    if (e instanceof PanoError) throw e;
    const msg = errorMessage(e).split("\n")[0];
    const why = /premature end|truncated|corrupt/i.test(msg) ? `truncated or corrupt JPEG (${msg})` : `cannot decode (${msg})`;
    throw new PanoError(`panorama ${path}: ${why}`);
  }
}
