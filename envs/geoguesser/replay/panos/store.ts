/**
 * Panorama store: decodes panorama files (which file: files.ts) with sharp to 8-bit RGB exactly as the
 * environment does (no ICC transform, no EXIF rotation), and keeps decoded
 * panoramas in an LRU bounded by bytes so a pan over one frame decodes once.
 */
import { statSync } from "node:fs";
import sharp from "sharp";
import { GeoreplayError, errorMessage } from "../../../../replay/io/errors.ts";
import { ioReason } from "../../../../replay/io/jsonl.ts";

export interface Pano {
  path: string;
  /** The whole panorama's size (what the index map is computed against). */
  width: number;
  height: number;
  /** First panorama row held in `data` (0 unless only a band of rows was decoded). */
  top: number;
  /** Rows held in `data`. */
  rows: number;
  /** Packed RGB (or RGBA, alpha 255, in a store of 4 channels), row-major, rows top .. top + rows - 1. */
  data: Uint8Array;
  channels: Channels;
}

/**
 * 3: the environment's RGB. 4: the same bytes with an opaque alpha after each pixel, for a
 * canvas: a pixel is then one aligned 32-bit word, copied in one load (the video's in-between
 * views), at 4/3 the memory.
 */
export type Channels = 3 | 4;

/** Panorama rows [top, bottom) a set of views samples. */
export interface RowBand {
  top: number;
  bottom: number;
}

/**
 * JPEG rows are coded in blocks of 8 (16 with vertical chroma subsampling);
 * a band that starts and ends on a 16-row boundary decodes to exactly the
 * rows a full decode gives (libvips decodes whole scanlines in order and
 * stops after the last one asked for).
 */
export const BAND_ALIGN = 16;

export function alignBand(b: RowBand, height: number): RowBand {
  const top = Math.max(0, Math.floor(b.top / BAND_ALIGN) * BAND_ALIGN);
  const bottom = Math.min(height, Math.ceil(b.bottom / BAND_ALIGN) * BAND_ALIGN);
  return { top, bottom: Math.max(bottom, Math.min(height, top + BAND_ALIGN)) };
}

/** The rows a task needs, as a function of the panorama's size (known only once its header is read). */
export type RowsFor = (width: number, height: number) => RowBand;

/** Whether a decode holds the rows asked for: every row when no band is asked for. */
const covers = (p: Pano, rowsFor: RowsFor | undefined) => {
  if (p.top === 0 && p.rows === p.height) return true;
  // A band must never stand in for the whole panorama: a frame render asks for the whole of one
  // whose band a view check decoded, and would sample rows that are not there.
  if (!rowsFor) return false;
  const b = rowsFor(p.width, p.height);
  return p.top <= b.top && p.top + p.rows >= b.bottom;
};

/** fov at or below which the environment samples the full-resolution original. */
export const HIRES_FOV_DEG = 45;

/** A plain image id: letters, digits, `_`, `-`, `.`; never a path. */
const PLAIN_ID = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*$/;

