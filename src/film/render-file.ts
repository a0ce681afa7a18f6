/**
 * One video in the format its name asks for (`-o clip.gif`, `.webp`, `.webm`): the MP4 is
 * rendered beside the target, transcoded (GIF and WebP fitted to a byte budget, as a
 * batch's are), and the result renamed into place; nothing is left behind on failure.
 */
import { rmSync, renameSync } from "node:fs";
import { basename, dirname, extname, join, resolve } from "node:path";
import { GeoreplayError } from "../../replay/io/errors.ts";
import { tempPathFor } from "../../replay/io/atomic.ts";
import { VIDEO_FORMATS, type VideoFormat } from "../../replay/batch/manifest-schema.ts";
import type { Encoded } from "../ffmpeg/transcode.ts";
import type { Size } from "./size.ts";

/** The video format a file name asks for (its extension), or null for another extension. */
export function formatOfFile(out: string): VideoFormat | null {
  const ext = extname(out).toLowerCase().slice(1);
  return (VIDEO_FORMATS as readonly string[]).includes(ext) ? (ext as VideoFormat) : null;
}

/** The format of a one-file render: the name's, which --format may repeat but not contradict. */
export function fileFormat(out: string, asked: VideoFormat | undefined): VideoFormat {
  const named = formatOfFile(out);
  if (named === null)
    throw new GeoreplayError(
      `-o ${out}: name the file for its format (${VIDEO_FORMATS.map((f) => `.${f}`).join(", ")})${asked ? `, e.g. ${basename(out, extname(out))}.${asked}` : ""}, or give a folder (-o DIR/) for many videos`,
    );
  if (asked && asked !== named) throw new GeoreplayError(`-o ${out} is a .${named} file but --format says ${asked}: give one format`);
  return named;
}

export interface VideoFacts {
  width: number;
  height: number;
  fps: number;
  frames: number;
}

/** Renders through `renderMp4` into a temp MP4 beside `out`, then writes `out` in `format`. */
export async function renderAsFile<R>(
  out: string,
  format: Exclude<VideoFormat, "mp4">,
  o: { maxMb?: number | null; signal?: AbortSignal },
  renderMp4: (mp4: string) => Promise<R>,
  facts: (r: R) => VideoFacts,
): Promise<{ result: R; encoded: Encoded }> {
  const target = resolve(out);
  const mp4 = tempPathFor(join(dirname(target), `${basename(target, extname(target))}.mp4`));
  const tmp = tempPathFor(target);
  try {
    const result = await renderMp4(mp4);
    const { transcode } = await import("../ffmpeg/transcode.ts");
    const maxBytes = format === "webm" || o.maxMb === null ? null : Math.floor((o.maxMb ?? 8) * 1e6);
    const encoded = await transcode(mp4, tmp, format, facts(result), { maxBytes, signal: o.signal });
    renameSync(tmp, target);
    return { result, encoded };
  } finally {
    rmSync(mp4, { force: true });
    rmSync(tmp, { force: true });
  }
}

/** The size and rate a video of this format gets unless --size or --fps says (gif/webp: smaller and slower). */
export async function defaultsFor(format: VideoFormat): Promise<{ size: Size; fps: number }> {
  if (format !== "gif" && format !== "webp") return { size: { width: 1280, height: 720 }, fps: 30 };
  const { ANIMATION_FPS, ANIMATION_SIZE } = await import("../ffmpeg/transcode.ts");
  return { size: ANIMATION_SIZE, fps: ANIMATION_FPS };
}
