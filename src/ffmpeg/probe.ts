/** Facts about a written video, from ffprobe (and, for faststart, from the MP4's boxes). */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { resolveFfprobe } from "./find.ts";

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
  /** null where the container does not say (animated WebP). */
  pixFmt: string | null;
}

/** Codec and pixel format of the first video stream from the container header (no decoding: cheap). */
export function probeStream(file: string): StreamInfo {
  const out = execFileSync(
    resolveFfprobe().path,
    ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=codec_name,pix_fmt", "-of", "json", file],
    // stderr kept from the terminal: ffprobe's webp decoder complains about animated WebP it cannot decode.
    { encoding: "utf8", maxBuffer: 1024 * 1024, stdio: ["ignore", "pipe", "pipe"] },
  );
  const s = (JSON.parse(out) as { streams: Record<string, string | undefined>[] }).streams[0] ?? {};
  return { codec: String(s.codec_name), pixFmt: s.pix_fmt ?? null };
}
