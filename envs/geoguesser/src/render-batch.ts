/**
 * `georeplay render ... -o DIR/` with a selection: many videos in one process
 * (batch/run-batch.ts). The render command calls routeBatch() first thing; the options are
 * declared in src/commands/options/render.ts, and whether a render is a batch is decided there too
 * (src/commands/render-batch.ts: before any work).
 */
import { Command } from "commander";
import { join, relative, resolve } from "node:path";
import { GeoreplayError } from "../../../replay/io/errors.ts";
import type { VideoFormat } from "../../../replay/batch/manifest-schema.ts";
import type { Selection } from "../replay/batch/select.ts";
import { splitFormats, type RenderCliOptions } from "../../../src/commands/options/render.ts";
import { isBatch } from "../../../src/commands/render-batch.ts";
import { warn } from "../../../src/commands/options/shared.ts";
import { interruptSignal, onInterrupt } from "../../../src/commands/interrupt.ts";
import { progressBar } from "../../../src/commands/progress.ts";
import type { VideoOutcome } from "./batch/run-batch.ts";
import { batchSummary, planLine, planSummary, videoLine } from "./reports/batch.ts";

/** Runs the batch when the options ask for one; returns false for the one-video render. */
export async function routeBatch(episodes: string[], o: RenderCliOptions, cmd: Command): Promise<boolean> {
  if (!isBatch(o)) {
    if (o.episode === undefined)
      throw new GeoreplayError("give --episode <id|#n> (or, for many videos into -o DIR/: several --episode, --all, --improved N or --regressed N)");
    return false;
  }
  await renderBatch(episodes, o, cmd);
  return true;
}

function selectionOf(o: RenderCliOptions): Selection {
  const wanted = o.episode ?? [];
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
    count: (o.improved ?? o.regressed)!,
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

/** What a batch run is given, from the options: selection, format, size and rate, shard. */
async function batchSettings(episodes: string[], o: RenderCliOptions, cmd: Command) {
  const selection = selectionOf(o);
  const { inputFormat, videoFormat } = splitFormats(o.format);
  const format: VideoFormat = videoFormat ?? "mp4";
  const { checkBatchOptions } = await import("./batch/render-videos.ts");
  const { defaultsFor } = await import("../../../src/film/render-file.ts");
  const poster: string | null = o.poster === undefined ? null : o.poster === true ? "beside" : o.poster;
  checkBatchOptions({ format, maxMb: o.maxMb, poster, posterFrame: o.posterFrame });
  const { parseShard } = await import("../replay/batch/shard.ts");
  // gif/webp have their own default size and fps; an explicit --size or --fps wins.
  const defaults = await defaultsFor(format);
  return {
    episodes,
    inputFormat,
    selection,
    format,
    poster,
    size: cmd.getOptionValueSource("size") === "default" ? defaults.size : o.size,
    fps: cmd.getOptionValueSource("fps") === "default" ? defaults.fps : o.fps,
    shard: o.shard ? parseShard(o.shard) : null,
    signal: interruptSignal(),
    onNote: (note: string) => void process.stderr.write(note + "\n"),
  };
}

type BatchSettings = Awaited<ReturnType<typeof batchSettings>>;

async function renderBatch(episodes: string[], o: RenderCliOptions, cmd: Command): Promise<void> {
  const settings = await batchSettings(episodes, o, cmd);
  if (o.dryRun) return printPlan(settings, o);
  const dir = resolve(o.out);
  const { renderVideos } = await import("./batch/render-videos.ts");
  const t0 = performance.now();
  const { bar, onVideo, dispose } = batchProgress(dir, o);
  let result;
  try {
    result = await renderVideos({
      ...o,
      ...settings,
      dir,
      unverified: Boolean(o.unverified),
      posterFrame: o.posterFrame ?? null,
      onWarning: warn,
      onVideo,
      onProgress: (p) => {
        const f = p.framesTotal > 0 ? p.framesDone / p.framesTotal : 1;
        const el = (performance.now() - t0) / 1000;
        const eta = f > 0.01 ? ` · ETA ${fmtTime((el * (1 - f)) / f)}` : "";
        bar.update(Math.round(1000 * f), `videos ${p.videosDone}/${p.videosTotal} · frames ${p.framesDone}/${p.framesTotal}${eta}`);
      },
    });
  } finally {
    dispose();
  }
  const summary = batchSummary(result, { dir, format: settings.format, shard: o.shard ?? null });
  if (o.json) process.stdout.write(JSON.stringify(summary) + "\n");
  else
    process.stdout.write(
      `${summary.written} written · ${summary.skipped} skipped · ${summary.failed} failed (${summary.drift} drift, ${summary.input} input, ${summary.render} render) of ${summary.videos}` +
        `${settings.shard ? ` (shard ${o.shard} of ${summary.selected} selected)` : ""} · ${summary.video_s.toFixed(1)} s of video in ${summary.wall_s.toFixed(1)} s · manifest ${relative(process.cwd(), resolve(dir, "manifest.json"))}\n`,
    );
  process.exitCode = summary.exit_code;
}

/** `--dry-run`: the selection with frame counts and shards, one line (or JSON line) each, then a summary. */
async function printPlan(s: BatchSettings, o: RenderCliOptions): Promise<void> {
  const { planBatch } = await import("./batch/render-videos.ts");
  const { planned, shards, mine } = await planBatch(s);
  for (const [i, v] of planned.entries()) {
    if (s.shard && shards[i] !== s.shard.index - 1) continue;
    const line = planLine(v, s.format, s.shard ? `${shards[i] + 1}/${s.shard.count}` : null);
    process.stdout.write(
      o.json
        ? JSON.stringify(line) + "\n"
        : `${line.file} · ${v.frames ?? "?"} frames${v.task ? ` · task ${v.task.index} delta ${v.task.delta.toFixed(4)}` : ""}${line.shard ? ` · shard ${line.shard}` : ""}${v.problem ? ` · cannot render: ${v.problem}` : ""}\n`,
    );
  }
  if (o.json) process.stdout.write(JSON.stringify(planSummary(planned, mine, o.shard ?? null)) + "\n");
  process.exitCode = 0;
}

/** The batch's progress bar, its per-video lines, and what an interrupt says about the videos already finished. */
function batchProgress(dir: string, o: RenderCliOptions) {
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
  return {
    bar,
    onVideo,
    dispose: () => {
      bar.stop();
      offBar();
    },
  };
}
