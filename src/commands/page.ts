/** `georeplay page`: one self-contained, offline HTML page for a run. */
import { Command } from "commander";
import { dirname, resolve } from "node:path";
import { DEFAULT_IMAGE_SIZE, DEFAULT_VIEWS_MB } from "../page/image-size.ts";
import { inputOptions, nonNegativeNumber, positiveInt, replayAction, runOptions } from "./options/shared.ts";
import { declareOptions, type OptionDefs } from "./options/declare.ts";
import { outFolder } from "./options/out.ts";
import { filmingEnvironment } from "./options/filmed-env.ts";
import type { PageCliOptions } from "./options/command-options.ts";

export type { PageCliOptions } from "./options/command-options.ts";

export const PAGE_OPTIONS: OptionDefs<PageCliOptions> = {
  ...inputOptions(),
  out: {
    flags: "-o, --out <file.html|dir/>",
    description:
      "file.html: one self-contained file; dir/ (a trailing slash, or an existing folder): the folder form, index.html beside data/ and views/ (every view exact); written atomically",
    required: true,
  },
  imageSize: {
    flags: "--image-size <px>",
    description: "one-file run pages: longest side of the embedded views (32..640); the folder form keeps the exact 640 px files",
    parse: positiveInt,
    default: DEFAULT_IMAGE_SIZE,
  },
  title: { flags: "--title <text>", description: "page title" },
  baseline: {
    flags: "--baseline <arm>",
    description:
      "pair a board page's arms against this one: the paired deltas of `georeplay report --baseline ARM` and their forest plot, per-task deltas against it (also makes episodes files named one by one a board page)",
  },
  maxMb: {
    flags: "--max-mb <mb>",
    description: `one-file board pages: size budget for the whole page; the exact views fill what the rest of the page leaves, zooms (fov <= 45) first, then the others. Unset: the exact views get ${DEFAULT_VIEWS_MB} MB whatever the rest takes, which keeps a held-out-size board's zooms exact (640 episodes: ~18 MB of zooms on ~23 MB of words, panoramas and maps; 0 of 1,047 views were exact in a 12 MB page). The trade-off: a larger file, against views the browser reprojects from a 1024x512 panorama (a blur where the model read a sign), badged "reprojected"; -o dir/ keeps every view exact`,
    parse: nonNegativeNumber,
  },
  exactZoomsMb: {
    flags: "--exact-zooms-mb <mb>",
    description: "one-file board pages: give the exact views this many MB whatever the rest of the page takes (overrides --max-mb; 0: none)",
    parse: nonNegativeNumber,
  },
  player: { flags: "--no-player", description: "leave out the in-page video player (and the panoramas, fonts and timelines it embeds)" },
  partial: {
    flags: "--partial",
    description: "write the page even if the run could not be read completely, listing the problems at the top (exit code stays 2)",
  },
  dataset: { flags: "--dataset <dir>", description: "crops runs: the dataset folder (tasks.jsonl, gt.jsonl, images/); default: the run folder's parent" },
  ...runOptions(),
};

/** Names joined by ", " in lines of at most 94 characters (the help's width). */
/**
 * A GeoGuesser training page's charts, by the names the page gives them (its CHART_NAMES,
 * envs/geoguesser/src/page/training-parts.ts: the page test holds the two the same). Written out:
 * --help loads no environment.
 */
const GEOGUESSER_CHARTS = [
  "mean env reward",
  "frac_reward_zero_std",
  "median group std",
  "mean group std (TRL's reward_std)",
  "advantage multiplier",
  "turns used",
  "action cost",
  "distance",
  "never guessed",
  "tool-call mix",
];

function wrapList(names: string[]): string {
  const lines: string[] = [];
  for (const n of names) {
    const last = lines.length - 1;
    if (last >= 0 && lines[last].length + n.length + 2 <= 94) lines[last] += `, ${n}`;
    else lines.push(n);
  }
  return lines.join(",\n");
}

