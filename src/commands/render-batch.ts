/**
 * `georeplay render ... -o DIR/` with a selection: many videos in one process
 * (src/batch/run-batch.ts). render.ts calls registerBatchOptions() to add the
 * options and routeBatch() first thing in its action; everything else lives here.
 */
import { Command, InvalidArgumentError, Option } from "commander";
import { statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { GeoreplayError } from "../../replay/io/errors.ts";
import { FORMATS, type InputFormat } from "../../replay/formats/inputs.ts";
import { VIDEO_FORMATS, type VideoFormat, type ManifestVideo } from "../../replay/batch/manifest-schema.ts";
import type { Selection } from "../../replay/batch/select.ts";
import type { PlannedVideo } from "../../replay/batch/plan.ts";
import { positiveInt } from "./options.ts";
import { interruptSignal, onInterrupt } from "./interrupt.ts";
import { progressBar } from "./progress.ts";
import { batchExitCode } from "./exit-codes.ts";
import type { VideoOutcome } from "../batch/run-batch.ts";

// Commander's parsed options (typed by the option definitions).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Opts = Record<string, any>;

const BATCH_HELP =
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
  "--shard i/n renders a deterministic share balanced by frame count. --json: one line per video,\n" +
  "then a summary (docs/json-reports.md). CI examples: docs/github-actions-render.yml (a matrix\n" +
  "of shards) and docs/k8s-render-job.yml (a Kubernetes Indexed Job).\n";

/** `--episode` once is a string (the one-video render); repeated, a list. */
function collectEpisode(value: string, previous: unknown): string | string[] {
  if (previous === undefined) return value;
  return Array.isArray(previous) ? [...previous, value] : [previous as string, value];
}

function nonNegativeInt(text: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(n)) throw new InvalidArgumentError(`expected a whole number >= 0, got ${JSON.stringify(text)}`);
  return n;
}

function positiveNumber(text: string): number {
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError(`expected a number > 0, got ${JSON.stringify(text)}`);
  return n;
}

export function registerBatchOptions(cmd: Command): void {
  const episode = cmd.options.find((x) => x.long === "--episode");
  if (episode) {
    episode.makeOptionMandatory(false);
    episode.argParser(collectEpisode);
    episode.description += " (repeat it for a batch: -o DIR/)";
  }
  const out = cmd.options.find((x) => x.long === "--out");
  if (out) out.description = "output MP4, or a folder (DIR/) for a batch";
  const pass = cmd.options.find((x) => x.long === "--pass");
  if (pass) pass.description += "; with --improved/--regressed: both sides' pass";
  // --format takes the input format as before, or the video format of a batch.
  const format = cmd.options.find((x) => x.long === "--format");
  if (format) {
    format.argChoices = undefined;
    format.description = `input format (${FORMATS.join("|")}; default: detected from the content), or the video format of a batch (${VIDEO_FORMATS.join("|")}; default mp4); give both with two --format`;
    format.argParser((value: string, previous: unknown) => {
      if ((VIDEO_FORMATS as readonly string[]).includes(value)) {
        cmd.setOptionValueWithSource("videoFormat", value, "cli");
        return previous;
      }
      if (!(FORMATS as readonly string[]).includes(value)) throw new InvalidArgumentError(`expected one of ${[...FORMATS, ...VIDEO_FORMATS].join(", ")}`);
      return value;
    });
  }
  cmd
    .option("--all", "batch: every replayable episode of the inputs")
    .option("--improved <n>", "batch: the N tasks --arm improved most against --baseline, two-up", positiveInt)
    .option("--regressed <n>", "batch: the N tasks --arm regressed most against --baseline, two-up", positiveInt)
    .option("--arm <arm>", "with --improved/--regressed: the arm (model_name) whose deltas rank the tasks")
    .option("--baseline <arm>", "with --improved/--regressed: the arm the deltas are against (as report --baseline)", "base")
    .option("--shard <i/n>", "batch: render only share i of n (deterministic, balanced by frame count)")
    .addOption(new Option("--max-mb <mb>", "batch, gif/webp: size budget per file in MB (default 8)").argParser(positiveNumber))
    .option("--poster [file.png]", "batch: also write a still of each video (the score card): <name>.png beside it, or this file for one video")
    .option("--poster-frame <n>", "with --poster: frame n (0-based) instead of the last", nonNegativeInt)
    .option("--dry-run", "batch: print the videos, their frame counts and shards, render nothing")
    .addHelpText("after", BATCH_HELP);
}

const isDir = (p: string): boolean => {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
};

/** A batch when -o is a folder or any batch option is given. */
export function isBatch(o: Opts): boolean {
  return (
    Boolean(o.all || o.dryRun || o.shard || o.videoFormat) ||
    Array.isArray(o.episode) ||
    [o.improved, o.regressed, o.maxMb, o.poster, o.posterFrame].some((x) => x !== undefined) ||
    (typeof o.out === "string" && (/[\\/]$/.test(o.out) || isDir(o.out)))
  );
}

