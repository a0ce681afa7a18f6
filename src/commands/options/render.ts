/**
 * render's options, declared once: one video's (the fields the public API's
 * RenderEpisodeOptions, RenderCompareOptions and RenderGroupOptions take), a batch's beside them, and how it runs.
 */
import { FORMATS, type InputFormat } from "../../../replay/formats/inputs.ts";
import { VIDEO_FORMATS, type VideoFormat } from "../../../replay/batch/manifest-schema.ts";
import type { Size } from "../../film/size.ts";
import { ENGINES, type Engine } from "../../film/engine.ts";
import { X264_PRESETS, type X264Preset } from "../../ffmpeg/x264.ts";
import { nonNegativeInt, positiveInt, positiveNumber, repeated, runOptions, sizeOption, type RunOptions } from "./shared.ts";
import type { OptionDefs } from "./declare.ts";
import { SCALE_REWARDS, type ScaleRewards } from "../../../replay/groups/stats.ts";

/** `--format` is the input format or the video format (the value sets do not overlap); give it twice for both. */
export function parseFormat(text: string): InputFormat | VideoFormat {
  if ((FORMATS as readonly string[]).includes(text) || (VIDEO_FORMATS as readonly string[]).includes(text)) return text as InputFormat | VideoFormat;
  throw new Error(`expected one of ${[...FORMATS, ...VIDEO_FORMATS].join(", ")}, got ${JSON.stringify(text)}`);
}

/** The input format and the video format among the --format values given (the last of each wins). */
export function splitFormats(values: readonly (InputFormat | VideoFormat)[] = []): { inputFormat?: InputFormat; videoFormat?: VideoFormat } {
  const inputFormat = values.filter((v): v is InputFormat => (FORMATS as readonly string[]).includes(v)).at(-1);
  const videoFormat = values.filter((v): v is VideoFormat => (VIDEO_FORMATS as readonly string[]).includes(v)).at(-1);
  return { inputFormat, videoFormat };
}

/** One video's options (the public API's RenderEpisodeOptions, RenderCompareOptions and RenderGroupOptions take the same fields). */
export interface RenderOneOptions {
  episode?: string[];
  tasks?: string;
  panos?: string;
  format?: (InputFormat | VideoFormat)[];
  out: string;
  size: Size;
  fps: number;
  unverified?: boolean;
  engine: Engine;
  preset: X264Preset;
  concurrency: number;
  versus?: string;
  versusArm?: string;
  pass?: number;
  group?: string;
  scaleRewards?: ScaleRewards;
  dataset?: string;
}

const INPUT_HELP = "needed to re-render eval and training episodes, not example-rollout folders";

export const RENDER_ONE_OPTIONS: OptionDefs<RenderOneOptions> = {
  episode: {
    flags: "--episode <id|#n>",
    description: "episode_id, or #n for the n-th replayable episode of the input (repeat it for a batch: -o DIR/)",
    parse: repeated(String),
  },
  tasks: {
    flags: "--tasks <file|dir>",
    description: `task index: one .jsonl for all splits, or a dir of <split>.jsonl / <split>_pano_v3.jsonl (${INPUT_HELP})`,
  },
  panos: { flags: "--panos <dir>", description: `panorama folder holding <image_id>.jpg and optional <image_id>.orig.jpg (${INPUT_HELP})` },
  format: {
    flags: "--format <format>",
    description: `input format (${FORMATS.join("|")}; default: detected from the content), or the video format (${VIDEO_FORMATS.join("|")}; default: the -o file's extension, mp4 for a folder); give both with two --format`,
    parse: repeated(parseFormat),
  },
  out: {
    flags: "-o, --out <file>",
    description: "output file: .mp4, or .webm, .gif, .webp (that one file in that format); or a folder (DIR/) for a batch",
    required: true,
  },
  size: sizeOption("video size, even numbers (16:9 puts the panel beside the view; square or portrait, under it); gif/webp: 480x270"),
  fps: { flags: "--fps <n>", description: "video frames per second (gif/webp: 10)", parse: positiveInt, default: 30 },
  unverified: { flags: "--unverified", description: "render even if a view drifted; every frame then says UNVERIFIED REPLAY" },
  engine: {
    flags: "--engine <engine>",
    description: "native: Skia in Node + x264; remotion: the Remotion composition in Chromium",
    choices: ENGINES,
    default: "native",
  },
  preset: {
    flags: "--preset <preset>",
    description: "x264 preset: faster presets encode quicker, slower ones make smaller files",
    choices: X264_PRESETS,
    default: "medium",
  },
  concurrency: {
    flags: "--concurrency <n>",
    description: "--engine remotion: Chromium tabs in parallel (1 was fastest on 2 cores)",
    parse: positiveInt,
    default: 1,
  },
  versus: { flags: "--versus <id|#n>", description: "two-up video: this episode (from any input) beside --episode" },
  versusArm: { flags: "--versus-arm <arm>", description: "two-up video: this arm's (model_name's) attempt at --episode's task (same split and task.index)" },
  pass: {
    flags: "--pass <n>",
    description: "with --versus-arm: that arm's pass (task.sample); default --episode's pass, else the lowest; with --improved/--regressed: both sides' pass",
    parse: nonNegativeInt,
  },
  group: {
    flags: "--group <step/split/index>",
    description: "group video: a GRPO group's siblings (training rollouts of one step on one task) in a grid on one clock, e.g. 12/eval/3",
  },
  dataset: {
    flags: "--dataset <dir>",
    description: "crops runs: the dataset folder (tasks.jsonl, gt.jsonl, images/); default: the run folder's parent",
  },
  scaleRewards: {
    flags: "--scale-rewards <mode>",
    description: "with --group: what the advantages shown are divided by, as `georeplay groups` (TRL's scale_rewards; default group)",
    choices: SCALE_REWARDS,
  },
};

