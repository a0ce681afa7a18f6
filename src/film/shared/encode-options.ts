/** What either engine is asked for one video, and what it reports: the contract between film/ and its engines. */
import type { X264Preset } from "../../ffmpeg/x264.ts";

/**
 * What the environment's renderer needs to make a deferred view, passed through the painter untouched
 * (across threads too, as plain data): the painter reads only its size (GeoGuesser's: a panorama's
 * heading, pitch and fov).
 */
export interface DeferredView {
  readonly width: number;
  readonly height: number;
}

/** An image the scenes name that is no file: an in-between view the native painter reprojects from its panorama. */
export interface DeferredImage<V extends DeferredView = DeferredView> {
  /** As the scenes name it (relative to publicDir). */
  src: string;
  /** The environment that deferred it (its records' `env`): envs/deferred-views.ts has its maker of the pixels. */
  env: string;
  pano: string;
  view: V;
}

/**
 * How an environment makes its deferred views' pixels (envs/deferred-views.ts), on the painter's
 * thread and on the one reprojecting ahead of it: a per-thread store of decoded sources, and a
 * view's pixels as opaque RGBA words from it.
 */
export interface DeferredViews<S = unknown> {
  /** Views ahead of the one being made whose source starts decoding now. */
  readonly lookahead: number;
  /** A thread's store of decoded sources (what pixels() reads). */
  store(): S;
  /** Fills `out` (width x height words) with the view; rejects with a named, specific error. */
  pixels(store: S, d: DeferredImage, out: Uint32Array): Promise<void>;
  /** Starts decoding the sources of views [from, to] (a head start: a failure is reported when its view is asked for). */
  prefetch(store: S, deferred: DeferredImage[], from: number, to: number): void;
}

/** An image source the first time a frame shows it, and the box it is drawn into there (the painter's plan lists them in that order). */
export interface ShownImage {
  src: string;
  w: number;
  h: number;
}

export interface EncodeVideoOptions {
  publicDir: string;
  /** The MP4 to write (atomically). */
  out: string;
  preset?: X264Preset;
  crf?: number;
  holds?: boolean;
  signal?: AbortSignal;
  /** Native engine only: images painted from their panorama instead of read from publicDir (in frame order). */
  deferred?: DeferredImage[];
  /** Video frames encoded so far. */
  onProgress?: (done: number, total: number) => void;
}

export interface EncodeVideoResult {
  frames: number;
  /** Frames painted (the others repeat the previous one). */
  painted: number;
  ms: number;
}
