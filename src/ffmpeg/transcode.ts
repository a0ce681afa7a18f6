/**
 * The formats people post, made from the rendered MP4 with ffmpeg:
 * - webm: VP9, yuv420p (constant quality, row-multithreaded), for browsers that prefer it;
 * - gif: one palette for the whole clip (palettegen) applied with Sierra dithering (paletteuse), looping;
 * - webp: animated, lossy, looping.
 * GIF and WebP must fit a byte budget (`--max-mb`): when the first encode is too big, the frame
 * rate and size are lowered (estimated from the measured size, then measured again) until it fits,
 * and the notes say what was lowered, or that even the smallest did not fit.
 */
import { statSync } from "node:fs";
import sharp from "sharp";
import type { VideoFormat } from "../../replay/batch/manifest-schema.ts";
import { ffmpegWith } from "./find.ts";
import { runFfmpeg } from "./process.ts";

/** GIF delays are whole centiseconds: only these rates play at their true speed (WebP uses the same). */
export const ANIMATION_RATES = [25, 20, 10, 5, 4, 2, 1] as const;
/** Default frame rate of GIF/WebP (rendered at this rate unless --fps says otherwise). */
export const ANIMATION_FPS = 10;
/** Default size of GIF/WebP renders. */
export const ANIMATION_SIZE = { width: 480, height: 270 };
const SCALES = [1, 0.75, 0.5, 0.375, 0.25];

export interface Encoded {
  width: number;
  height: number;
  fps: number;
  frames: number;
  durationS: number;
  bytes: number;
  notes: string[];
}

/** The animation rate for a source rate: the largest whole-centisecond rate not above it (and not above `cap`). */
export function animationRate(sourceFps: number, cap = Number.POSITIVE_INFINITY): number {
  return ANIMATION_RATES.find((r) => r <= sourceFps && r <= cap) ?? 1;
}

const even = (x: number) => Math.max(2, 2 * Math.round(x / 2));

interface Rung {
  scale: number;
  fps: number;
  /** Estimated size relative to the first rung. */
  est: number;
}

function ladder(width: number, height: number, fps: number): Rung[] {
  const rates = ANIMATION_RATES.filter((r) => r <= fps && r * 4 >= fps);
  const rungs: Rung[] = [];
  for (const scale of SCALES) {
    if (even(width * scale) < 64 || even(height * scale) < 36) continue;
    for (const r of rates) rungs.push({ scale, fps: r, est: scale * scale * (r / fps) });
  }
  // Largest first; at equal size, keep the frame rate and lower the resolution first.
  return rungs.sort((a, b) => b.est - a.est || b.fps - a.fps);
}

async function animationFacts(file: string): Promise<{ frames: number; durationS: number }> {
  const m = await sharp(file, { animated: true }).metadata();
  const pages = m.pages ?? 1;
  const delay = m.delay ?? [];
  const ms = delay.length ? delay.reduce((s, d) => s + d, 0) : 0;
  return { frames: pages, durationS: ms / 1000 };
}

function animationArgs(format: "gif" | "webp", input: string, out: string, w: number, h: number, fps: number): string[] {
  const scale = `fps=${fps},scale=${w}:${h}:flags=lanczos`;
  if (format === "gif") {
    return ["-i", input, "-vf", `${scale},split[a][b];[a]palettegen=stats_mode=full[p];[b][p]paletteuse=dither=sierra2_4a`, "-loop", "0", "-f", "gif", out];
  }
  return [
    "-i",
    input,
    "-vf",
    scale,
    "-c:v",
    "libwebp_anim",
    "-lossless",
    "0",
    "-quality",
    "75",
    "-compression_level",
    "4",
    "-loop",
    "0",
    "-an",
    "-f",
    "webp",
    out,
  ];
}

/**
 * Writes `input` (an MP4 of `width`x`height` at `fps`) to `out` in `format`. GIF/WebP within
 * `maxBytes` (null: no budget). `out` is a temp path; the caller renames it.
 */
export async function transcode(
  input: string,
  out: string,
  format: Exclude<VideoFormat, "mp4">,
  src: { width: number; height: number; fps: number; frames: number },
  opts: { maxBytes: number | null; signal?: AbortSignal },
): Promise<Encoded> {
  if (format === "webm") {
    const ff = ffmpegWith("libvpx-vp9");
    await runFfmpeg(
      ff,
      [
        "-i",
        input,
        "-c:v",
        "libvpx-vp9",
        "-pix_fmt",
        "yuv420p",
        "-crf",
        "32",
        "-b:v",
        "0",
        "-row-mt",
        "1",
        // libvpx splits its work by thread count (its default, one a core, would make the bytes
        // depend on the machine: one core and two gave different files); 2 was the fastest here.
        "-threads",
        "2",
        "-deadline",
        "good",
        "-cpu-used",
        "4",
        "-an",
        // No random segment UID or date in the container: the same MP4 gives the same file.
        "-fflags",
        "+bitexact",
        "-f",
        "webm",
        out,
      ],
      opts.signal,
    );
    return { width: src.width, height: src.height, fps: src.fps, frames: src.frames, durationS: src.frames / src.fps, bytes: statSync(out).size, notes: [] };
  }
  const ff = ffmpegWith(format === "gif" ? "gif" : "libwebp_anim");
  const fps = animationRate(src.fps);
  const notes: string[] = [];
  if (fps !== src.fps) notes.push(`${format} at ${fps} fps (the render's ${src.fps} fps is not a whole number of centiseconds per frame)`);
  const rungs = ladder(src.width, src.height, fps);
  let i = 0;
  let first: number | null = null;
  for (;;) {
    const r = rungs[i];
    const w = even(src.width * r.scale);
    const h = even(src.height * r.scale);
    await runFfmpeg(ff, animationArgs(format, input, out, w, h, r.fps), opts.signal);
    const bytes = statSync(out).size;
    first ??= bytes / r.est;
    const fits = opts.maxBytes === null || bytes <= opts.maxBytes;
    if (fits || i === rungs.length - 1) {
      const mb = (n: number) => `${(n / 1e6).toFixed(2)} MB`;
      if (i > 0 && opts.maxBytes !== null) {
        notes.push(
          fits
            ? `lowered to ${w}x${h} at ${r.fps} fps to fit --max-mb ${mb(opts.maxBytes)} (${mb(bytes)}; ${src.width}x${src.height} at ${fps} fps would be about ${mb(first)})`
            : `does not fit --max-mb ${mb(opts.maxBytes)} even at ${w}x${h} and ${r.fps} fps (${mb(bytes)}); written anyway`,
        );
      }
      const facts = await animationFacts(out);
      return { width: w, height: h, fps: r.fps, frames: facts.frames, durationS: facts.durationS, bytes, notes };
    }
    // Estimate from what this size measured, with 10% headroom; always move down at least one rung.
    const target = (opts.maxBytes! / bytes) * r.est * 0.9;
    let next = rungs.findIndex((x, k) => k > i && x.est <= target);
    if (next < 0) next = rungs.length - 1;
    i = next;
  }
}

/** Frame `n` (0-based) of `input` as a PNG at `out` (a temp path). */
export async function posterFrame(input: string, out: string, n: number, signal?: AbortSignal): Promise<void> {
  await runFfmpeg(ffmpegWith("png"), ["-i", input, "-vf", `select=eq(n\\,${n})`, "-frames:v", "1", "-c:v", "png", "-f", "image2", out], signal);
}