/** Runs the batch when the options ask for one; returns false for the one-video render. */
export async function routeBatch(episodes: string[], o: Opts, cmd: Command): Promise<boolean> {
  if (!isBatch(o)) {
    if (o.episode === undefined)
      throw new GeoreplayError("give --episode <id|#n> (or, for many videos into -o DIR/: several --episode, --all, --improved N or --regressed N)");
    return false;
  }
  await renderBatch(episodes, o, cmd);
  return true;
}

function selectionOf(o: Opts): Selection {
  const wanted: string[] = o.episode === undefined ? [] : Array.isArray(o.episode) ? o.episode : [o.episode];
  const ways = [
    wanted.length > 0 && "--episode",
    o.all && "--all",
    o.improved !== undefined && "--improved",
    o.regressed !== undefined && "--regressed",
  ].filter(Boolean);
  if (ways.length !== 1)
    throw new GeoreplayError(
      ways.length === 0
        ? "a batch needs a selection: --episode (several), --all, --improved N or --regressed N"
        : `choose one selection, not ${ways.join(" and ")}`,
    );
  if (o.versus !== undefined || o.versusArm !== undefined)
    throw new GeoreplayError("--versus/--versus-arm render one pair; a batch of two-up videos is --improved N or --regressed N with --arm");
  const delta = o.improved !== undefined || o.regressed !== undefined;
  if (!delta && (o.arm !== undefined || o.pass !== undefined)) throw new GeoreplayError("--arm and --pass go with --improved/--regressed");
  if (o.all) return { by: "all" };
  if (!delta) return { by: "episodes", wanted };
  if (o.arm === undefined)
    throw new GeoreplayError(
      `${o.improved !== undefined ? "--improved" : "--regressed"} needs --arm <arm> (the arm whose per-task deltas against --baseline rank the tasks)`,
    );
  return {
    by: "delta",
    direction: o.improved !== undefined ? "improved" : "regressed",
    count: o.improved ?? o.regressed,
    arm: o.arm,
    baseline: o.baseline,
    pass: o.pass,
  };
}

const fmtTime = (s: number) =>
  s >= 3600
    ? `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`
    : s >= 60
      ? `${Math.floor(s / 60)}m${String(Math.round(s % 60)).padStart(2, "0")}s`
      : `${Math.round(s)}s`;