/** A batch's own options (-o DIR/): which videos, split how, in which budget. */
export interface BatchOnlyOptions {
  all?: boolean;
  improved?: number;
  regressed?: number;
  arm?: string;
  baseline: string;
  shard?: string;
  maxMb?: number;
  poster?: string | true;
  posterFrame?: number;
  dryRun?: boolean;
}

export const BATCH_OPTIONS: OptionDefs<BatchOnlyOptions> = {
  all: { flags: "--all", description: "batch: every replayable episode of the inputs" },
  improved: { flags: "--improved <n>", description: "batch: the N tasks --arm improved most against --baseline, two-up", parse: positiveInt },
  regressed: { flags: "--regressed <n>", description: "batch: the N tasks --arm regressed most against --baseline, two-up", parse: positiveInt },
  arm: { flags: "--arm <arm>", description: "with --improved/--regressed: the arm (model_name) whose deltas rank the tasks" },
  baseline: { flags: "--baseline <arm>", description: "with --improved/--regressed: the arm the deltas are against (as report --baseline)", default: "base" },
  shard: { flags: "--shard <i/n>", description: "batch: render only share i of n (deterministic, balanced by frame count)" },
  maxMb: { flags: "--max-mb <mb>", description: "gif/webp: size budget per file in MB (default 8)", parse: positiveNumber },
  poster: {
    flags: "--poster [file.png]",
    description: "batch: also write a still of each video (the score card): <name>.png beside it, or this file for one video",
  },
  posterFrame: { flags: "--poster-frame <n>", description: "with --poster: frame n (0-based) instead of the last", parse: nonNegativeInt },
  dryRun: { flags: "--dry-run", description: "batch: print the videos, their frame counts and shards, render nothing" },
};

export type RenderCliOptions = RenderOneOptions & BatchOnlyOptions & RunOptions;

/** The options that choose other videos than one episode's or one group's (pairs, batches, posters). */
export const OTHER_VIDEOS: readonly [keyof RenderCliOptions, string][] = [
  ["versus", "--versus"],
  ["versusArm", "--versus-arm"],
  ["pass", "--pass"],
  ["all", "--all"],
  ["improved", "--improved"],
  ["regressed", "--regressed"],
  ["shard", "--shard"],
  ["dryRun", "--dry-run"],
  ["poster", "--poster"],
];

/** The flags of `options` that were given, as typed. */
export const givenFlags = (o: RenderCliOptions, options: readonly [keyof RenderCliOptions, string][]): string[] =>
  options.filter(([k]) => o[k] !== undefined).map(([, flag]) => flag);

/** render's options: one video's, a batch's beside them, then how it runs. */
export const RENDER_OPTIONS: OptionDefs<RenderCliOptions> = {
  ...RENDER_ONE_OPTIONS,
  ...BATCH_OPTIONS,
  ...runOptions("threads verifying and reprojecting the frame files (1: the calling thread; more: worker threads)"),
};

export const BATCH_HELP =
  "\nMany videos at once (-o DIR/, or any of the options below): several --episode, --all (every\n" +
  "replayable episode), or --improved N / --regressed N with --arm ARM [--baseline ARM]: the N tasks\n" +
  "with the largest (smallest) per-task delta of ARM against the baseline, the very numbers and order\n" +
  "of `georeplay report --json` (tasks[].arms[].delta; ties keep task order), each two-up: the\n" +
  "baseline's attempt (its lowest pass, or --pass) beside ARM's at the same task (same pass, else\n" +
  "its lowest). Files: <episode_id>.<ext> and <split>-<index>-<A>-vs-<B>.<ext> (names sanitised),\n" +
  "plus DIR/manifest.json (inputs and their digest, episodes, verification, duration, sha256),\n" +
  "rewritten after each video. A rerun skips videos complete in the manifest. One failing video is\n" +
  "reported and the others written; exit 1 if any drifted, else 2 if any failed, else 0.\n" +
  "--format mp4|webm|gif|webp (the input formats stay accepted too); gif/webp default to\n" +
  "480x270 at 10 fps and fit --max-mb (default 8, per file), lowering fps and size and saying so.\n" +
  "--shard i/n renders a deterministic share balanced by frame count. --poster: each video's last\n" +
  "frame (the score card) as <name>.png beside it. A crops run's batch is several --episode or\n" +
  "--all (no two-up selections yet). --json: one line per video,\n" +
  "then a summary (docs/json-reports.md). CI examples: docs/github-actions-render.yml (a matrix\n" +
  "of shards) and docs/k8s-render-job.yml (a Kubernetes Indexed Job).\n";
