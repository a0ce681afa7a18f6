/** `georeplay render`: one recorded episode to an MP4 (verified frames, scenes painted natively or with Remotion, x264), or many into a folder. */
import { Command } from "commander";
import { dirname, relative, resolve } from "node:path";
import type { VideoFormat } from "../../replay/batch/manifest-schema.ts";
import { replayAction, warn, withProgress } from "./options/shared.ts";
import { declareOptions } from "./options/declare.ts";
import { BATCH_HELP, RENDER_OPTIONS, splitFormats, type RenderCliOptions } from "./options/render.ts";
import { interruptSignal } from "./interrupt.ts";
import type { Size } from "../film/size.ts";
import { isBatch, routeBatch } from "./render-batch.ts";
import { outFolder } from "./options/out.ts";
// Remotion, webpack and the renderer load only when a render runs.
import type { RenderEpisodeResult } from "../film/render-episode.ts";
import type { RenderStage } from "../film/film-prepared.ts";
import type { RenderCompareResult } from "../film/render-compare.ts";
import type { RenderGroupResult } from "../film/render-group.ts";
import { GeoreplayError } from "../../replay/io/errors.ts";
import type { Encoded } from "../ffmpeg/transcode.ts";
import type { Progress } from "./progress.ts";
import { filmingEnvironment } from "./options/filmed-env.ts";

const STAGE_SPAN: Record<RenderStage, [number, number]> = { frames: [0, 300], bundle: [300, 350], render: [350, 1000] };

export function registerRender(program: Command): void {
  const cmd = program
    .command("render")
    .summary("render one recorded episode to an MP4 (verified replay, HUD, trace, map, score card)")
    .description(
      "Verifies the episode's views and renders its camera path (as `georeplay frames` does, into a\n" +
        "temporary folder), then paints every distinct frame in Node (Skia, the default --engine native)\n" +
        "and encodes it with ffmpeg's libx264 (CRF 18, --preset medium, yuv420p, bt709, +faststart; its\n" +
        "frame threads fixed per preset, so the same inputs give the same MP4 on any machine). No\n" +
        "browser, no server, no port. The file appears only when complete: a failed or interrupted render\n" +
        "leaves nothing at the output path and no temporary folders behind. -o clip.gif, .webp or .webm\n" +
        "writes that one file in that format (gif/webp: 480x270 at 10 fps, fitted to --max-mb).\n\n" +
        "-o is checked before any work, as page and frames check theirs: a missing folder on the way to\n" +
        "it is created and said on stderr (and removed again if the render fails); a place that cannot be\n" +
        "written (under a file, read-only) is exit 2 at once.\n\n" +
        "An example-rollout episode (recorded images, no hashes) becomes a slideshow of its images,\n" +
        "labelled RECORDED IMAGES · NOT A REPLAY on every frame, and needs no --tasks/--panos.\n\n" +
        "ffmpeg: $GEOREPLAY_FFMPEG, else ffmpeg-static's, else ffmpeg on PATH (apt-get install ffmpeg);\n" +
        "it runs with GLIBC_TUNABLES keeping the memory it frees (~10% faster here), unless you set it.\n" +
        "--engine remotion draws the same scenes in the Remotion composition with Chromium\n" +
        "($GEOREPLAY_CHROMIUM or /usr/bin/chromium); it needs Remotion installed, whose licence is not\n" +
        "open source (free for individuals, non-profits and companies of up to 3 people).\n\n" +
        "Exit codes: 0 written; 1 a view drifted from its recorded hash (use --unverified to render it\n" +
        "anyway, marked UNVERIFIED REPLAY); 2 bad input or the renderer could not run.\n\n" +
        "--json prints one object on stdout once the MP4 is written (docs/json-reports.md).\n\n" +
        "Two-up (before and after): --versus <id|#n> puts a second episode, from any of the inputs,\n" +
        "beside --episode on one turn-aligned clock (the Compare composition); --versus-arm <arm>\n" +
        "[--pass n] picks that arm's (model_name's) attempt at the same task instead. Both sides are\n" +
        "verified; --unverified stamps the side that drifted. Different tasks are allowed and said on screen.\n\n" +
        "Group (GRPO): --group <step>/<split>/<index> with training rollouts*.jsonl (several ranks, or\n" +
        "their folder) puts the group's siblings (the rollouts of that step on that task, as `georeplay\n" +
        "groups` groups them) in a grid on one turn-aligned clock (2 -> 1x2, 3-4 -> 2x2, 5-8 -> 2x4,\n" +
        "9-16 -> 4x4), each tile's HUD with its reward and advantage, then one score card ranking them\n" +
        "with every guess on one map. --scale-rewards group|batch|none: the advantages, as TRL. A group\n" +
        "that is not there is exit 2, with the groups nearby listed.\n\n" +
        'A crops (detection gym) run (records with env "crops") films one --episode (the camera easing\n' +
        "between the recorded views, the boxes drawn in their labels' colours, the HUD with the thumbnail\n" +
        "and the running shaping sum, the trace, then a score card of matches, misses and false alarms)\n" +
        "or one --group (the siblings in a grid, then a card ranking them); its dataset is --dataset\n" +
        "(default: the run folder's parent); native engine only, one video at a time (docs/crops.md).",
    )
    .argument("<inputs...>", "recordings: eval episodes.jsonl, training rollouts*.jsonl (or a run's folder of them), an example-rollout or sweep folder");
  declareOptions(cmd, RENDER_OPTIONS)
    .addHelpText("after", BATCH_HELP)
    .addHelpText(
      "after",
      "\nExamples:\n" +
        "  georeplay render run/episodes.jsonl --episode 90a9d3eba5ce --tasks tasks/ --panos panos/ -o rollout.mp4\n" +
        "  georeplay render run/episodes.jsonl --episode '#2' --tasks tasks.jsonl --panos panos/ -o small.mp4 --size 854x480 --fps 24\n" +
        "  georeplay render run/episodes.jsonl --episode 90a9d3eba5ce --tasks tasks/ --panos panos/ -o preview.gif\n" +
        "  georeplay render base/ ckpt200/ --episode 5e3f5bd32061 --versus-arm ckpt200 --tasks tasks/ --panos panos/ -o two-up.mp4\n" +
        "  georeplay render run/traces/ --group 12/eval/3 --tasks tasks/ --panos panos/ -o group.mp4\n" +
        "  georeplay render crops/eval/episodes.jsonl --episode c46800576146 -o crops.mp4\n" +
        "  georeplay render crops/train/ --group 0/train/0 -o crops-group.mp4",
    )
    .action(
      replayAction<RenderCliOptions>(async (episodes, o, command) => {
        const env = await filmingEnvironment("render", episodes);
        // The place the video goes, checked before any work: -o DIR/ (a batch) is a folder itself, else the file's folder.
        if (o.group === undefined && isBatch(o)) outFolder(`-o ${o.out}`, o.out, true);
        else outFolder(`-o ${o.out}`, dirname(resolve(o.out)));
        await warnMissingFonts();
        // An environment that films its own runs (crops) takes them here; GeoGuesser's go on through the core's pipeline.
        if (env?.render) return env.render(episodes, o, command);
        if (o.dataset !== undefined) throw new GeoreplayError("--dataset is for crops runs; a GeoGuesser run reads --tasks and --panos");
        if (o.group !== undefined) return renderGroupOne(episodes, o, command);
        if (o.scaleRewards !== undefined) throw new GeoreplayError("--scale-rewards goes with --group (the advantages a group video shows)");
        if (await routeBatch(episodes, o, command)) return;
        await renderOne(episodes, o, command);
      }),
    );
}

