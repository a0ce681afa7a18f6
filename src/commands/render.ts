/** `georeplay render`: one recorded episode to an MP4 (verified frames, scenes painted natively or with Remotion, x264), or many into a folder. */
import { Command } from "commander";
import { dirname, resolve } from "node:path";
import { replayAction } from "./options/shared.ts";
import { declareOptions } from "./options/declare.ts";
import { BATCH_HELP, RENDER_OPTIONS, type RenderCliOptions } from "./options/render.ts";
import { isBatch } from "./render-batch.ts";
import { outFolder } from "./options/out.ts";
import { filmingEnvironment } from "./options/filmed-env.ts";

export function registerRender(program: Command): void {
  const cmd = program
    .command("render")
    .summary("render one recorded episode to an MP4 (verified replay, HUD, trace, map, score card)")
    .description(
      "Verifies the episode's views and renders its camera path (as `georeplay frames` does, into a\n" +
        "temporary folder), then paints every distinct frame in Node (Skia, the default --engine native)\n" +
        "and encodes it with ffmpeg's libx264 (CRF 18, --preset medium, yuv420p, bt709, +faststart; its\n" +
        "frame threads fixed per preset, so the same inputs give the same MP4 on any machine). No\n" +
        "browser, no server, no port. The file appears only when complete: a failed or interrupted render\n" +
        "leaves nothing at the output path and no temporary folders behind. -o clip.gif, .webp or .webm\n" +
        "writes that one file in that format (gif/webp: 480x270 at 10 fps, fitted to --max-mb).\n\n" +
        "-o is checked before any work, as page and frames check theirs: a missing folder on the way to\n" +
        "it is created and said on stderr (and removed again if the render fails); a place that cannot be\n" +
        "written (under a file, read-only) is exit 2 at once.\n\n" +
        "An example-rollout episode (recorded images, no hashes) becomes a slideshow of its images,\n" +
        "labelled RECORDED IMAGES · NOT A REPLAY on every frame, and needs no --tasks/--panos.\n\n" +
        "ffmpeg: $GEOREPLAY_FFMPEG, else ffmpeg-static's, else ffmpeg on PATH (apt-get install ffmpeg);\n" +
        "it runs with GLIBC_TUNABLES keeping the memory it frees (~10% faster here), unless you set it.\n" +
        "--engine remotion draws the same scenes in the Remotion composition with Chromium, for any\n" +
        "environment's video (GeoGuesser's episodes, two-ups and groups; a crops episode or group)\n" +
        "($GEOREPLAY_CHROMIUM or /usr/bin/chromium); it needs Remotion installed, whose licence is not\n" +
        "open source (free for individuals, non-profits and companies of up to 3 people).\n\n" +
        "Exit codes: 0 written; 1 a view drifted from its recorded hash (use --unverified to render it\n" +
        "anyway, marked UNVERIFIED REPLAY); 2 bad input or the renderer could not run.\n\n" +
        "--json prints one object on stdout once the MP4 is written (docs/json-reports.md).\n\n" +
        "Two-up (before and after): --versus <id|#n> puts a second episode, from any of the inputs,\n" +
        "beside --episode on one turn-aligned clock (the Compare composition); --versus-arm <arm>\n" +
        "[--pass n] picks that arm's (model_name's) attempt at the same task instead. Both sides are\n" +
        "verified; --unverified stamps the side that drifted. Different tasks are allowed and said on screen.\n\n" +
        "Group (GRPO): --group <step>/<split>/<index> with training rollouts*.jsonl (several ranks, or\n" +
        "their folder) puts the group's siblings (the rollouts of that step on that task, as `georeplay\n" +
        "groups` groups them) in a grid on one turn-aligned clock (2 -> 1x2, 3-4 -> 2x2, 5-8 -> 2x4,\n" +
        "9-16 -> 4x4), each tile's HUD with its reward and advantage, then one score card ranking them\n" +
        "with every guess on one map. --scale-rewards group|batch|none: the advantages, as TRL. A group\n" +
        "that is not there is exit 2, with the groups nearby listed.\n\n" +
        'A crops (detection gym) run (records with env "crops") films one --episode (the camera easing\n' +
        "between the recorded views, the boxes drawn in their labels' colours, the HUD with the thumbnail\n" +
        "and the running shaping sum, the trace, then a score card of matches, misses and false alarms)\n" +
        "or one --group (the siblings in a grid, then a card ranking them); its dataset is --dataset\n" +
        "(default: the run folder's parent); native engine only; many episodes into -o DIR/ as below\n" +
        "(several --episode, --all, --shard, --poster: the score card), no two-up yet (docs/crops.md).",
    )
    .argument("<inputs...>", "recordings: eval episodes.jsonl, training rollouts*.jsonl (or a run's folder of them), an example-rollout or sweep folder");
  declareOptions(cmd, RENDER_OPTIONS)
    .addHelpText("after", BATCH_HELP)
    .addHelpText(
      "after",
      "\nExamples:\n" +
        "  georeplay render run/episodes.jsonl --episode 90a9d3eba5ce --tasks tasks/ --panos panos/ -o rollout.mp4\n" +
        "  georeplay render run/episodes.jsonl --episode '#2' --tasks tasks.jsonl --panos panos/ -o small.mp4 --size 854x480 --fps 24\n" +
        "  georeplay render run/episodes.jsonl --episode 90a9d3eba5ce --tasks tasks/ --panos panos/ -o preview.gif\n" +
        "  georeplay render base/ ckpt200/ --episode 5e3f5bd32061 --versus-arm ckpt200 --tasks tasks/ --panos panos/ -o two-up.mp4\n" +
        "  georeplay render run/traces/ --group 12/eval/3 --tasks tasks/ --panos panos/ -o group.mp4\n" +
        "  georeplay render crops/eval/episodes.jsonl --episode c46800576146 -o crops.mp4\n" +
        "  georeplay render crops/train/ --group 0/train/0 -o crops-group.mp4\n" +
        "  georeplay render crops/eval/ --all --poster -o crops-videos/",
    )
    .action(
      replayAction<RenderCliOptions>(async (episodes, o, command) => {
        const env = await filmingEnvironment("render", episodes);
        // The place the video goes, checked before any work: -o DIR/ (a batch) is a folder itself, else the file's folder.
        if (o.group === undefined && isBatch(o)) outFolder(`-o ${o.out}`, o.out, true);
        else outFolder(`-o ${o.out}`, dirname(resolve(o.out)));
        await warnMissingFonts();
        // Each environment films its own runs (envs/<env>/src/render-command.ts).
        return env.render(episodes, o, command);
      }),
    );
}

/** Replies in Chinese, Japanese, Korean or emoji draw as boxes without Debian's Noto fonts: say so before rendering. */
async function warnMissingFonts(): Promise<void> {
  // Only whether the files are there: Skia is loaded by the painter's thread, not here.
  const { missingFonts } = await import("../film/shared/font-files.ts");
  const missing = missingFonts();
  if (missing.length === 0) return;
  const packages = [...new Set(missing.map((m) => m.debianPackage))].join(" ");
  process.stderr.write(
    `warning: ${missing.map((m) => m.family).join(", ")} not found (${missing.map((m) => m.path).join(", ")}): text in those scripts will draw as boxes; apt-get install ${packages}\n`,
  );
}
