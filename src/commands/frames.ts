/** `georeplay frames`: verified camera-path frames and `timeline.json` for one episode. */
import { Command, Option } from "commander";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { generateFrames } from "../../replay/frames.ts";
import { progressBar } from "../io/progress.ts";
import { onInterrupt } from "../io/interrupt.ts";
import { positiveInt } from "./options.ts";

export function registerFrames(program: Command): void {
  program
    .command("frames")
    .summary("verify one episode and render its camera path as frames + timeline.json (for the video)")
    .description(
      "Checks every view of the episode against its recorded sha256 (exit 1 naming the turn if one\n" +
        "drifted), then renders one reprojection per video frame along the camera path: shortest-path\n" +
        "heading, zooms uniform in log(tan(fov/2)), eased moves, crossfades for walks. The frame at each\n" +
        "view is the exact JPEG the model saw. Writes <out>/frames/NNNNNN.jpg, a manifest of hashes\n" +
        "(a rerun reuses correct frames) and, last and atomically, <out>/timeline.json.\n\n" +
        "Exit codes: 0 written; 1 a view drifted from its recorded hash; 2 bad input.",
    )
    .argument("<episodes...>", "episodes.jsonl file(s) written by the eval harness")
    .requiredOption("--episode <id|#n>", "episode_id, or #n for the n-th replayable episode of the input")
    .requiredOption("--tasks <file|dir>", "task index: one .jsonl for all splits, or a dir of <split>.jsonl / <split>_pano_v3.jsonl")
    .requiredOption("--panos <dir>", "panorama folder holding <image_id>.jpg and optional <image_id>.orig.jpg")
    .option("--out <dir>", "output folder (default: <public-dir>/rollouts/<episode_id>)")
    .option("--fps <n>", "video frames per second", positiveInt, 30)
    .option("--view <px>", "size of the frame files (square)", positiveInt, 640)
    .option("--view-size <px>", "size of the views the model saw (the trace's)", positiveInt, 640)
    .option("--unverified", "render even if a view drifted; the timeline marks the episode unverified")
    .option("--jobs <n>", "worker threads", positiveInt, availableParallelism())
    .option("--public-dir <dir>", "Remotion public dir that framesDir is relative to", "public")
    .addOption(new Option("--no-progress", "never show a progress bar"))
    .addHelpText(
      "after",
      "\nExamples:\n" +
        "  georeplay frames run/episodes.jsonl --episode 90a9d3eba5ce --tasks tasks/ --panos panos/\n" +
        "  georeplay frames run/episodes.jsonl --episode '#3' --tasks tasks.jsonl --panos panos/ --out /tmp/ep3",
    )
    .action(async (episodes: string[], o) => {
      const bar = progressBar("frames", 1000, { enabled: o.progress !== false && Boolean(process.stderr.isTTY) });
      const off = onInterrupt(() => bar.stop());
      try {
        const r = await generateFrames({
          episodes,
          episode: o.episode,
          tasks: o.tasks,
          panos: o.panos,
          out: o.out,
          fps: o.fps,
          view: o.view,
          viewSize: o.viewSize,
          unverified: Boolean(o.unverified),
          jobs: o.jobs,
          publicDir: o.publicDir,
          onProgress: (done, total) => bar.update(total ? Math.round((done / total) * 1000) : 1000, `${done}/${total} frame files`),
        });
        bar.stop();
        const t = r.timeline;
        const s = r.stats;
        const v = s.views;
        process.stdout.write(
          `episode ${t.episode.episodeId} · ${v.match}/${v.checked} views verified byte-for-byte` +
            (v.resolved ? ` (${v.resolved} on an exact sampling boundary)` : "") +
            (t.episode.verified ? "" : ` · UNVERIFIED: ${v.mismatch} view(s) drifted`) +
            `\n${s.files} frame files (${s.rendered} rendered, ${s.reused} reused, ${s.keyframes} keyframes) in ${join(r.outDir, "frames")}` +
            `\n${t.segments.length} segments · ${t.totalFrames} video frames (${(t.totalFrames / t.fps).toFixed(1)} s at ${t.fps} fps)` +
            `\ntimeline: ${r.timelinePath}\n`,
        );
      } finally {
        bar.stop();
        off();
      }
    });
}
