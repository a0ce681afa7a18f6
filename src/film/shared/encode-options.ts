/** What either engine is asked for one video, and what it reports: the contract between film/ and its engines. */
import type { X264Preset } from "../../ffmpeg/x264.ts";

export interface EncodeVideoOptions {
  publicDir: string;
  /** The MP4 to write (atomically). */
  out: string;
  preset?: X264Preset;
  crf?: number;
  holds?: boolean;
  signal?: AbortSignal;
  /** Video frames encoded so far. */
  onProgress?: (done: number, total: number) => void;
}

export interface EncodeVideoResult {
  frames: number;
  /** Frames painted (the others repeat the previous one). */
  painted: number;
  ms: number;
}