export function checkImageId(id: string): void {
  if (!PLAIN_ID.test(id) || id.includes("..")) {
    throw new PanoError(
      `image id ${JSON.stringify(id)} is not a plain id (it contains a path separator, "..", NUL or other characters); refusing to use it as a file name`,
    );
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
    /** At most this many decoded panoramas (a pool worker keeps one). */
    readonly maxEntries = Infinity,
    readonly channels: Channels = 3,
  ) {}

  /** True when the panorama is decoded and cached here (at least the rows `band` asks for). */
  has(path: string, band?: RowsFor): boolean {
    const p = this.cache.get(path);
    return !!p && covers(p, band);
  }

  /**
   * The decoded panorama, or at least its rows `band` (given in panorama rows;
   * widened to BAND_ALIGN). A cached decode that covers the band is reused; one
   * that does not is replaced by a decode of the union.
   */
  async get(path: string, band?: RowsFor): Promise<Pano> {
    const hit = this.cache.get(path);
    if (hit && covers(hit, band)) {
      // Refresh recency: Map iteration order is insertion order.
      this.cache.delete(path);
      this.cache.set(path, hit);
      return hit;
    }
    const running = this.inflight.get(path);
    if (running) {
      const p = await running;
      if (covers(p, band)) return p;
    }
    // A cached band that falls short: decode the union, so alternating tasks do not thrash.
    const want: RowsFor | undefined =
      hit && band
        ? (w, h) => {
            const b = band(w, h);
            return { top: Math.min(hit.top, b.top), bottom: Math.max(hit.top + hit.rows, b.bottom) };
          }
        : band;
    // Make room first: a decode's buffer and the ones it replaces are never all held at once.
    if (hit) {
      this.cache.delete(path);
      this.bytes -= hit.data.byteLength;
    }
    while (this.cache.size >= this.maxEntries) {
      const [k, v] = this.cache.entries().next().value!;
      this.cache.delete(k);
      this.bytes -= v.data.byteLength;
    }
    const p = decodePano(path, want, this.channels).finally(() => this.inflight.delete(path));
    this.inflight.set(path, p);
    const pano = await p;
    this.insert(pano);
    return pano;
  }

  /** Forgets every decoded panorama but those at `paths` (decodes under way still finish, into the store). */
  retain(paths: ReadonlySet<string>): void {
    for (const [k, v] of this.cache) {
      if (paths.has(k)) continue;
      this.cache.delete(k);
      this.bytes -= v.data.byteLength;
    }
  }

  /** Forgets every decoded panorama (decodes under way still finish, into the store). */
  clear(): void {
    this.cache.clear();
    this.bytes = 0;
  }

  /**
   * Starts decoding a panorama the caller will ask for next, while it works
   * on the current one (whose views keep their own reference): the store
   * takes it in when it is ready. A failure is kept for the `get` that asks.
   */
  prefetch(path: string, band?: RowsFor): void {
    if (this.has(path, band) || this.inflight.has(path)) return;
    const p = decodePano(path, band, this.channels).finally(() => this.inflight.delete(path));
    this.inflight.set(path, p);
    p.then(
      (pano) => this.insert(pano),
      () => {},
    );
  }

  private insert(pano: Pano): void {
    const old = this.cache.get(pano.path);
    if (old) {
      this.cache.delete(pano.path);
      this.bytes -= old.data.byteLength;
    }
    this.cache.set(pano.path, pano);
    this.bytes += pano.data.byteLength;
    for (const [k, v] of this.cache) {
      if ((this.bytes <= this.maxBytes && this.cache.size <= this.maxEntries) || this.cache.size <= 1) break;
      this.cache.delete(k);
      this.bytes -= v.data.byteLength;
    }
  }
}

/** Decodes one panorama to RGB (or RGBA), with a specific error for every way a file can be wrong. */
export async function decodePano(path: string, band?: RowsFor, channels: Channels = 3): Promise<Pano> {
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
    const width = meta.width ?? 0;
    const height = meta.height ?? 0;
    if (width !== 2 * height) {
      throw new PanoError(`panorama ${path}: is ${width}x${height}, expected an equirectangular panorama twice as wide as high`);
    }
    const rows = band ? alignBand(band(width, height), height) : { top: 0, bottom: height };
    const whole = rows.top === 0 && rows.bottom === height;
    const pipeline = whole ? img : img.extract({ left: 0, top: rows.top, width, height: rows.bottom - rows.top });
    // An opaque alpha band is appended after the colour bands: the colour bytes stay the decoder's.
    const flat = pipeline.removeAlpha();
    const { data, info } = await (channels === 4 ? flat.ensureAlpha(1) : flat).raw().toBuffer({ resolveWithObject: true });
    const grey = info.channels === channels - 2;
    if (!grey && info.channels !== channels) {
      throw new PanoError(`panorama ${path}: has ${info.channels - (channels - 3)} channels, expected RGB`);
    }
    // Words are read in place (aligned): a buffer that starts off a word boundary is copied once.
    if (!grey) return { path, width, height, top: rows.top, rows: info.height, data: data.byteOffset % 4 === 0 ? data : data.slice(), channels };
    // Greyscale JPEG: the environment's convert("RGB") repeats the channel.
    const pixels = info.width * info.height; // info.height: the rows decoded
    const out = new Uint8Array(pixels * channels);
    const step = info.channels;
    for (let i = 0, o = 0; i < pixels; i++, o += channels) {
      out[o] = out[o + 1] = out[o + 2] = data[i * step];
      if (channels === 4) out[o + 3] = 255;
    }
    return { path, width, height, top: rows.top, rows: info.height, data: out, channels };
  } catch (e) {
    throw panoReadError(path, e);
  }
}

/** What went wrong reading a panorama file, said plainly (sharp's and the file system's errors alike). */
export function panoReadError(path: string, e: unknown): PanoError {
  if (e instanceof PanoError) return e;
  const code = (e as NodeJS.ErrnoException | null)?.code;
  const msg = errorMessage(e).split("\n")[0];
  if (code === "ENOENT" || /input file is missing/i.test(msg)) return new PanoError(`panorama ${path}: no such file`);
  // sharp names libjpeg's complaint, or (with failOn) only that a warning became an error.
  const why = /premature end|truncated|corrupt|due to failOn/i.test(msg) ? `truncated or corrupt JPEG (${msg})` : `cannot decode (${msg})`;
  return new PanoError(`panorama ${path}: ${why}`);
}
