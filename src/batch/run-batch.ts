/**
 * The batch runner, for any environment: one process renders a planned selection into a folder.
 * While one video encodes, the next is prepared (VideoBackend.prepare); a video that fails (drift,
 * a missing input) is reported and the others go on; every file appears complete or not at all,
 * and manifest.json is rewritten (atomically) after each video, so a rerun skips what is done.
 * One batch per folder: a second one is refused while the first holds the lock. The environment
 * plans the videos, says what each is made from (its inputs digest) and how to ask its backend
 * for it (its job); everything else is here.
 */
import { createHash } from "node:crypto";
import { createReadStream, existsSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import type { BatchManifest, ManifestFailure, ManifestOptions, ManifestSide, ManifestVideo, VideoFormat } from "../../replay/batch/manifest-schema.ts";
import { GeoreplayError, errorMessage } from "../../replay/io/errors.ts";
import { onAbort, throwIfAborted } from "../../replay/io/abort.ts";
import { isTempName, tempPathFor } from "../../replay/io/atomic.ts";
import type { Size } from "../film/size.ts";
import type { PreparedJob, VideoBackend } from "./backend.ts";
import { lockBatchFolder } from "./folder-lock.ts";
import { readBatchManifest, recordFailure, recordVideo, writeBatchManifest } from "./manifest.ts";
import { posterFrame, transcode } from "../ffmpeg/transcode.ts";

/** One side of a planned video, as the manifest names it. */
export interface BatchSide {
  episodeId: string;
  /** The arm (model_name). */
  arm: string;
  /** The pass (task.sample), if recorded. */
  sample: number | null;
  split: string;
}

/** A planned video, as the runner sees it: its name, its sides, its length; the environment's plan may carry more. */
export interface BatchVideo {
  kind: "rollout" | "compare";
  /** File name without extension, unique within the batch and safe as a path segment. */
  stem: string;
  sides: BatchSide[];
  /** Two-up from a board: the task and its delta. */
  task: { index: number; delta: number } | null;
  /** Frames at the batch's fps (null when it could not be planned: see `problem`). */
  frames: number | null;
  /** Why this video cannot be rendered (reported as an input failure; the others go on). */
  problem: string | null;
}

export interface BatchRunOptions<V extends BatchVideo, J> {
  /** The videos to make, in order (this shard's). */
  videos: V[];
  /** What a video is made from, and one digest over it (a change re-renders). */
  inputsOf: (v: V) => Promise<ManifestVideo["inputs"]>;
  /** What the backend is asked for, to make `v`. */
  jobOf: (v: V) => J;
  dir: string;
  format: VideoFormat;
  size: Size;
  fps: number;
  unverified: boolean;
  /** GIF/WebP byte budget in MB; null for none. */
  maxMb: number | null;
  /** null: no poster; "beside": `<name>.png` beside each video; else this file (one video). */
  poster: null | "beside" | string;
  /** 0-based frame of the rendered video for the poster; null: the last (the score card). */
  posterFrame: number | null;
  backend: VideoBackend<J>;
  generator: string;
  signal: AbortSignal;
  onVideo?: (o: VideoOutcome<V>) => void;
  onProgress?: (p: BatchProgress) => void;
}

export type VideoOutcome<V extends BatchVideo = BatchVideo> =
  { status: "written" | "skipped"; file: string; entry: ManifestVideo } | { status: "failed"; file: string; failure: ManifestFailure; video: V };

export interface BatchProgress {
  videosDone: number;
  videosTotal: number;
  /** Frames of the videos to render (skipped ones not counted). */
  framesDone: number;
  framesTotal: number;
}

export interface BatchResult {
  written: ManifestVideo[];
  skipped: ManifestVideo[];
  failed: ManifestFailure[];
  wallS: number;
}

export const extOf = (f: VideoFormat): string => f;

export function sha256File(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const h = createHash("sha256");
    createReadStream(path)
      .on("data", (d) => h.update(d))
      .on("error", reject)
      .on("end", () => resolve(h.digest("hex")));
  });
}

function failureOf(file: string, e: unknown): ManifestFailure {
  const at = new Date().toISOString();
  if (e instanceof GeoreplayError) return { file, kind: e.kind, message: e.message, at };
  return { file, kind: "render", message: errorMessage(e), at };
}

