/** `georeplay page`: one self-contained, offline HTML page for a run. */
import { Command, Option } from "commander";
import { availableParallelism } from "node:os";
import { buildPage } from "../page/build.ts";
import { DEFAULT_IMAGE_SIZE } from "../page/images.ts";
import { progressBar } from "../io/progress.ts";
import { onInterrupt } from "../io/interrupt.ts";
import { EXIT_INPUT, EXIT_MISMATCH } from "../io/errors.ts";
import { positiveInt } from "./options.ts";

export function registerPage(program: Command): void {
  program
    .command("page")
    .summary("write one self-contained HTML page showing every turn of a run (works offline)")
    .description(
      "Re-renders and verifies every recorded view, then writes a single HTML file with the run\n" +
        "summary, a sortable and filterable episode list, and each episode turn by turn: the view\n" +
        "(badged match / mismatch / resolved), the action, the raw reply and reasoning, feedback,\n" +
        "tokens, latency and the outcome on an offline map. Nothing is fetched when it opens;\n" +
        "trace text is escaped and a strict Content-Security-Policy pins the page's own script.\n\n" +
        "Exit codes: 0 page written and every view verified; 1 page written, some view mismatched;\n" +
        "2 bad input (or the page was written but some views could not be checked).",
    )
    .argument("<episodes...>", "episodes.jsonl file(s) written by the eval harness")
    .requiredOption("--tasks <file|dir>", "task index: one .jsonl for all splits, or a dir of <split>.jsonl / <split>_pano_v3.jsonl")
    .requiredOption("--panos <dir>", "panorama folder holding <image_id>.jpg and optional <image_id>.orig.jpg")
    .requiredOption("-o, --out <file.html>", "the HTML file to write (atomically)")
    .option("--image-size <px>", "longest side of the embedded views (32..640)", positiveInt, DEFAULT_IMAGE_SIZE)
    .option("--title <text>", "page title")
    .option("--jobs <n>", "worker threads", positiveInt, availableParallelism())
    .addOption(new Option("--no-progress", "never show a progress bar"))
    // Subcommands copy exitOverride only when it is set before they are created: without this,
    // commander would exit(1) itself on a bad option value instead of letting runMain map it to 2.
    .exitOverride()
    .addHelpText("after", "\nExample:\n  georeplay page run/episodes.jsonl --tasks tasks/ --panos panos/ -o run.html")
    .action(async (episodes: string[], o) => {
      const bar = progressBar("page", 1000, { enabled: o.progress !== false && Boolean(process.stderr.isTTY) });
      const off = onInterrupt(() => bar.stop());
      let r;
      try {
        r = await buildPage({
          episodes,
          tasks: o.tasks,
          panos: o.panos,
          out: o.out,
          imageSize: o.imageSize,
          jobs: o.jobs,
          title: o.title,
          onProgress: (p) => bar.update(Math.round(p.fraction * 1000), `${p.episodes} episodes · ${p.views} views · ${p.mismatch} mismatch`),
        });
      } finally {
        bar.stop();
        off();
      }
      for (const p of r.problems) process.stderr.write(`warning: ${p}\n`);
      const mb = (r.bytes / 1e6).toFixed(1);
      process.stdout.write(`wrote ${r.out} · ${r.episodes} episodes · ${r.views} views (${r.images} distinct images) · ${mb} MB\n`);
      if (r.mismatch) {
        process.stderr.write(`${r.mismatch} view(s) do not match their recorded hash; the page badges them as mismatch\n`);
        process.exitCode = EXIT_MISMATCH;
      } else if (r.unchecked) process.exitCode = EXIT_INPUT;
    });
}