async function renderBatch(episodes: string[], o: Opts, cmd: Command): Promise<void> {
  const signal = interruptSignal();
  const selection = selectionOf(o);
  const format: VideoFormat = o.videoFormat ?? "mp4";
  if (typeof o.out === "string" && /\.(mp4|webm|gif|webp)$/i.test(o.out))
    throw new GeoreplayError(`-o ${o.out}: a batch writes into a folder (-o DIR/), one file per video`);
  const { checkBatchOptions, defaultsFor, planBatch, renderVideos } = await import("../batch/render-videos.ts");
  const poster: string | null = o.poster === undefined ? null : o.poster === true ? "beside" : o.poster;
  checkBatchOptions({ format, maxMb: o.maxMb, poster, posterFrame: o.posterFrame });
  const { parseShard } = await import("../../replay/batch/shard.ts");
  // gif/webp have their own default size and fps; an explicit --size or --fps wins.
  const defaults = await defaultsFor(format);
  const size = cmd.getOptionValueSource("size") === "default" ? defaults.size : o.size;
  const fps: number = cmd.getOptionValueSource("fps") === "default" ? defaults.fps : o.fps;
  const shard = o.shard ? parseShard(o.shard) : null;
  // A video-format-only --format leaves commander's empty placeholder behind.
  const inputFormat: InputFormat | undefined = o.format || undefined;
  const onNote = (note: string) => void process.stderr.write(note + "\n");

  if (o.dryRun) {
    const { planned, shards, mine } = await planBatch({ episodes, inputFormat, selection, shard, fps, format, signal, onNote });
    for (const [i, v] of planned.entries()) {
      if (shard && shards[i] !== shard.index - 1) continue;
      const line = {
        type: "plan",
        file: `${v.stem}.${format}`,
        kind: v.kind,
        episode_ids: v.sides.map((s) => s.episodeId),
        arms: v.sides.map((s) => s.arm),
        passes: v.sides.map((s) => s.sample),
        task: v.task,
        frames: v.frames,
        shard: shard ? `${shards[i] + 1}/${shard.count}` : null,
        problem: v.problem,
      };
      process.stdout.write(
        o.json
          ? JSON.stringify(line) + "\n"
          : `${line.file} · ${v.frames ?? "?"} frames${v.task ? ` · task ${v.task.index} delta ${v.task.delta.toFixed(4)}` : ""}${line.shard ? ` · shard ${line.shard}` : ""}${v.problem ? ` · cannot render: ${v.problem}` : ""}\n`,
      );
    }
    if (o.json)
      process.stdout.write(
        JSON.stringify({
          type: "summary",
          dry_run: true,
          videos: mine.length,
          selected: planned.length,
          frames: mine.reduce((n, v) => n + (v.frames ?? 0), 0),
          shard: o.shard ?? null,
        }) + "\n",
      );
    process.exitCode = 0;
    return;
  }

  const dir = resolve(o.out);
  const bar = progressBar("render", 1000, { enabled: o.progress !== false && Boolean(process.stderr.isTTY) });
  let finished = 0;
  const offBar = onInterrupt(() => {
    bar.stop();
    // interrupt.ts says no output was written: true of the video in progress, not of the ones before it.
    if (finished > 0)
      process.stderr.write(
        `georeplay: the ${finished} video(s) finished before the interrupt are kept and listed in ${join(dir, "manifest.json")}; rerun the same command to render the rest\n`,
      );
  });
  const t0 = performance.now();
  const say = (text: string) => {
    bar.stop();
    process.stdout.write(text);
  };
  const onVideo = (r: VideoOutcome) => {
    if (r.status === "written") finished++;
    if (o.json) return void process.stdout.write(JSON.stringify(videoLine(r)) + "\n");
    if (r.status === "failed") say(`FAILED ${r.file} (${r.failure.kind}): ${r.failure.message}\n`);
    else
      say(
        `${r.status === "written" ? "wrote" : "skipped (complete in manifest)"} ${relative(process.cwd(), resolve(dir, r.file))} · ${r.entry.frames} frames · ${r.entry.duration_s.toFixed(2)} s · ${r.entry.width}x${r.entry.height} · ${(r.entry.bytes / 1e6).toFixed(2)} MB${r.entry.sides.every((s) => s.verified) ? " · verified" : r.entry.sides.some((s) => s.source === "slideshow") ? " · slideshow" : " · UNVERIFIED"}${r.entry.notes.map((n) => `\n  note: ${n}`).join("")}\n`,
      );
  };
  let result;
  try {
    result = await renderVideos({
      episodes,
      tasks: o.tasks,
      panos: o.panos,
      inputFormat,
      selection,
      shard,
      dir,
      format,
      size,
      fps,
      unverified: Boolean(o.unverified),
      maxMb: o.maxMb,
      poster,
      posterFrame: o.posterFrame ?? null,
      engine: o.engine,
      preset: o.preset,
      jobs: o.jobs,
      concurrency: o.concurrency,
      signal,
      onNote,
      onWarning: (m) => process.stderr.write(`warning: ${m}\n`),
      onVideo,
      onProgress: (p) => {
        const f = p.framesTotal > 0 ? p.framesDone / p.framesTotal : 1;
        const el = (performance.now() - t0) / 1000;
        const eta = f > 0.01 ? ` · ETA ${fmtTime((el * (1 - f)) / f)}` : "";
        bar.update(Math.round(1000 * f), `videos ${p.videosDone}/${p.videosTotal} · frames ${p.framesDone}/${p.framesTotal}${eta}`);
      },
    });
  } finally {
    bar.stop();
    offBar();
  }
  const planned = result.plan.planned;
  const mine = result.plan.mine;
  const all = [...result.written, ...result.skipped];
  const videoSeconds = result.written.reduce((s, v) => s + v.duration_s, 0);
  const code = batchExitCode(result.failed);
  const summary = {
    type: "summary",
    dir,
    format,
    shard: o.shard ?? null,
    selected: planned.length,
    videos: mine.length,
    written: result.written.length,
    skipped: result.skipped.length,
    failed: result.failed.length,
    drift: result.failed.filter((f) => f.kind === "drift").length,
    input: result.failed.filter((f) => f.kind === "input").length,
    render: result.failed.filter((f) => f.kind === "render").length,
    frames: result.written.reduce((s, v) => s + v.frames, 0),
    video_s: Math.round(videoSeconds * 1000) / 1000,
    wall_s: Math.round(result.wallS * 10) / 10,
    realtime: result.wallS > 0 ? Math.round((videoSeconds / result.wallS) * 100) / 100 : null,
    bytes: all.reduce((s, v) => s + v.bytes, 0),
    exit_code: code,
  };
  if (o.json) process.stdout.write(JSON.stringify(summary) + "\n");
  else
    process.stdout.write(
      `${summary.written} written · ${summary.skipped} skipped · ${summary.failed} failed (${summary.drift} drift, ${summary.input} input, ${summary.render} render) of ${summary.videos}` +
        `${shard ? ` (shard ${o.shard} of ${summary.selected} selected)` : ""} · ${summary.video_s.toFixed(1)} s of video in ${summary.wall_s.toFixed(1)} s · manifest ${relative(process.cwd(), resolve(dir, "manifest.json"))}\n`,
    );
  process.exitCode = code;
}

function videoLine(r: VideoOutcome): Record<string, unknown> {
  if (r.status === "failed") {
    const v: PlannedVideo = r.video;
    return {
      type: "video",
      status: "failed",
      file: r.file,
      kind: v.kind,
      episode_ids: v.sides.map((s) => s.episodeId),
      error: { kind: r.failure.kind, message: r.failure.message },
    };
  }
  const e: ManifestVideo = r.entry;
  return { type: "video", status: r.status, ...e };
}