/** Work folders and temp files a killed run (SIGKILL, power loss) left in the folder. */
function sweepLeftovers(dir: string): void {
  for (const name of readdirSync(dir)) {
    if (name.startsWith(".georeplay-batch-") || isTempName(name)) rmSync(join(dir, name), { recursive: true, force: true });
  }
}

const sameOptions = (a: ManifestOptions, b: ManifestOptions) => JSON.stringify(a) === JSON.stringify(b);

/** Complete: same inputs and options, and the file (and poster) still hold the recorded bytes. */
async function isComplete(dir: string, e: ManifestVideo | undefined, digest: string, options: ManifestOptions, posterPath: string | null): Promise<boolean> {
  if (!e || e.inputs.digest !== digest || !sameOptions(e.options, options)) return false;
  const file = join(dir, e.file);
  if (!existsSync(file) || (await sha256File(file)) !== e.sha256) return false;
  if (posterPath === null) return true;
  return e.poster !== null && existsSync(posterPath) && (await sha256File(posterPath)) === e.poster.sha256;
}

/** Renders the planned videos into `o.dir`, holding the folder's lock (one batch per folder) throughout. */
export async function runBatch<V extends BatchVideo, J>(o: BatchRunOptions<V, J>): Promise<BatchResult> {
  const release = lockBatchFolder(o.dir);
  try {
    return await runLocked(o);
  } finally {
    release();
  }
}

async function runLocked<V extends BatchVideo, J>(o: BatchRunOptions<V, J>): Promise<BatchResult> {
  const t0 = performance.now();
  sweepLeftovers(o.dir);
  const manifest: BatchManifest = readBatchManifest(o.dir);
  const options: ManifestOptions = {
    format: o.format,
    width: o.size.width,
    height: o.size.height,
    fps: o.fps,
    unverified: o.unverified,
    max_mb: o.format === "gif" || o.format === "webp" ? o.maxMb : null,
    poster_frame: o.poster === null ? null : o.posterFrame,
    backend: o.backend.name,
    generator: o.generator,
  };
  const result: BatchResult = { written: [], skipped: [], failed: [], wallS: 0 };
  const posterPathOf = (stem: string) => (o.poster === null ? null : o.poster === "beside" ? join(o.dir, `${stem}.png`) : o.poster);

  const fail = (v: V, file: string, e: unknown) => {
    const f = failureOf(file, e);
    result.failed.push(f);
    recordFailure(manifest, f);
    writeBatchManifest(o.dir, manifest);
    o.onVideo?.({ status: "failed", file, failure: f, video: v });
  };

  // 1. What is already done, what cannot be made, what to render.
  const todo: { v: V; file: string; inputs: ManifestVideo["inputs"] }[] = [];
  for (const v of o.videos) {
    throwIfAborted(o.signal);
    const file = `${v.stem}.${extOf(o.format)}`;
    if (v.problem) {
      fail(v, file, new GeoreplayError(v.problem));
      continue;
    }
    const inputs = await o.inputsOf(v);
    const prev = manifest.videos.find((e) => e.file === file);
    if (await isComplete(o.dir, prev, inputs.digest, options, posterPathOf(v.stem))) {
      result.skipped.push(prev!);
      o.onVideo?.({ status: "skipped", file, entry: prev! });
      continue;
    }
    todo.push({ v, file, inputs });
  }

  // 2. Render: prepare(next) runs while encode(current) does.
  const framesTotal = todo.reduce((n, t) => n + (t.v.frames ?? 0), 0);
  let framesDone = 0;
  const progress = (current: number) =>
    o.onProgress?.({
      videosDone: result.written.length + result.failed.length,
      videosTotal: o.videos.length - result.skipped.length,
      framesDone: framesDone + current,
      framesTotal,
    });
  progress(0);
  const preparing: (Promise<PreparedJob<J>> | undefined)[] = [];
  const start = (k: number): void => {
    if (k >= todo.length || preparing[k]) return;
    const p = o.backend.prepare(o.jobOf(todo[k].v), o.signal);
    preparing[k] = p;
    // Awaited in its turn. A prepare that fails frees its place at once, so the next video
    // prepares while the current one still encodes instead of waiting for it.
    p.catch(() => {
      if (!o.signal.aborted) start(k + 1);
    });
  };
  start(0);
  for (let k = 0; k < todo.length; k++) {
    const { v, file, inputs } = todo[k];
    let prepared: PreparedJob<J>;
    try {
      prepared = await preparing[k]!;
    } catch (e) {
      throwIfAborted(o.signal);
      start(k + 1);
      fail(v, file, e);
      continue;
    }
    start(k + 1);
    try {
      const entry = await produce(o, v, file, inputs, options, prepared, posterPathOf(v.stem), (done) => progress(Math.min(done, v.frames ?? done)));
      recordVideo(manifest, entry);
      writeBatchManifest(o.dir, manifest);
      result.written.push(entry);
      o.onVideo?.({ status: "written", file, entry });
    } catch (e) {
      throwIfAborted(o.signal);
      fail(v, file, e);
    }
    framesDone += v.frames ?? 0;
    progress(0);
  }
  result.wallS = (performance.now() - t0) / 1000;
  return result;
}

