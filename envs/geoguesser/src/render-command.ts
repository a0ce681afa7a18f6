/**
 * `georeplay render` on GeoGuesser runs: one episode, a two-up (--versus, --versus-arm) or a GRPO
 * group (--group) to an MP4 or the format its name asks for, or many into a folder (-o DIR/). The
 * command's shared parts (flags, --help, the -o check, the font warning) are src/commands/render.ts.
 */
import type { Command } from "commander";
import { relative } from "node:path";
import type { VideoFormat } from "../../../replay/batch/manifest-schema.ts";
import { GeoreplayError } from "../../../replay/io/errors.ts";
import { warn, withProgress } from "../../../src/commands/options/shared.ts";
import { givenFlags, OTHER_VIDEOS, splitFormats, type RenderCliOptions } from "../../../src/commands/options/render.ts";
import { interruptSignal } from "../../../src/commands/interrupt.ts";
import type { Progress } from "../../../src/commands/progress.ts";
import type { Size } from "../../../src/film/size.ts";
import type { RenderStage } from "../../../src/film/film-prepared.ts";
import type { Encoded } from "../../../src/ffmpeg/transcode.ts";
// Remotion, webpack and the renderer load only when a render runs.
import type { RenderEpisodeResult } from "./film/render-episode.ts";
import type { RenderCompareResult } from "./film/render-compare.ts";
import type { RenderGroupResult } from "./film/render-group.ts";
import { routeBatch } from "./render-batch.ts";

const STAGE_SPAN: Record<RenderStage, [number, number]> = { frames: [0, 300], bundle: [300, 350], render: [350, 1000] };

export async function renderCommand(episodes: string[], o: RenderCliOptions, command: Command): Promise<void> {
  if (o.dataset !== undefined) throw new GeoreplayError("--dataset is for crops runs; a GeoGuesser run reads --tasks and --panos");
  if (o.group !== undefined) return renderGroupOne(episodes, o, command);
  if (o.scaleRewards !== undefined) throw new GeoreplayError("--scale-rewards goes with --group (the advantages a group video shows)");
  if (await routeBatch(episodes, o, command)) return;
  await renderOne(episodes, o, command);
}

/** One video: single or two-up, MP4 or the format its name asks for. */
async function renderOne(episodes: string[], o: RenderCliOptions, command: Command): Promise<void> {
  const { inputFormat, videoFormat } = splitFormats(o.format);
  const { defaultsFor, fileFormat, renderAsFile } = await import("../../../src/film/render-file.ts");
  const format = fileFormat(o.out, videoFormat);
  const two = o.versus !== undefined || o.versusArm !== undefined || o.pass !== undefined;
  const defaults = await defaultsFor(format);
  const common = {
    ...o,
    episodes,
    episode: o.episode![0],
    format: inputFormat,
    // gif/webp have their own default size and fps; an explicit --size or --fps wins.
    size: command.getOptionValueSource("size") === "default" ? defaults.size : o.size,
    fps: command.getOptionValueSource("fps") === "default" ? defaults.fps : o.fps,
    unverified: Boolean(o.unverified),
    signal: interruptSignal(),
    onWarning: warn,
  };
  await withProgress("render", o, async (bar) => {
    const progress = { onProgress: onStage(bar) };
    const single = async (out: string) => (await import("./film/render-episode.ts")).renderEpisodeMp4({ ...common, ...progress, out });
    const pair = async (out: string) => (await import("./film/render-compare.ts")).renderCompareMp4({ ...common, ...progress, out });
    if (format === "mp4") {
      if (two) return reportCompare(o, await pair(o.out), null);
      return reportSingle(o, await single(o.out), null);
    }
    const file = { maxMb: o.maxMb, signal: common.signal };
    if (two) {
      const { result, encoded } = await renderAsFile(o.out, format, file, pair, (r) => ({ ...r.size, fps: r.fps, frames: r.frames }));
      return reportCompare(o, { ...result, out: o.out }, { format, encoded });
    }
    const { result, encoded } = await renderAsFile(o.out, format, file, single, (r) => ({ ...r.size, fps: r.timeline.fps, frames: r.timeline.totalFrames }));
    return reportSingle(o, { ...result, out: o.out }, { format, encoded });
  });
}

