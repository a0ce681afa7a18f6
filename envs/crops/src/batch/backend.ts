/**
 * The crops engine behind the batch runner's seam (src/batch/backend.ts): prepare finds and
 * verifies the episode and writes its frame files (render-crops.ts, as one render does), encode
 * paints and encodes them with the native engine.
 */
import type { X264Preset } from "../../../../src/ffmpeg/x264.ts";
import type { Size } from "../../../../src/film/size.ts";
import type { PreparedJob, VideoBackend } from "../../../../src/batch/backend.ts";
import { throwIfAborted } from "../../../../replay/io/abort.ts";
import type { PreparedCrops } from "../film/render-crops.ts";

export interface CropsJob {
  /** The run, as given to the command. */
  inputs: string[];
  /** episode_id, or #n of the run. */
  episode: string;
  dataset?: string;
  size: Size;
  fps: number;
  unverified: boolean;
}

type Prepared = PreparedJob<CropsJob> & { p: PreparedCrops };

/** prepare writes a job's verified frame files into a private folder, encode films them; close removes what was prepared and not encoded. */
export function cropsBackend(opts: { preset?: X264Preset } = {}): VideoBackend<CropsJob> {
  const open = new Set<() => void>();
  return {
    name: "native",
    async prepare(job, signal) {
      throwIfAborted(signal);
      const { prepareCrops } = await import("../film/render-crops.ts");
      const p = await prepareCrops({ ...job, inputs: job.inputs, signal });
      open.add(p.dispose);
      return { job, p } satisfies Prepared;
    },
    async encode(pj, out, signal, onFrames) {
      const { p } = pj as Prepared;
      const { encodeWith } = await import("../../../../src/film/engine.ts");
      try {
        const r = await encodeWith(p.spec, {
          engine: "native",
          publicDir: p.publicDir,
          deferred: p.deferred,
          out,
          preset: opts.preset,
          signal,
          onProgress: onFrames,
        });
        const e = p.props.timeline.episode;
        const checked = p.frames.checked;
        const drifted = p.frames.drifted.length;
        return {
          out,
          frames: r.frames,
          fps: p.props.timeline.fps,
          width: p.props.output.width,
          height: p.props.output.height,
          episodeIds: [e.episodeId],
          verified: [e.verified],
          sides: [
            {
              episode_id: e.episodeId,
              arm: e.modelName ?? "",
              pass: null, // the runner fills it from the record
              source: "replay",
              verified: e.verified,
              // A crops turn's view and thumbnail are checked together: a turn matches when both do.
              views: { checked, match: checked - drifted, resolved: 0, mismatch: drifted },
            },
          ],
        };
      } finally {
        p.dispose();
        open.delete(p.dispose);
      }
    },
    async close() {
      for (const dispose of open) dispose();
      open.clear();
    },
  };
}