/** One video: encode to a private work folder, transcode and poster from the MP4, rename into place. */
async function produce<V extends BatchVideo, J>(
  o: BatchRunOptions<V, J>,
  v: V,
  file: string,
  inputs: ManifestVideo["inputs"],
  options: ManifestOptions,
  prepared: PreparedJob<J>,
  posterPath: string | null,
  onFrames: (done: number) => void,
): Promise<ManifestVideo> {
  const t0 = performance.now();
  const work = mkdtempSync(join(o.dir, ".georeplay-batch-"));
  const temps: string[] = [];
  const cleanup = () => {
    for (const t of temps) rmSync(t, { force: true });
    rmSync(work, { recursive: true, force: true });
  };
  const off = onAbort(o.signal, cleanup);
  try {
    const mp4 = join(work, "video.mp4");
    const r = await o.backend.encode(prepared, mp4, o.signal, (done) => onFrames(done));
    throwIfAborted(o.signal);
    const target = join(o.dir, file);
    const notes: string[] = [];
    let facts = { width: r.width, height: r.height, fps: r.fps, frames: r.frames, durationS: r.frames / r.fps };
    let produced = mp4;
    if (o.format !== "mp4") {
      const tmp = tempPathFor(target);
      temps.push(tmp);
      const enc = await transcode(mp4, tmp, o.format, r, { maxBytes: options.max_mb === null ? null : Math.floor(options.max_mb * 1e6), signal: o.signal });
      notes.push(...enc.notes);
      facts = { width: enc.width, height: enc.height, fps: enc.fps, frames: enc.frames, durationS: enc.durationS };
      produced = tmp;
    }
    let poster: ManifestVideo["poster"] = null;
    if (posterPath !== null) {
      let n = o.posterFrame ?? r.frames - 1;
      if (n > r.frames - 1) {
        notes.push(`poster: frame ${n} is past the end (${r.frames} frames); used the last`);
        n = r.frames - 1;
      }
      const tmpPoster = tempPathFor(posterPath);
      temps.push(tmpPoster);
      await posterFrame(mp4, tmpPoster, n, o.signal);
      throwIfAborted(o.signal);
      const sha = await sha256File(tmpPoster);
      renameSync(tmpPoster, posterPath);
      poster = { file: posterPath, frame: n, sha256: sha };
    }
    const sha256 = await sha256File(produced);
    const bytes = statSync(produced).size;
    throwIfAborted(o.signal);
    renameSync(produced, target);
    const sides: ManifestSide[] = v.sides.map((s, i) => {
      const got = r.sides?.[i];
      return {
        episode_id: got?.episode_id ?? s.episodeId,
        arm: s.arm,
        pass: s.sample,
        source: got?.source ?? "replay",
        verified: r.verified[i] ?? false,
        views: got?.views ?? null,
      };
    });
    return {
      file,
      kind: v.kind,
      episode_ids: r.episodeIds,
      task: v.task ? { split: v.sides[0].split, index: v.task.index, delta: v.task.delta } : null,
      inputs,
      options,
      sides,
      frames: facts.frames,
      fps: facts.fps,
      width: facts.width,
      height: facts.height,
      duration_s: Math.round(facts.durationS * 1000) / 1000,
      bytes,
      sha256,
      poster,
      notes,
      rendered_at: new Date().toISOString(),
      render_s: Math.round((performance.now() - t0) / 100) / 10,
    };
  } finally {
    off();
    cleanup();
  }
}
