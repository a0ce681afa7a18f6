/**
 * ffmpeg and ffprobe: `$GEOREPLAY_FFMPEG` (and `$GEOREPLAY_FFPROBE`), else
 * ffmpeg-static's binary where its install script managed to download one
 * (an optional dependency: usually absent offline), else `ffmpeg` on PATH
 * (Debian's, which scripts/setup.sh installs). Remotion's bundled ffmpeg is
 * never used: it has no rawvideo demuxer and is Remotion-licensed.
 */
import { createRequire } from "node:module";
import { closeSync, existsSync, fstatSync, openSync, readSync, statSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { execFileSync } from "node:child_process";
import { GeoreplayError } from "../../replay/io/errors.ts";

const require = createRequire(import.meta.url);

export const FFMPEG_ENV = "GEOREPLAY_FFMPEG";
export const FFPROBE_ENV = "GEOREPLAY_FFPROBE";
const INSTALL = "install it with: apt-get install ffmpeg (Debian/Ubuntu), or set $GEOREPLAY_FFMPEG to an ffmpeg with libx264";

export interface Tool {
  path: string;
  source: "env" | "ffmpeg-static" | "system";
}

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

function fromFfmpegStatic(): string | null {
  try {
    const p = require("ffmpeg-static") as string | null;
    return p && existsSync(p) ? p : null;
  } catch {
    return null; // not installed (its download fails offline)
  }
}

function fromPath(name: string, env: NodeJS.ProcessEnv = process.env): string | null {
  for (const d of (env.PATH ?? "").split(delimiter)) {
    if (!d) continue;
    const p = join(d, name);
    if (isFile(p)) return p;
  }
  return null;
}

function fromEnv(name: string, env: NodeJS.ProcessEnv): string | null {
  const v = env[name];
  if (v === undefined || v === "") return null;
  if (!isFile(v)) throw new GeoreplayError(`$${name}=${v}: no such file; point it at an ffmpeg binary, or unset it to use ffmpeg on PATH`);
  return v;
}

export function resolveFfmpeg(env: NodeJS.ProcessEnv = process.env): Tool {
  const e = fromEnv(FFMPEG_ENV, env);
  if (e) return { path: e, source: "env" };
  const s = fromFfmpegStatic();
  if (s) return { path: s, source: "ffmpeg-static" };
  const p = fromPath("ffmpeg", env);
  if (p) return { path: p, source: "system" };
  throw new GeoreplayError(`no ffmpeg found ($${FFMPEG_ENV}, ffmpeg-static, PATH); ${INSTALL}`);
}

/** ffprobe: $GEOREPLAY_FFPROBE, else beside the ffmpeg in use, else on PATH. */
export function resolveFfprobe(env: NodeJS.ProcessEnv = process.env): Tool {
  const e = fromEnv(FFPROBE_ENV, env);
  if (e) return { path: e, source: "env" };
  try {
    const ff = resolveFfmpeg(env);
    const beside = join(dirname(ff.path), "ffprobe");
    if (isFile(beside)) return { path: beside, source: ff.source };
  } catch {
    /* fall through to PATH */
  }
  const p = fromPath("ffprobe", env);
  if (p) return { path: p, source: "system" };
  throw new GeoreplayError(`no ffprobe found ($${FFPROBE_ENV}, beside ffmpeg, PATH); ${INSTALL}`);
}

export interface VideoProbe {
  codec: string;
  pixFmt: string;
  width: number;
  height: number;
  frames: number;
  durationS: number;
  fps: number;
  colorSpace: string | null;
  /** True when the moov atom comes before mdat (plays while downloading). */
  faststart: boolean;
}

/** Facts about the first video stream of a file, from ffprobe (frames counted, not estimated). */
export function probeVideo(file: string): VideoProbe {
  const out = execFileSync(
    resolveFfprobe().path,
    [
      "-v",
      "error",
      "-count_frames",
      "-select_streams",
      "v:0",
      "-show_entries",
      "stream=codec_name,pix_fmt,width,height,nb_read_frames,r_frame_rate,color_space:format=duration",
      "-of",
      "json",
      file,
    ],
    { encoding: "utf8", maxBuffer: 16 * 1024 * 1024 },
  );
  const j = JSON.parse(out) as { streams: Record<string, string | number>[]; format: { duration: string } };
  const s = j.streams[0];
  const [num, den] = String(s.r_frame_rate).split("/").map(Number);
  return {
    codec: String(s.codec_name),
    pixFmt: String(s.pix_fmt),
    width: Number(s.width),
    height: Number(s.height),
    frames: Number(s.nb_read_frames),
    durationS: Number(j.format.duration),
    fps: den ? num / den : num,
    colorSpace: s.color_space !== undefined ? String(s.color_space) : null,
    faststart: moovBeforeMdat(file),
  };
}

/** Walks the top-level MP4 boxes (no ffmpeg needed). */
export function moovBeforeMdat(file: string): boolean {
  const fd = openSync(file, "r");
  try {
    const size = fstatSync(fd).size;
    const head = Buffer.alloc(16);
    let pos = 0;
    while (pos + 8 <= size) {
      readSync(fd, head, 0, 16, pos);
      let len = head.readUInt32BE(0);
      const type = head.toString("latin1", 4, 8);
      if (type === "moov") return true;
      if (type === "mdat") return false;
      if (len === 1) len = Number(head.readBigUInt64BE(8));
      else if (len === 0) break;
      pos += len;
    }
    return false;
  } finally {
    closeSync(fd);
  }
}

export interface StreamInfo {
  codec: string;
  pixFmt: string;
}

/** Codec and pixel format of the first video stream from the container header (no decoding: cheap). */
export function probeStream(file: string): StreamInfo {
  const out = execFileSync(
    resolveFfprobe().path,
    ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=codec_name,pix_fmt", "-of", "json", file],
    {
      encoding: "utf8",
      maxBuffer: 1024 * 1024,
    },
  );
  const s = (JSON.parse(out) as { streams: Record<string, string>[] }).streams[0] ?? {};
  return { codec: String(s.codec_name), pixFmt: String(s.pix_fmt) };
}