/** Options that choose other videos than a group's. */
const NOT_WITH_GROUP: readonly [keyof RenderCliOptions, string][] = [["episode", "--episode"], ...OTHER_VIDEOS];

/** One group video (--group): MP4 or the format its name asks for. */
async function renderGroupOne(episodes: string[], o: RenderCliOptions, command: Command): Promise<void> {
  const clash = givenFlags(o, NOT_WITH_GROUP);
  if (clash.length) throw new GeoreplayError(`--group renders one group's siblings; it does not go with ${clash.join(", ")}`);
  if (/[\\/]$/.test(o.out)) throw new GeoreplayError(`-o ${o.out}: --group writes one file; give a file name such as ${o.out}group.mp4`);
  const { inputFormat, videoFormat } = splitFormats(o.format);
  const { defaultsFor, fileFormat, renderAsFile } = await import("../../../src/film/render-file.ts");
  const format = fileFormat(o.out, videoFormat);
  const defaults = await defaultsFor(format);
  const common = {
    ...o,
    episodes,
    group: o.group!,
    format: inputFormat,
    size: command.getOptionValueSource("size") === "default" ? defaults.size : o.size,
    fps: command.getOptionValueSource("fps") === "default" ? defaults.fps : o.fps,
    unverified: Boolean(o.unverified),
    signal: interruptSignal(),
    onWarning: warn,
  };
  await withProgress("render", o, async (bar) => {
    const grid = async (out: string) => (await import("./film/render-group.ts")).renderGroupMp4({ ...common, onProgress: onStage(bar), out });
    if (format === "mp4") return reportGroup(o, await grid(o.out), null);
    const file = { maxMb: o.maxMb, signal: common.signal };
    const { result, encoded } = await renderAsFile(o.out, format, file, grid, (r) => ({ ...r.size, fps: r.fps, frames: r.frames }));
    return reportGroup(o, { ...result, out: o.out }, { format, encoded });
  });
}

type AsFile = { format: VideoFormat; encoded: Encoded } | null;

const fileLine = (out: string, f: AsFile, frames: number, fps: number, size: Size) =>
  f
    ? `wrote ${relative(process.cwd(), out) || out} · ${f.format} · ${f.encoded.frames} frames · ${f.encoded.durationS.toFixed(2)} s at ${f.encoded.fps} fps · ${f.encoded.width}x${f.encoded.height} · ${(f.encoded.bytes / 1e6).toFixed(2)} MB${f.encoded.notes.map((n) => `\nnote: ${n}`).join("")}`
    : `wrote ${relative(process.cwd(), out) || out} · ${frames} frames · ${(frames / fps).toFixed(2)} s at ${fps} fps · ${size.width}x${size.height} · h264 yuv420p`;

async function reportSingle(o: RenderCliOptions, r: RenderEpisodeResult, f: AsFile): Promise<void> {
  if (o.json) {
    const { renderReport, asFileReport } = await import("./reports/render.ts");
    const report = renderReport(o.out, r, undefined, warn);
    process.stdout.write(`${JSON.stringify(f ? asFileReport(report, f.format, f.encoded) : report, null, 2)}\n`);
    return;
  }
  const t = r.timeline;
  process.stdout.write(
    fileLine(r.out, f, t.totalFrames, t.fps, r.size) +
      `${t.episode.source === "slideshow" ? " · slideshow of recorded images (not a replay)" : t.episode.verified ? " · verified replay" : " · UNVERIFIED REPLAY"}` +
      `\nframes ${(r.framesMs / 1000).toFixed(1)} s · video ${(r.renderMs / 1000).toFixed(1)} s (${(t.totalFrames / (r.renderMs / 1000)).toFixed(1)} fps; ${r.painted} distinct frames painted, held frames repeated; --engine ${o.engine})\n`,
  );
}

