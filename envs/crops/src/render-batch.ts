/**
 * `georeplay render` on a crops run with a batch's options (-o DIR/, several --episode, --all,
 * --shard, --poster, --dry-run): many videos into a folder with the core batch runner, printed as
 * GeoGuesser's batch is (src/commands/batch-output.ts): the same names, manifest, resume, progress,
 * --json lines and exit codes.
 */
import type { Command } from "commander";
import { resolve } from "node:path";
import { GeoreplayError } from "../../../replay/io/errors.ts";
import { parseShard } from "../../../replay/io/shard.ts";
import type { VideoFormat } from "../../../replay/batch/manifest-schema.ts";
import { givenFlags, splitFormats, type RenderCliOptions } from "../../../src/commands/options/render.ts";
import { interruptSignal } from "../../../src/commands/interrupt.ts";
import { printBatchPlan, runBatchCli } from "../../../src/commands/batch-output.ts";
import type { CropsSelection } from "../replay/batch.ts";

/** A batch's options that rank two-up videos by a board's deltas: GeoGuesser's, not yet a crops run's. */
const TWO_UP_BATCH: readonly [keyof RenderCliOptions, string][] = [
  ["improved", "--improved"],
  ["regressed", "--regressed"],
  ["arm", "--arm"],
];

function selectionOf(o: RenderCliOptions): CropsSelection {
  const clash = givenFlags(o, TWO_UP_BATCH);
  if (clash.length) throw new GeoreplayError(`${clash.join(", ")}: a crops batch renders single episodes (several --episode, or --all), not two-up videos`);
  const wanted = o.episode ?? [];
  if (o.all && wanted.length > 0) throw new GeoreplayError("choose one selection, not --episode and --all");
  if (o.all) return { by: "all" };
  if (wanted.length === 0) throw new GeoreplayError("a batch needs a selection: --episode (several) or --all");
  return { by: "episodes", wanted };
}

/** Many crops videos into -o DIR/ (or the plan, with --dry-run). */
export async function renderCropsBatch(inputs: string[], o: RenderCliOptions, cmd: Command): Promise<void> {
  const selection = selectionOf(o);
  const { videoFormat } = splitFormats(o.format);
  const format: VideoFormat = videoFormat ?? "mp4";
  const poster: string | null = o.poster === undefined ? null : o.poster === true ? "beside" : o.poster;
  const { checkBatchOptions } = await import("../../../src/batch/check-options.ts");
  checkBatchOptions({ format, maxMb: o.maxMb, poster, posterFrame: o.posterFrame });
  const shard = o.shard ? parseShard(o.shard) : null;
  const { defaultsFor } = await import("../../../src/film/render-file.ts");
  // gif/webp have their own default size and fps; an explicit --size or --fps wins.
  const defaults = await defaultsFor(format);
  const settings = {
    inputs,
    dataset: o.dataset,
    selection,
    format,
    shard,
    size: cmd.getOptionValueSource("size") === "default" ? defaults.size : o.size,
    fps: cmd.getOptionValueSource("fps") === "default" ? defaults.fps : o.fps,
    signal: interruptSignal(),
  };
  const { planCropsBatch, renderCropsVideos } = await import("./batch/render-videos.ts");
  if (o.dryRun) return printBatchPlan(await planCropsBatch(settings), format, shard, o);
  const dir = resolve(o.out);
  await runBatchCli(dir, o, settings, (cb) =>
    renderCropsVideos({
      ...settings,
      dir,
      unverified: Boolean(o.unverified),
      maxMb: o.maxMb,
      poster,
      posterFrame: o.posterFrame ?? null,
      preset: o.preset,
      ...cb,
    }),
  );
}