/** One video: single or two-up, MP4 or the format its name asks for. */
async function renderOne(episodes: string[], o: RenderCliOptions, command: Command): Promise<void> {
  const { inputFormat, videoFormat } = splitFormats(o.format);
  const { fileFormat, renderAsFile } = await import("../film/render-file.ts");
  const format = fileFormat(o.out, videoFormat);
  const two = o.versus !== undefined || o.versusArm !== undefined || o.pass !== undefined;
  const { defaultsFor } = await import("../batch/render-videos.ts");
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
    const single = async (out: string) => (await import("../film/render-episode.ts")).renderEpisodeMp4({ ...common, ...progress, out });
    const pair = async (out: string) => (await import("../film/render-compare.ts")).renderCompareMp4({ ...common, ...progress, out });
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
const NOT_WITH_GROUP: [keyof RenderCliOptions, string][] = [
  ["episode", "--episode"],
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

/** One group video (--group): MP4 or the format its name asks for. */
async function renderGroupOne(episodes: string[], o: RenderCliOptions, command: Command): Promise<void> {
  const clash = NOT_WITH_GROUP.filter(([k]) => o[k] !== undefined).map(([, flag]) => flag);
  if (clash.length) throw new GeoreplayError(`--group renders one group's siblings; it does not go with ${clash.join(", ")}`);
  if (/[\\/]$/.test(o.out)) throw new GeoreplayError(`-o ${o.out}: --group writes one file; give a file name such as ${o.out}group.mp4`);
  const { inputFormat, videoFormat } = splitFormats(o.format);
  const { fileFormat, renderAsFile } = await import("../film/render-file.ts");
  const format = fileFormat(o.out, videoFormat);
  const { defaultsFor } = await import("../batch/render-videos.ts");
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
    const grid = async (out: string) => (await import("../film/render-group.ts")).renderGroupMp4({ ...common, onProgress: onStage(bar), out });
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
    const { renderReport, asFileReport } = await import("../reports/render.ts");
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
    const { compareReport } = await import("../reports/compare.ts");
    const { asFileReport } = await import("../reports/render.ts");
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
    const { groupReport } = await import("../reports/group.ts");
    const { asFileReport } = await import("../reports/render.ts");
    const { gridShape } = await import("../../video/group/grid.ts");
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

/** Replies in Chinese, Japanese, Korean or emoji draw as boxes without Debian's Noto fonts: say so before rendering. */
async function warnMissingFonts(): Promise<void> {
  // Only whether the files are there: Skia is loaded by the painter's thread, not here.
  const { missingFonts } = await import("../film/shared/font-files.ts");
  const missing = missingFonts();
  if (missing.length === 0) return;
  const packages = [...new Set(missing.map((m) => m.debianPackage))].join(" ");
  process.stderr.write(
    `warning: ${missing.map((m) => m.family).join(", ")} not found (${missing.map((m) => m.path).join(", ")}): text in those scripts will draw as boxes; apt-get install ${packages}\n`,
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