async function reportCompare(o: RenderCliOptions, r: RenderCompareResult, f: AsFile): Promise<void> {
  if (o.json) {
    const { compareReport } = await import("./reports/compare.ts");
    const { asFileReport } = await import("./reports/render.ts");
    const report = compareReport(o.out, r, undefined, warn);
    process.stdout.write(`${JSON.stringify(f ? asFileReport(report, f.format, f.encoded) : report, null, 2)}\n`);
    return;
  }
  const state = (s: (typeof r.sides)[number]) => {
    const e = s.gen.timeline.episode;
    return `${s.arm} pass ${s.pass ?? "—"} ${e.episodeId} (${e.source === "slideshow" ? "slideshow of recorded images" : e.verified ? "verified replay" : "UNVERIFIED REPLAY"})`;
  };
  process.stdout.write(
    fileLine(r.out, f, r.frames, r.fps, r.size) +
      " · two-up" +
      `\nA: ${state(r.sides[0])}\nB: ${state(r.sides[1])}` +
      `${r.props.a.timeline.episode.index !== r.props.b.timeline.episode.index || r.props.a.timeline.episode.split !== r.props.b.timeline.episode.split ? "\nnote: the two episodes are of different tasks (said on screen)" : ""}` +
      `\nframes ${(r.framesMs / 1000).toFixed(1)} s · video ${(r.renderMs / 1000).toFixed(1)} s (${(r.frames / (r.renderMs / 1000)).toFixed(1)} fps; ${r.painted} distinct frames painted, held frames repeated; --engine ${o.engine})\n`,
  );
}

async function reportGroup(o: RenderCliOptions, r: RenderGroupResult, f: AsFile): Promise<void> {
  if (o.json) {
    const { groupReport } = await import("./reports/group.ts");
    const { asFileReport } = await import("./reports/render.ts");
    const { gridShape } = await import("../../../video/parts/group-grid.ts");
    const report = groupReport(o.out, r, gridShape(r.siblings.length, r.size.width, r.size.height), undefined, warn);
    process.stdout.write(`${JSON.stringify(f ? asFileReport(report, f.format, f.encoded) : report, null, 2)}\n`);
    return;
  }
  const g = r.props.group;
  const lines = r.siblings.map((s, i) => {
    const e = s.gen.timeline.episode;
    const adv = r.props.siblings[i].advantage;
    return `#${i + 1} ${s.rollout} reward ${s.reward.toFixed(4)} advantage ${adv >= 0 ? "+" : ""}${adv.toFixed(2)} (${e.verified ? "verified replay" : "UNVERIFIED REPLAY"})`;
  });
  process.stdout.write(
    fileLine(r.out, f, r.frames, r.fps, r.size) +
      ` · group ${g.step}/${g.split}/${g.index} of ${r.siblings.length}` +
      `\nmean ${g.mean.toFixed(4)} · std ${g.std === null ? "-" : g.std.toFixed(4)}${g.zeroStd ? " (zero spread)" : ""} · scale_rewards ${g.scaleRewards}\n` +
      lines.join("\n") +
      `\nframes ${(r.framesMs / 1000).toFixed(1)} s · video ${(r.renderMs / 1000).toFixed(1)} s (${(r.frames / (r.renderMs / 1000)).toFixed(1)} fps; ${r.painted} distinct frames painted, held frames repeated; --engine ${o.engine})\n`,
  );
}

function onStage(bar: Progress) {
  return (stage: RenderStage, done: number, total: number) => {
    const [a, b] = STAGE_SPAN[stage];
    const f = total > 0 ? Math.min(1, done / total) : 1;
    const detail = stage === "frames" ? `frame files ${done}/${total}` : stage === "bundle" ? "bundling" : `video frames ${done}/${total}`;
    bar.update(Math.round(a + (b - a) * f), detail);
  };
}
