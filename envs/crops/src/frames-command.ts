/**
 * `georeplay frames` on a crops (detection gym) episode (envs/crops/replay/frames.ts). Same exit
 * codes as GeoGuesser's frames: 0 written, 1 a view drifted (unless --unverified), 2 bad input.
 */
import { join } from "node:path";
import { withProgress } from "../../../src/commands/options/shared.ts";
import { interruptSignal } from "../../../src/commands/interrupt.ts";

export interface CropsFramesCliOptions {
  episode: string;
  dataset?: string;
  out?: string;
  fps: number;
  unverified?: boolean;
  publicDir: string;
  json?: boolean;
  progress: boolean;
}

export async function cropsFramesCommand(inputs: string[], o: CropsFramesCliOptions): Promise<void> {
  const { cropsFrames } = await import("../replay/frames.ts");
  const r = await withProgress("frames", o, (bar) =>
    cropsFrames({
      inputs,
      episode: o.episode,
      dataset: o.dataset,
      // Known only once the episode is found: the default folder is named by its id.
      out: o.out ?? "",
      fps: o.fps,
      unverified: Boolean(o.unverified),
      signal: interruptSignal(),
      outFor: (id: string) => join(o.publicDir, "rollouts", id),
      onProgress: (done, total) => bar.update(total ? Math.round((done / total) * 1000) : 1000, `${done}/${total} frame files`),
    }),
  );
  const t = r.timeline;
  if (o.json) {
    process.stdout.write(
      JSON.stringify(
        {
          env: "crops",
          episode_id: t.episode.episodeId,
          verified: t.episode.verified,
          drifted_turns: r.drifted,
          checked_turns: r.checked,
          keyframes: r.keyframes,
          in_between: r.inBetween,
          total_frames: t.totalFrames,
          fps: t.fps,
          out_dir: r.outDir,
          timeline: r.timelinePath,
        },
        null,
        2,
      ) + "\n",
    );
    return;
  }
  process.stdout.write(
    `episode ${t.episode.episodeId} (crops) · ${r.checked - r.drifted.length}/${r.checked} turns' views and thumbnails verified byte-for-byte` +
      (t.episode.verified ? "" : ` · UNVERIFIED: turn(s) ${r.drifted.join(", ")} drifted`) +
      `\n${r.keyframes + r.inBetween} frame files (${r.keyframes} recorded views re-rendered exactly, ${r.inBetween} in-between) in ${join(r.outDir, "frames")}` +
      `\n${t.turns.length} turns · ${t.totalFrames} video frames (${(t.totalFrames / t.fps).toFixed(1)} s at ${t.fps} fps)` +
      `\ntimeline: ${r.timelinePath}\n`,
  );
}
