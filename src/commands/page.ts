/** `georeplay page`: one self-contained, offline HTML page for a run. */
import { Command } from "commander";
import { DEFAULT_IMAGE_SIZE } from "../page/image-size.ts";
import { DEFAULT_EXACT_MB } from "../page/page-options.ts";
import { pageExitCode, pageJson } from "../reports/page.ts";
import { inputOptions, nonNegativeNumber, positiveInt, replayAction, runOptions, withProgress, type InputOptions, type RunOptions } from "./options/shared.ts";
import { declareOptions, type OptionDefs } from "./options/declare.ts";
import { interruptSignal } from "./interrupt.ts";

export interface PageCliOptions extends InputOptions, RunOptions {
  out: string;
  imageSize: number;
  title?: string;
  baseline?: string;
  exactZoomsMb: number;
  player: boolean;
  partial?: boolean;
}

export const PAGE_OPTIONS: OptionDefs<PageCliOptions> = {
  ...inputOptions(),
  out: { flags: "-o, --out <file.html>", description: "the HTML file to write (atomically)", required: true },
  imageSize: {
    flags: "--image-size <px>",
    description: "run pages: longest side of the embedded views (32..640; board pages embed panoramas and exact zooms)",
    parse: positiveInt,
    default: DEFAULT_IMAGE_SIZE,
  },
  title: { flags: "--title <text>", description: "page title" },
  baseline: {
    flags: "--baseline <arm>",
    description:
      "pair a board page's arms against this one: the paired deltas of `georeplay report --baseline ARM` and their forest plot, per-task deltas against it (also makes episodes files named one by one a board page)",
  },
  exactZoomsMb: {
    flags: "--exact-zooms-mb <mb>",
    description: "board pages: embed the exact verified bytes of zooms (fov <= 45) up to this many MB (0: none)",
    parse: nonNegativeNumber,
    default: DEFAULT_EXACT_MB,
  },
  player: { flags: "--no-player", description: "leave out the in-page video player (and the panoramas, fonts and timelines it embeds)" },
  partial: {
    flags: "--partial",
    description: "write the page even if the run could not be read completely, listing the problems at the top (exit code stays 2)",
  },
  ...runOptions(),
};

export function registerPage(program: Command): void {
  const cmd = program
    .command("page")
    .summary("write one self-contained HTML page showing every turn of a run (works offline)")
    .description(
      "Re-renders and verifies every recorded view, then writes a single HTML file with the run\n" +
        "summary, a searchable, filterable and sortable episode list (state in the address: reload and\n" +
        "Back restore it; the filtered rows download as CSV), and each episode turn by turn: the view\n" +
        "(badged match / mismatch / resolved; click or v enlarges it), the prompt, the action, the reply\n" +
        "rendered as Markdown (raw toggle; long ones clamped until 'show all') and the reasoning,\n" +
        "feedback, tokens, latency, the episode's config and the outcome on an offline map. Nothing is\n" +
        "fetched when it opens; trace text never runs (no raw HTML, inert links, no images fetched)\n" +
        "and a strict Content-Security-Policy pins the page's own script.\n\n" +
        "A sweep or board folder (its **/episodes.jsonl, as `georeplay report` reads them) is a board\n" +
        "page, with or without --baseline: it opens at geoeval's tables (the numbers of `georeplay\n" +
        "report`: arms ranked by mean-of-k, behaviour; with --baseline ARM the paired deltas and a forest\n" +
        "plot), then a per-task table of any two arms (click a header to sort; filter by country,\n" +
        "verdict or text), a compare view (#compare/<task>/<armA>/<armB>: both arms' attempts side by\n" +
        "side) and every episode. GRPO training traces add per-step charts (mean reward, in-group\n" +
        "spread, frac_reward_zero_std, turns, never guessed); example-rollout folders show their\n" +
        'recorded images as they are (badged "recorded image"; no --tasks/--panos needed).\n\n' +
        "When the run cannot be read completely (invalid or unreadable records, missing task rows\n" +
        "or panoramas) nothing is written unless --partial is given.\n\n" +
        "Exit codes: 0 page written and every view verified; 1 page written, some view mismatched;\n" +
        "2 bad input: the run could not be read completely (no page written, or a --partial one).",
    )
    .argument("<inputs...>", "eval episodes.jsonl, GRPO rollouts*.jsonl, example-rollout folders or sweep folders");
  declareOptions(cmd, PAGE_OPTIONS)
    .addHelpText(
      "after",
      "\nExamples:\n" +
        "  georeplay page run/episodes.jsonl --tasks tasks/ --panos panos/ -o run.html\n" +
        "  georeplay page traces/rollouts-rank*.jsonl --tasks tasks/ --panos panos/ -o training.html\n" +
        "  georeplay page board/ --tasks tasks/ --panos panos/ -o board.html --json\n" +
        "  georeplay page board/ --tasks tasks/ --panos panos/ --baseline base -o board.html\n" +
        "  georeplay page example_rollouts/anthropic_agentic/ -o example.html",
    )
    .action(
      replayAction<PageCliOptions>(async (episodes, o) => {
        // Loaded when the command runs, so `--help` and other commands never load sharp or the page writer.
        const r = await withProgress("page", o, async (bar) =>
          (await import("../page/build.ts")).buildPage({
            ...o,
            signal: interruptSignal(),
            episodes,
            partial: Boolean(o.partial),
            onProgress: (p) => bar.update(Math.round(p.fraction * 1000), `${p.episodes} episodes · ${p.views} views · ${p.mismatch} mismatch`),
          }),
        );
        const err: string[] = [];
        for (const p of r.erroredEpisodes) err.push(`skipped: ${p.message}`);
        for (const p of r.warnings) err.push(`warning: ${p.message}`);
        for (const p of r.errors) err.push(`error: ${p.message}`);
        if (!r.written) {
          err.push(
            `${r.errors.length} problem(s) kept georeplay from reading the whole run: no page written; rerun with --partial to write a page of what could be read`,
          );
        } else if (r.partial) {
          err.push(`partial page: ${r.errors.length} problem(s) kept georeplay from reading the whole run; they are listed at the top of the page`);
        }
        if (r.written && r.mismatch) err.push(`${r.mismatch} view(s) do not match their recorded hash; the page badges them as mismatch`);
        if (err.length) process.stderr.write(err.join("\n") + "\n");
        if (o.json) process.stdout.write(JSON.stringify(pageJson(r), null, 2) + "\n");
        else if (r.written) {
          const mb = (r.bytes / 1e6).toFixed(1);
          const what = [
            `${r.episodes} episodes`,
            r.views || !r.recordedImages.checked ? `${r.views} views` : "",
            r.recordedImages.checked ? `${r.recordedImages.ok} recorded images` : "",
          ].filter(Boolean);
          const images = r.board ? `${r.images} panoramas, views reprojected in the browser` : `${r.images} distinct images`;
          process.stdout.write(`wrote ${r.out} · ${what.join(" · ")} (${images}) · ${mb} MB\n`);
        }
        process.exitCode = pageExitCode(r);
      }),
    );
}
