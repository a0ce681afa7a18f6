/**
 * `georeplay render ... -o DIR/` with a selection: many videos in one process
 * (batch/run-batch.ts). The render command calls routeBatch() first thing; the options are
 * declared in src/commands/options/render.ts, and whether a render is a batch is decided there too
 * (src/commands/render-batch.ts: before any work).
 */
import { Command } from "commander";
import { resolve } from "node:path";
import { GeoreplayError } from "../../../replay/io/errors.ts";
import type { VideoFormat } from "../../../replay/batch/manifest-schema.ts";
import type { Selection } from "../replay/batch/select.ts";
import { splitFormats, type RenderCliOptions } from "../../../src/commands/options/render.ts";
import { isBatch } from "../../../src/commands/render-batch.ts";
import { warn } from "../../../src/commands/options/shared.ts";
import { interruptSignal } from "../../../src/commands/interrupt.ts";
import { printBatchPlan, runBatchCli } from "../../../src/commands/batch-output.ts";

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

async function renderBatch(episodes: string[], o: RenderCliOptions, cmd: Command): Promise<void> {
  const settings = await batchSettings(episodes, o, cmd);
  if (o.dryRun) {
    const { planBatch } = await import("./batch/render-videos.ts");
    return printBatchPlan(await planBatch(settings), settings.format, settings.shard, o);
  }
  const dir = resolve(o.out);
  const { renderVideos } = await import("./batch/render-videos.ts");
  await runBatchCli(dir, o, settings, (cb) =>
    renderVideos({ ...o, ...settings, dir, unverified: Boolean(o.unverified), posterFrame: o.posterFrame ?? null, onWarning: warn, ...cb }),
  );
}
