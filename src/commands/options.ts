/**
 * What the commands share: option parsers that reject bad values with a
 * message (never a stack), the input options every replaying command takes,
 * and the progress bar + interrupt plumbing around a long job.
 */
import { Command, InvalidArgumentError, Option } from "commander";
import { availableParallelism } from "node:os";
import { progressBar, type Progress } from "./progress.ts";
import { onInterrupt } from "./interrupt.ts";
import { FORMATS } from "../../replay/formats/inputs.ts";

export function positiveInt(text: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(n) || n < 1)
    throw new InvalidArgumentError(`expected a whole number >= 1, got ${JSON.stringify(text)}`);
  return n;
}

/** `--tasks`, `--panos`, `--format`: where the recordings' panoramas come from, and what the inputs are. */
export function addInputOptions(cmd: Command, when = "needed to re-render eval and training episodes, not example-rollout folders"): Command {
  return cmd
    .option("--tasks <file|dir>", `task index: one .jsonl for all splits, or a dir of <split>.jsonl / <split>_pano_v3.jsonl (${when})`)
    .option("--panos <dir>", `panorama folder holding <image_id>.jpg and optional <image_id>.orig.jpg (${when})`)
    .addOption(new Option("--format <format>", "input format (default: detected from the content)").choices([...FORMATS]));
}

/** `--jobs`, `--json`, `--no-progress`. */
export function addRunOptions(cmd: Command, jobsHelp = "worker threads"): Command {
  return cmd
    .option("--jobs <n>", jobsHelp, positiveInt, availableParallelism())
    .option("--json", "print one JSON report on stdout instead of text (see docs/json-reports.md)")
    .addOption(new Option("--no-progress", "never show a progress bar"));
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

/** Wraps an engine parser (which throws GeoreplayError) as a commander option parser, so bad values read as usage errors. */
export function optionParser<T>(parse: (text: string) => T): (text: string) => T {
  return (text) => {
    try {
      return parse(text);
    } catch (e) {
      throw new InvalidArgumentError((e as Error).message);
    }
  };
}

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
