/**
 * `georeplay render` on a crops (detection gym) run: one episode (--episode) or one GRPO group
 * (--group), with either engine (native, or Remotion when installed), to an MP4 or the format its
 * name asks for; or many episodes into a folder (render-batch.ts). Same exit codes as GeoGuesser's
 * render: 0 written, 1 a view drifted (unless --unverified), 2 bad input.
 */
import type { Command } from "commander";
import { relative } from "node:path";
import { GeoreplayError } from "../../../replay/io/errors.ts";
import { warn, withProgress } from "../../../src/commands/options/shared.ts";
import { givenFlags, OTHER_VIDEOS, splitFormats, type RenderCliOptions } from "../../../src/commands/options/render.ts";
import { interruptSignal } from "../../../src/commands/interrupt.ts";
import { isBatch } from "../../../src/commands/render-batch.ts";
import type { RenderCropsResult } from "./film/render-crops.ts";
import type { Encoded } from "../../../src/ffmpeg/transcode.ts";
import type { Progress } from "../../../src/commands/progress.ts";

/** GeoGuesser's render options that choose what a crops video has no use for (yet: a two-up). */
const NOT_FOR_CROPS: readonly [keyof RenderCliOptions, string][] = [
  ["tasks", "--tasks"],
  ["panos", "--panos"],
  ["versus", "--versus"],
  ["versusArm", "--versus-arm"],
  ["pass", "--pass"],
];

export async function renderCropsCommand(inputs: string[], o: RenderCliOptions, command: Command): Promise<void> {
  const clash = givenFlags(o, NOT_FOR_CROPS);
  if (clash.length)
    throw new GeoreplayError(
      `a crops run renders episodes (--episode, or many into -o DIR/) or one group (--group); ${clash.join(", ")} ${clash.length > 1 ? "are" : "is"} not for crops runs`,
    );
  if (o.group !== undefined) {
    const others = givenFlags(o, [["episode", "--episode"], ...OTHER_VIDEOS]);
    if (others.length) throw new GeoreplayError(`--group renders one group's siblings; it does not go with ${others.join(", ")}`);
  } else {
    if (o.scaleRewards !== undefined) throw new GeoreplayError("--scale-rewards goes with --group (the advantages a group video shows)");
    if (isBatch(o)) return (await import("./render-batch.ts")).renderCropsBatch(inputs, o, command);
  }
  if (/[\\/]$/.test(o.out)) throw new GeoreplayError(`-o ${o.out}: a crops render writes one file; give a file name such as ${o.out}episode.mp4`);
  if (o.group === undefined && o.episode === undefined)
    throw new GeoreplayError(
      "give --episode <id|#n> (or --group <step/split/index> for a training run; for many videos into -o DIR/: several --episode, or --all)",
    );
  const { videoFormat } = splitFormats(o.format);
  const { defaultsFor, fileFormat, renderAsFile } = await import("../../../src/film/render-file.ts");
  const format = fileFormat(o.out, videoFormat);
  const defaults = await defaultsFor(format);
  const common = {
    inputs,
    dataset: o.dataset,
    engine: o.engine,
    preset: o.preset,
    size: command.getOptionValueSource("size") === "default" ? defaults.size : o.size,
    fps: command.getOptionValueSource("fps") === "default" ? defaults.fps : o.fps,
    unverified: Boolean(o.unverified),
    signal: interruptSignal(),
    onWarning: warn,
  };
  await withProgress("render", o, async (bar) => {
    const film = async (out: string): Promise<RenderCropsResult> =>
      o.group !== undefined
        ? (await import("./film/render-crops-group.ts")).renderCropsGroupMp4({
            ...common,
            group: o.group,
            scaleRewards: o.scaleRewards,
            onProgress: onStage(bar),
            out,
          })
        : (await import("./film/render-crops.ts")).renderCropsMp4({ ...common, episode: o.episode![0], onProgress: onStage(bar), out });
    if (format === "mp4") return report(o, await film(o.out), null);
    const file = { maxMb: o.maxMb, signal: common.signal };
    const { result, encoded } = await renderAsFile(o.out, format, file, film, (r) => ({ ...r.size, fps: r.fps, frames: r.frames }));
    return report(o, { ...result, out: o.out }, { format, encoded });
  });
}

function report(o: RenderCliOptions, r: RenderCropsResult, f: { format: string; encoded: Encoded } | null): void {
  const where = relative(process.cwd(), r.out) || r.out;
  const verified = r.unverified.length === 0;
  if (o.json) {
    const body = {
      env: "crops",
      out: r.out,
      kind: r.kind,
      episodes: r.episodes,
      verified,
      unverified_episodes: r.unverified,
      frames: f ? f.encoded.frames : r.frames,
      fps: f ? f.encoded.fps : r.fps,
      width: f ? f.encoded.width : r.size.width,
      height: f ? f.encoded.height : r.size.height,
      duration_s: f ? f.encoded.durationS : r.frames / r.fps,
      format: f ? f.format : "mp4",
      painted: r.painted,
      frames_ms: Math.round(r.framesMs),
      render_ms: Math.round(r.renderMs),
    };
    process.stdout.write(`${JSON.stringify(body, null, 2)}\n`);
    return;
  }
  const head = f
    ? `wrote ${where} · ${f.format} · ${f.encoded.frames} frames · ${f.encoded.durationS.toFixed(2)} s at ${f.encoded.fps} fps · ${f.encoded.width}x${f.encoded.height} · ${(f.encoded.bytes / 1e6).toFixed(2)} MB${f.encoded.notes.map((n) => `\nnote: ${n}`).join("")}`
    : `wrote ${where} · ${r.frames} frames · ${(r.frames / r.fps).toFixed(2)} s at ${r.fps} fps · ${r.size.width}x${r.size.height} · h264 yuv420p`;
  process.stdout.write(
    `${head} · crops ${r.kind === "group" ? `group of ${r.episodes.length}` : "episode"} · ${verified ? "verified replay" : `UNVERIFIED REPLAY (${r.unverified.join(", ")})`}` +
      `${r.lines.map((l) => `\n${l}`).join("")}` +
      `\nframes ${(r.framesMs / 1000).toFixed(1)} s · video ${(r.renderMs / 1000).toFixed(1)} s (${(r.frames / (r.renderMs / 1000)).toFixed(1)} fps; ${r.painted} distinct frames painted, held frames repeated; --engine ${o.engine})\n`,
  );
}

function onStage(bar: Progress) {
  return (stage: "frames" | "bundle" | "render", done: number, total: number) => {
    const [a, b] = stage === "frames" ? [0, 300] : [300, 1000];
    const k = total > 0 ? Math.min(1, done / total) : 1;
    bar.update(Math.round(a + (b - a) * k), stage === "frames" ? `frame files ${done}/${total}` : `video frames ${done}/${total}`);
  };
}
