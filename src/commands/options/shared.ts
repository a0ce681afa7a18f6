/**
 * What the commands share: value parsers that reject bad text with a message (never a
 * stack), the option tables every replaying command takes (inputs; jobs, json, progress),
 * and the progress bar + interrupt plumbing around a long job.
 */
import { Command, InvalidArgumentError } from "commander";
import { defaultJobs, SMALL_RUN_BYTES } from "../../../replay/verify/jobs.ts";
import { progressBar, type Progress } from "../progress.ts";
import { onInterrupt } from "../interrupt.ts";
import { FORMATS, type InputFormat } from "../../../replay/formats/inputs.ts";
import { parseSize, type Size } from "../../film/size.ts";
import { optionsOf, type OptionDef, type OptionDefs } from "./declare.ts";

export function positiveInt(text: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(n) || n < 1)
    throw new InvalidArgumentError(`expected a whole number >= 1, got ${JSON.stringify(text)}`);
  return n;
}

export function nonNegativeInt(text: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(n)) throw new InvalidArgumentError(`expected a whole number >= 0, got ${JSON.stringify(text)}`);
  return n;
}

export function positiveNumber(text: string): number {
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError(`expected a number > 0, got ${JSON.stringify(text)}`);
  return n;
}

export function nonNegativeNumber(text: string): number {
  const n = Number(text);
  if (text.trim() === "" || !Number.isFinite(n) || n < 0) throw new InvalidArgumentError(`expected a number >= 0, got ${JSON.stringify(text)}`);
  return n;
}

/** A repeatable option: every value given, in order. */
export function repeated<T>(parse: (text: string) => T): (text: string, previous: T[] | undefined) => T[] {
  return (text, previous) => [...(previous ?? []), parse(text)];
}

/** `--size WxH` for videos, 1280x720 unless given. */
export function sizeOption(description: string): OptionDef<Size> {
  return { flags: "--size <WxH>", description, parse: parseSize, default: { width: 1280, height: 720 }, defaultLabel: "1280x720" };
}

/** Where the recordings' panoramas come from, and what the inputs are. */
export interface InputOptions {
  tasks?: string;
  panos?: string;
  format?: InputFormat;
}

export function inputOptions(when = "needed to re-render eval and training episodes, not example-rollout folders"): OptionDefs<InputOptions> {
  return {
    tasks: {
      flags: "--tasks <file|dir>",
      description: `task index: one .jsonl for all splits, or a dir of <split>.jsonl / <split>_pano_v3.jsonl (${when}; default: tasks.jsonl or tasks/ beside the run, or one folder up, with panos/)`,
    },
    panos: {
      flags: "--panos <dir>",
      description: `panorama folder holding <image_id>.jpg and optional <image_id>.orig.jpg (${when}; default: panos/ beside the task index found)`,
    },
    format: { flags: "--format <format>", description: "input format (default: detected from the content)", choices: FORMATS },
  };
}

/** How a long command runs and reports. */
export interface RunOptions {
  /** Absent: the engine's default for the run's size. */
  jobs?: number;
  json?: boolean;
  progress: boolean;
}

export function runOptions(jobsHelp = "threads computing index maps (1: the calling thread; more: worker threads)"): OptionDefs<RunOptions> {
  return {
    jobs: {
      flags: "--jobs <n>",
      description: `${jobsHelp} (default: ${defaultJobs()} for a run under ${SMALL_RUN_BYTES / 1024 / 1024} MB of records, ${defaultJobs(SMALL_RUN_BYTES)} above)`,
      parse: positiveInt,
    },
    json: { flags: "--json", description: "print one JSON report on stdout instead of text (see docs/json-reports.md)" },
    progress: { flags: "--no-progress", description: "never show a progress bar" },
  };
}

/**
 * Runs a long job with a progress bar on stderr (only on a terminal, and not
 * with --no-progress) that an interrupt clears before its message.
 */
export async function withProgress<T>(label: string, opts: { progress?: boolean }, job: (bar: Progress) => Promise<T>): Promise<T> {
  const bar = progressBar(label, 1000, { enabled: opts.progress !== false && Boolean(process.stderr.isTTY) });
  const off = onInterrupt(() => bar.stop());
  try {
    return await job(bar);
  } finally {
    bar.stop();
    off();
  }
}

/** Warnings worth a user's attention, on stderr. */
export const warn = (message: string): void => void process.stderr.write(`warning: ${message}\n`);

/**
 * Process-wide settings the CLI chooses for its own process (a library host keeps its own):
 * libvips' operation cache would keep a second copy of every decoded panorama (the panorama
 * store is already a cache bounded by bytes), and one libvips thread per decode, since the
 * worker pool provides the parallelism.
 */
export async function configureImageLibrary(): Promise<void> {
  const sharp = (await import("sharp")).default;
  sharp.cache(false);
  sharp.concurrency(1);
}

/**
 * A replaying command's action: its inputs and its typed options. The process-wide image
 * library settings are made first (configureImageLibrary), before any panorama is read.
 */
export function replayAction<O>(run: (inputs: string[], o: O, command: Command) => Promise<void>) {
  return async (inputs: string[], _raw: unknown, command: Command): Promise<void> => {
    await configureImageLibrary();
    await run(inputs, optionsOf<O>(command), command);
  };
}
