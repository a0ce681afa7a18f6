/**
 * GeoGuesser's video engines behind the batch runner's seam (src/batch/backend.ts): prepare finds
 * and verifies the episodes and writes their frame files (CPU on the pool's workers), encode paints
 * and encodes them (the painter's worker and ffmpeg).
 */
import { availableParallelism } from "node:os";
import type { InputFormat } from "../../../../replay/formats/inputs.ts";
import { GeoreplayError } from "../../../../replay/io/errors.ts";
import { throwIfAborted } from "../../../../replay/io/abort.ts";
import type { ManifestSide } from "../../../../replay/batch/manifest-schema.ts";
import type { Size } from "../../../../src/film/size.ts";
import type { PreparedJob as CorePreparedJob, VideoBackend as CoreVideoBackend } from "../../../../src/batch/backend.ts";
import type { Engine } from "../../../../src/film/engine.ts";
import type { X264Preset } from "../../../../src/ffmpeg/x264.ts";
import type { PreparedEpisode } from "../film/render-episode.ts";
import type { PreparedCompare } from "../film/render-compare.ts";

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

export type { RenderedVideo } from "../../../../src/batch/backend.ts";
export type PreparedJob = CorePreparedJob<VideoJob>;
export type VideoBackend = CoreVideoBackend<VideoJob>;

export interface EngineBackendOptions {
  engine?: Engine;
  preset?: X264Preset;
  /** Worker threads for the frame files. */
  jobs?: number;
  /** --engine remotion: Chromium tabs (1 was fastest on 2 cores). */
  concurrency?: number;
  onWarning?: (message: string) => void;
}

type Prepared = PreparedJob & { video: { kind: "rollout"; p: PreparedEpisode } | { kind: "compare"; p: PreparedCompare } };

/** The render engines behind the seam: prepare writes a job's verified frame files, encode paints and encodes them. */
export function engineBackend(opts: EngineBackendOptions = {}): VideoBackend {
  const concurrency = opts.concurrency ?? 1;
  if (concurrency > availableParallelism()) throw new GeoreplayError(`--concurrency ${concurrency}: this machine has ${availableParallelism()} cores`);
  const engine = opts.engine ?? "native";
  let checked: Promise<void> | null = null;
  // Frame folders prepared but not yet encoded: removed on close (an interrupted or failed batch).
  const open = new Set<() => void>();
  return {
    name: engine,
    async prepare(job, signal) {
      throwIfAborted(signal);
      // The engine's tools once, before the first video's work (a missing ffmpeg fails every video alike).
      checked ??= import("../../../../src/film/engine.ts").then((m) => m.checkEngine(engine));
      await checked;
      const common = {
        episodes: job.episodes,
        episode: job.episode,
        tasks: job.tasks,
        panos: job.panos,
        format: job.format,
        size: job.size,
        fps: job.fps,
        unverified: job.unverified,
        jobs: opts.jobs,
        signal,
        onWarning: opts.onWarning,
        // Native: in-between views are reprojected by the painter, not written as files.
        engine,
      };
      let prepared: Prepared;
      if (job.kind === "rollout") {
        const p = await (await import("../film/render-episode.ts")).prepareEpisode(common);
        prepared = { job, video: { kind: "rollout", p } };
      } else {
        if (job.versus === undefined) throw new GeoreplayError("a two-up job needs its second episode (versus)");
        const p = await (await import("../film/render-compare.ts")).prepareCompare({ ...common, versus: job.versus });
        prepared = { job, video: { kind: "compare", p } };
      }
      open.add(prepared.video.p.dispose);
      return prepared;
    },
    async encode(pj, out, signal, onFrames) {
      const { video } = pj as Prepared;
      const { encodeWith } = await import("../../../../src/film/engine.ts");
      try {
        const r = await encodeWith(video.p.spec, {
          engine,
          publicDir: video.p.publicDir,
          deferred: video.p.deferred,
          out,
          preset: opts.preset,
          concurrency,
          signal,
          onProgress: onFrames,
        });
        const { width, height } = video.p.spec.props.output ?? { width: 1280, height: 720 };
        if (video.kind === "rollout") {
          const t = video.p.timeline;
          const e = t.episode;
          const slideshow = e.source === "slideshow";
          return {
            out,
            frames: r.frames,
            fps: t.fps,
            width,
            height,
            episodeIds: [e.episodeId],
            verified: [!slideshow && e.verified],
            sides: [
              {
                episode_id: e.episodeId,
                arm: e.modelName,
                pass: null, // the timeline does not carry it; the runner fills it from the record
                source: slideshow ? "slideshow" : "replay",
                verified: !slideshow && e.verified,
                views: slideshow ? null : { ...video.p.stats.views },
              },
            ],
          };
        }
        const sides = video.p.sides.map((s): ManifestSide => {
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
          out,
          frames: r.frames,
          fps: video.p.spec.props.a.timeline.fps,
          width,
          height,
          episodeIds: sides.map((s) => s.episode_id),
          verified: sides.map((s) => s.verified),
          sides,
        };
      } finally {
        video.p.dispose();
        open.delete(video.p.dispose);
      }
    },
    async close() {
      for (const dispose of open) dispose();
      open.clear();
    },
  };
}
