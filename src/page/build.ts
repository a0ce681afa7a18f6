/**
 * `buildPage`: verified episodes in, one self-contained HTML file out.
 *
 * Episodes stream from verifyRun one at a time (bounded memory): each becomes
 * page JSON appended to a part file, its distinct views are downscaled into
 * the image part file, and only the small per-episode numbers for the summary
 * stay in memory. At the end the parts are joined into a temp file beside
 * the output and renamed into place.
 */
import { createReadStream, createWriteStream, mkdirSync, openSync, rmSync, type WriteStream } from "node:fs";
import { basename, dirname } from "node:path";
import { verifyRun, type VerifyProgress } from "../../replay/verify.ts";
import { openAtomicStream, tempPathFor } from "../io/atomic.ts";
import { onInterrupt } from "../io/interrupt.ts";
import { UserError } from "../io/errors.ts";
import { ioReason } from "../io/jsonl.ts";
import { ImageTable, DEFAULT_IMAGE_SIZE } from "./images.ts";
import { pageEpisode } from "./model.ts";
import { summariseRun, type EpisodeStats } from "./stats.ts";
import { scriptJson } from "./escape.ts";
import { pageParts } from "./view/template.ts";

export interface BuildPageOptions {
  episodes: string[];
  tasks: string;
  panos: string;
  out: string;
  /** Longest side of the embedded views, px (default 320). */
  imageSize?: number;
  jobs?: number;
  title?: string;
  onProgress?: (p: VerifyProgress) => void;
}

export interface BuildPageResult {
  out: string;
  bytes: number;
  episodes: number;
  views: number;
  images: number;
  mismatch: number;
  /** Problems that kept some view from being checked, and skipped records (also listed in the page). */
  problems: string[];
  /** How many of those problems kept something from being checked (exit 2 for the CLI). */
  unchecked: number;
}

class PartFile {
  readonly path: string;
  private stream: WriteStream;
  private failed: Error | null = null;
  bytes = 0;
  constructor(target: string) {
    this.path = tempPathFor(target);
    // Opened synchronously so that remove() can never race a pending open and leave the file behind.
    this.stream = createWriteStream(this.path, { fd: openSync(this.path, "w") });
    this.stream.on("error", (e) => (this.failed = e));
  }
  write(chunk: string): Promise<void> {
    if (this.failed) return Promise.reject(this.failed);
    this.bytes += Buffer.byteLength(chunk);
    return new Promise((resolve, reject) => {
      if (this.stream.write(chunk, (e) => (e ? reject(e) : undefined))) resolve();
      else this.stream.once("drain", () => resolve());
    });
  }
  close(): Promise<void> {
    return new Promise((resolve, reject) => this.stream.end((e?: Error | null) => (e ? reject(e) : resolve())));
  }
  remove(): void {
    this.stream.destroy();
    rmSync(this.path, { force: true });
  }
}

export function checkImageSize(size: number): number {
  if (!Number.isInteger(size) || size < 32 || size > 640) {
    throw new UserError(`--image-size ${size}: expected a whole number of pixels from 32 to 640 (views are rendered at 640)`);
  }
  return size;
}

export async function buildPage(opts: BuildPageOptions): Promise<BuildPageResult> {
  const size = checkImageSize(opts.imageSize ?? DEFAULT_IMAGE_SIZE);
  try {
    mkdirSync(dirname(opts.out), { recursive: true });
  } catch (e) {
    throw new UserError(`-o ${opts.out}: cannot create its folder: ${ioReason(e)}`);
  }
  const epPart = new PartFile(opts.out);
  const imgPart = new PartFile(opts.out);
  const off = onInterrupt(() => {
    epPart.remove();
    imgPart.remove();
  });
  try {
    const images = new ImageTable(imgPart, size);
    const stats: EpisodeStats[] = [];
    let views = 0;
    const report = await verifyRun({
      episodes: opts.episodes,
      tasks: opts.tasks,
      panos: opts.panos,
      jobs: opts.jobs,
      keepImages: true,
      onProgress: opts.onProgress,
      onEpisode: async (v) => {
        const { page, stats: s } = await pageEpisode(v, (digest, jpeg) => images.add(digest, jpeg));
        views += v.views.length;
        stats.push(s);
        await epPart.write((stats.length > 1 ? "," : "[") + scriptJson(page));
      },
    });
    await epPart.write(stats.length ? "]" : "[]");
    await Promise.all([epPart.close(), imgPart.close()]);
    if (stats.length === 0) {
      const why = report.errors.map((e) => e.message).slice(0, 5).join("\n  ");
      throw new UserError(`no episode to show: the input holds no replayable episode${why ? `:\n  ${why}` : ""}`);
    }

    const parts = pageParts(
      {
        title: opts.title ?? `georeplay · ${opts.episodes.map((f) => basename(f)).join(", ")}`,
        episodes: stats.length,
        views,
        images: images.count,
        checked: report.checked,
        match: report.match,
        resolved: report.resolved,
        mismatch: report.mismatch,
        errored: report.errored_episodes.map((e) => ({ id: e.episode_id, message: e.message })),
        problems: [...report.errors, ...report.warnings].map((e) => e.message),
      },
      summariseRun(stats),
    );
    const out = openAtomicStream(opts.out);
    let bytes = 0;
    const put = async (s: string) => {
      bytes += Buffer.byteLength(s);
      await out.write(s);
    };
    const copy = async (path: string) => {
      for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
        bytes += chunk.length;
        await out.write(chunk);
      }
    };
    try {
      await put(parts.head);
      await copy(epPart.path);
      await put(parts.middle);
      await copy(imgPart.path);
      await put(parts.tail);
      await out.commit();
    } catch (e) {
      out.abort();
      throw e;
    }
    const problems = [...report.errored_episodes, ...report.errors].map((e) => e.message);
    return { out: opts.out, bytes, episodes: stats.length, views, images: images.count, mismatch: report.mismatch, problems, unchecked: report.errors.length };
  } finally {
    epPart.remove();
    imgPart.remove();
    off();
  }
}