export function registerPage(program: Command): void {
  const cmd = program
    .command("page")
    .summary("write an HTML page showing every turn of a run: one self-contained file, or a folder (works offline)")
    .description(
      "Re-renders and verifies every recorded view, then writes an HTML page with the run\n" +
        "summary, a searchable, filterable and sortable episode list (state in the address: reload and\n" +
        "Back restore it; the filtered rows download as CSV), and each episode turn by turn: the view\n" +
        "(badged match / mismatch / resolved; click or v enlarges it), the prompt, the action, the reply\n" +
        "rendered as Markdown (raw toggle; long ones clamped until 'show all') and the reasoning,\n" +
        "feedback, tokens, latency, the episode's config and the outcome on an offline map. Nothing is\n" +
        "fetched when it opens; trace text never runs (no raw HTML, inert links, no images fetched)\n" +
        "and a strict Content-Security-Policy pins the page's own script.\n\n" +
        "Two forms, one reader and one search (every word of every reply, reasoning and prompt in both):\n" +
        "  -o page.html   one self-contained file (the default). Run pages embed every view downscaled\n" +
        "                 (--image-size); board pages embed the exact verified views by priority within\n" +
        `                 a budget (${DEFAULT_VIEWS_MB} MB of views by default, or --max-mb for the whole page; zooms\n` +
        '                 first) and reproject the rest from the panoramas, badged "reprojected", saying on\n' +
        "                 stderr and in the page's header how many were left out.\n" +
        "  -o page/       a folder (a trailing slash, or an existing folder): page/index.html beside\n" +
        "                 data/ (episode details and search text, loaded as you read) and views/ (every\n" +
        "                 verified view as the exact JPEG the model saw, named by its sha256). Opens from\n" +
        "                 disk (file://) with no server and no network; for boards of any size. The folder\n" +
        "                 is built beside the target and renamed into place; a folder georeplay wrote is\n" +
        "                 replaced as a whole, any other non-empty folder is refused.\n" +
        "A target that cannot be written (a file where the folder should be, a path under a file, a\n" +
        "read-only place) is refused before any work (exit 2). A missing folder on the way to it is\n" +
        "created and said on stderr (removed again if the page fails), as render and frames do.\n\n" +
        "A sweep or board folder (its **/episodes.jsonl, as `georeplay report` reads them) is a board\n" +
        "page, with or without --baseline: it opens at geoeval's tables (the numbers of `georeplay\n" +
        "report`: arms ranked by mean-of-k, behaviour; with --baseline ARM the paired deltas and a forest\n" +
        "plot), then a per-task table of any two arms (click a header to sort; filter by country,\n" +
        "verdict or text), a compare view (#compare/<task>/<armA>/<armB>: both arms' attempts side by\n" +
        "side) and every episode. GRPO training traces add per-step charts:\n" +
        wrapList(GEOGUESSER_CHARTS) +
        ";\nthe list gets step, group mean, group std, advantage and zero spread columns (the filter's\n" +
        "step, group_mean, group_std, advantage, zero_spread). Example-rollout folders show their\n" +
        'recorded images as they are (badged "recorded image"; no --tasks/--panos needed).\n\n' +
        'Crops runs (records with env "crops", the detection gym) get their own page, in both forms:\n' +
        "the board of `georeplay report` (arms ranked by mean-of-k; recall, precision, credit, boxes,\n" +
        "misses and false alarms per image; --baseline's paired deltas; per task, each arm's attempts\n" +
        "side by side, #compare/<split>/<index>), the list (score, recall, precision, boxes, misses, false\n" +
        "alarms, zooms, tokens; the filter expression and CSV over them), and each episode: findings with\n" +
        "both full hashes, the image with ground truth / final / any turn's boxes toggled, a per-box table\n" +
        "(matched object, GIoU, credit, error: localisation, classification, duplicate, background,\n" +
        "missed), every turn's re-rendered view and thumbnail, and Play (the video painted in the page\n" +
        "by the MP4's scene). A GRPO run adds its groups (six siblings side by side ranked by advantage,\n" +
        "each with its final boxes on the image; the numbers of `groups --json`, the advantage r - mean),\n" +
        "the charts mean score, median and mean group std, zero-spread groups, turns used and tool-call\n" +
        "mix, and the list's step, group mean, group std, advantage and zero spread columns. --dataset\n" +
        "names the dataset folder.\n\n" +
        "When the run cannot be read completely (invalid or unreadable records, missing task rows\n" +
        "or panoramas) nothing is written unless --partial is given.\n\n" +
        "Exit codes: 0 page written and every view verified; 1 page written, some view mismatched;\n" +
        "2 bad input: the run could not be read completely (no page written, or a --partial one).",
    )
    .argument("<inputs...>", "eval episodes.jsonl, GRPO rollouts*.jsonl (or a run's folder of them), example-rollout folders or sweep folders");
  declareOptions(cmd, PAGE_OPTIONS)
    .addHelpText(
      "after",
      "\nExamples:\n" +
        "  georeplay page run/episodes.jsonl --tasks tasks/ --panos panos/ -o run.html\n" +
        "  georeplay page traces/rollouts-rank*.jsonl --tasks tasks/ --panos panos/ -o training.html\n" +
        "  georeplay page board/ --tasks tasks/ --panos panos/ -o board.html --json\n" +
        "  georeplay page board/ --tasks tasks/ --panos panos/ --baseline base -o board.html\n" +
        "  georeplay page board/ --tasks tasks/ --panos panos/ --baseline base -o board/\n" +
        "  georeplay page example_rollouts/anthropic_agentic/ -o example.html\n" +
        "  georeplay page crops/eval/episodes.jsonl -o crops.html\n" +
        "  georeplay page crops-board/ --dataset crops/ --baseline scripted-vlm -o crops-board/",
    )
    .action(replayAction<PageCliOptions>(writePage));
}

/** The page command's work, shared with `georeplay serve --once` (the same page, messages and exit code). */
export async function writePage(episodes: string[], o: PageCliOptions): Promise<void> {
  // The folder the page (or its folder, -o DIR/) goes in, before any work; the page writer checks the rest.
  outFolder(`-o ${o.out}`, dirname(resolve(o.out)));
  // Each environment publishes its own runs (envs/<env>/src/page-command.ts).
  const env = await filmingEnvironment("page", episodes);
  return env.page(episodes, o);
}
