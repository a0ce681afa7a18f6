/**
 * The seam between the batch runner and a video engine. The runner overlaps
 * `prepare(next)` with `encode(current)`; a backend decides what goes where.
 * `chromiumBackend` adapts today's Remotion/Chromium renders: prepare only
 * finds and checks the episodes, encode is the whole render (frame files,
 * screenshots, H.264). The native engine (frames painted in Node, piped into
 * libx264) does the frame files in prepare and only the encode in encode.
 */
import { availableParallelism } from "node:os";
import { findEpisode } from "../../replay/frames/frames.ts";
import type { InputFormat } from "../../replay/formats/inputs.ts";
import { GeoreplayError } from "../../replay/io/errors.ts";
import { throwIfAborted } from "../../replay/io/abort.ts";
import type { ManifestSide } from "../../replay/batch/manifest-schema.ts";
import type { Size } from "../mp4/size.ts";
import type { Renderer } from "../mp4/renderer.ts";

export interface VideoJob {
  kind: "rollout" | "compare";
  /** The recordings (inputs of the command). */
  episodes: string[];
  /** Side A: an episode id or #n of the inputs. */
  episode: string;
  /** Two-up: side B, an episode id or #n of the inputs. */
  versus?: string;
  tasks?: string;
  panos?: string;
  /** Input format override (as `--format eval|train|example|sweep`). */
  format?: InputFormat;
  size: Size;
  fps: number;
  unverified: boolean;
}

export interface RenderedVideo {
  out: string;
  frames: number;
  fps: number;
  width: number;
  height: number;
  episodeIds: string[];
  /** Per side: every view reproduced its recorded hash (false for an --unverified drift and for slideshows). */
  verified: boolean[];
  /** Per side, for the manifest: arm, pass, replay or slideshow, view counts. */
  sides?: ManifestSide[];
}

/** Whatever a backend carries from prepare to encode; the runner only passes it through. */
export interface PreparedJob {
  job: VideoJob;
}

export interface VideoBackend {
  /** A short name recorded in the manifest (a change re-renders). */
  readonly name: string;
  /** CPU work that can run while the previous video encodes (find, verify, frame files). */
  prepare(job: VideoJob, signal: AbortSignal): Promise<PreparedJob>;
  /** Encode a prepared job to an MP4 at `out` (atomic). */
  encode(p: PreparedJob, out: string, signal: AbortSignal, onFrames?: (done: number, total: number) => void): Promise<RenderedVideo>;
  close(): Promise<void>;
}

export interface ChromiumBackendOptions {
  /** Worker threads for the frame files. */
  jobs?: number;
  /** Chromium tabs (1 was fastest on 2 cores). */
  concurrency?: number;
  onWarning?: (message: string) => void;
}

/**
 * Frame files count for 30% of a video's progress and screenshots for 70% (as `render`'s bar),
 * reported as video frames so the batch bar can count frames.
 */
function stageToFrames(onFrames: ((done: number, total: number) => void) | undefined, frames: () => number) {
  return (stage: "frames" | "bundle" | "render", done: number, total: number) => {
    if (!onFrames) return;
    const f = total > 0 ? Math.min(1, done / total) : 1;
    const share = stage === "frames" ? 0.3 * f : stage === "bundle" ? 0.3 : 0.3 + 0.7 * f;
    const n = frames();
    onFrames(Math.round(share * n), n);
  };
}

/** Today's engine behind the seam: one warm Remotion bundle and Chromium for single episodes; two-up renders open their own. */
export function chromiumBackend(opts: ChromiumBackendOptions = {}): VideoBackend {
  const concurrency = opts.concurrency ?? 1;
  if (concurrency > availableParallelism()) throw new GeoreplayError(`--concurrency ${concurrency}: this machine has ${availableParallelism()} cores`);
  let renderer: Renderer | null = null;
  return {
    name: "chromium",
    async prepare(job, signal) {
      throwIfAborted(signal);
      // Resolve and validate only: a missing or unreadable episode fails here, before its turn to encode.
      await findEpisode(job.episodes, job.episode, job.format);
      if (job.kind === "compare") {
        if (job.versus === undefined) throw new GeoreplayError("a two-up job needs its second episode (versus)");
        await findEpisode(job.episodes, job.versus, job.format);
      }
      return { job };
    },
    async encode(p, out, signal, onFrames) {
      const { job } = p;
      let total = 0;
      const common = {
        episodes: job.episodes,
        episode: job.episode,
        tasks: job.tasks,
        panos: job.panos,
        format: job.format,
        out,
        size: job.size,
        fps: job.fps,
        unverified: job.unverified,
        concurrency,
        jobs: opts.jobs,
        signal,
        onWarning: opts.onWarning,
      };
      if (job.kind === "rollout") {
        if (!renderer) renderer = (await import("../mp4/renderer.ts")).openRenderer({ signal });
        const r = await renderer.renderEpisode({
          ...common,
          onProgress: stageToFrames(onFrames, () => total),
        });
        const t = r.timeline;
        total = t.totalFrames;
        const e = t.episode;
        const slideshow = e.source === "slideshow";
        return {
          out: r.out,
          frames: t.totalFrames,
          fps: t.fps,
          width: r.size.width,
          height: r.size.height,
          episodeIds: [e.episodeId],
          verified: [!slideshow && e.verified],
          sides: [
            {
              episode_id: e.episodeId,
              arm: e.modelName,
              pass: null, // the timeline does not carry it; the runner fills it from the record
              source: slideshow ? "slideshow" : "replay",
              verified: !slideshow && e.verified,
              views: slideshow ? null : { ...r.stats.views },
            },
          ],
        };
      }
      const { renderCompareMp4 } = await import("../mp4/render-compare.ts");
      const r = await renderCompareMp4({ ...common, versus: job.versus, onProgress: stageToFrames(onFrames, () => total) });
      total = r.frames;
      const sides = r.sides.map((s): ManifestSide => {
        const e = s.gen.timeline.episode;
        const slideshow = e.source === "slideshow";
        return {
          episode_id: e.episodeId,
          arm: s.arm,
          pass: s.pass,
          source: slideshow ? "slideshow" : "replay",
          verified: !slideshow && e.verified,
          views: slideshow ? null : { ...s.gen.stats.views },
        };
      });
      return {
        out: r.out,
        frames: r.frames,
        fps: r.fps,
        width: r.size.width,
        height: r.size.height,
        episodeIds: sides.map((s) => s.episode_id),
        verified: sides.map((s) => s.verified),
        sides,
      };
    },
    async close() {
      const r = renderer;
      renderer = null;
      await r?.close();
    },
  };
}
