/** `georeplay frames`: verified camera-path frames (or a slideshow of recorded images) and `timeline.json` for one episode. */
import { Command } from "commander";
import { inputOptions, positiveInt, replayAction, runOptions, sizeOption } from "./options/shared.ts";
import { declareOptions, type OptionDefs } from "./options/declare.ts";
import { outFolder } from "./options/out.ts";
import type { FramesCliOptions } from "./options/command-options.ts";
import { environmentOf } from "../../envs/index.ts";

export type { FramesCliOptions } from "./options/command-options.ts";

export const FRAMES_OPTIONS: OptionDefs<FramesCliOptions> = {
  episode: { flags: "--episode <id|#n>", description: "episode_id, or #n for the n-th replayable episode of the input", required: true },
  ...inputOptions(),
  dataset: { flags: "--dataset <dir>", description: "crops runs: the dataset folder (tasks.jsonl, gt.jsonl, images/); default: the run folder's parent" },
  out: {
    flags: "--out <dir>",
    description:
      "output folder (default: <public-dir>/rollouts/<episode_id>); checked before any work: missing folders on the way to it are created (said on stderr), a place that cannot be written is exit 2",
  },
  fps: { flags: "--fps <n>", description: "video frames per second", parse: positiveInt, default: 30 },
  view: { flags: "--view <px>", description: "size of the frame files (square)", parse: positiveInt, default: 640 },
  viewSize: { flags: "--view-size <px>", description: "size of the views the model saw (the trace's)", parse: positiveInt, default: 640 },
  unverified: { flags: "--unverified", description: "render even if a view drifted; the timeline marks the episode unverified" },
  publicDir: { flags: "--public-dir <dir>", description: "Remotion public dir that framesDir is relative to", default: "public" },
  size: sizeOption("video size props.json lays the text out for"),
  ...runOptions(),
};

export function registerFrames(program: Command): void {
  const cmd = program
    .command("frames")
    .summary("verify one episode and render its camera path as frames + timeline.json (for the video)")
    .description(
      "Checks every view of the episode against its recorded sha256 (exit 1 naming the turn if one\n" +
        "drifted), then renders one reprojection per video frame along the camera path: shortest-path\n" +
        "heading, zooms uniform in log(tan(fov/2)), eased moves, crossfades for walks. The frame at each\n" +
        "view is the exact JPEG the model saw. Writes <out>/frames/NNNNNN.jpg, a manifest of hashes\n" +
        "(a rerun reuses correct frames) and, last and atomically, <out>/timeline.json, then\n" +
        "<out>/props.json: the timeline with its text laid out at --size (the lines the video shows),\n" +
        "what Remotion Studio previews and `npx remotion render Rollout --props=<out>/props.json` takes.\n\n" +
        "Training rollouts (rollouts*.jsonl, ids like rollouts-L4) are verified with their own digest\n" +
        "(16 hex digits of sha256 over the base64 text) and replayed the same way. Example-rollout\n" +
        "folders record images but no camera trajectory or hashes: their episodes become a slideshow of\n" +
        "the recorded images with crossfades, marked in the timeline as recorded images (source\n" +
        '"slideshow", unverified), never as a re-rendered replay; --tasks and --panos are not needed.\n\n' +
        'A crops (detection gym) episode (records with env "crops") is verified against its dataset\n' +
        "folder (--dataset; every view and thumbnail by sha256), then filmed as a camera rectangle over\n" +
        "the image: eased moves between consecutive recorded views (centre smootherstep, size in log\n" +
        "scale), a hold on each. <out>/frames/turn-NN.jpg are the exact recorded views; in-between\n" +
        "frames are rendered with the gym's bicubic resize and box outlines; <out>/timeline.json gives\n" +
        "every frame's rectangle and file, each turn's action, status and box events, and the outcome.\n\n" +
        "Exit codes: 0 written; 1 a view drifted from its recorded hash; 2 bad input.",
    )
    .argument("<inputs...>", "episodes.jsonl, rollouts*.jsonl (or a run's folder of them), an example-rollout folder or a sweep folder");
  declareOptions(cmd, FRAMES_OPTIONS)
    .addHelpText(
      "after",
      "\nExamples:\n" +
        "  georeplay frames run/episodes.jsonl --episode 90a9d3eba5ce --tasks tasks/ --panos panos/\n" +
        "  georeplay frames run/episodes.jsonl --episode '#3' --tasks tasks.jsonl --panos panos/ --out /tmp/ep3\n" +
        "  georeplay frames run/traces/rollouts.jsonl --episode rollouts-L4 --tasks tasks/ --panos panos/\n" +
        "  georeplay frames example-rollouts/anthropic_agentic --episode '#2' --out /tmp/slides\n" +
        "  georeplay frames crops-data/eval --episode '#1' --dataset crops-data --out /tmp/crops1",
    )
    .action(
      replayAction<FramesCliOptions>(async (episodes, o) => {
        if (o.out !== undefined) outFolder(`--out ${o.out}`, o.out, true);
        const env = await environmentOf(episodes);
        await env.frames(episodes, o);
      }),
    );
}
