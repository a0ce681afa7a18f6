/** `georeplay render`: one recorded episode to an MP4 (verified frames, scenes painted natively or with Remotion, x264). */
import { Command, InvalidArgumentError, Option } from "commander";
import { relative } from "node:path";
import { addInputOptions, addRunOptions, configureImageLibrary, optionParser, positiveInt, withProgress } from "./options.ts";
import { interruptSignal } from "./interrupt.ts";
import { parseSize } from "../film/size.ts";
import { ENGINES } from "../film/engine.ts";
import { X264_PRESETS } from "../ffmpeg/x264.ts";
import { registerBatchOptions, routeBatch } from "./render-batch.ts";
// Remotion, webpack and the renderer load only when a render runs.
import type { RenderStage } from "../film/render-episode.ts";
import type { Progress } from "./progress.ts";

const STAGE_SPAN: Record<RenderStage, [number, number]> = { frames: [0, 300], bundle: [300, 350], render: [350, 1000] };

export function registerRender(program: Command): void {
  const cmd = program
    .command("render")
    .summary("render one recorded episode to an MP4 (verified replay, HUD, trace, map, score card)")
    .description(
      "Verifies the episode's views and renders its camera path (as `georeplay frames` does, into a\n" +
        "temporary folder), then paints every distinct frame in Node (Skia, the default --engine native)\n" +
        "and encodes it with ffmpeg's libx264 (CRF 18, --preset medium, yuv420p, bt709, +faststart). No\n" +
        "browser, no server, no port. The file appears only when complete: a failed or interrupted render\n" +
        "leaves nothing at the output path and no temporary folders behind.\n\n" +
        "An example-rollout episode (recorded images, no hashes) becomes a slideshow of its images,\n" +
        "labelled RECORDED IMAGES · NOT A REPLAY on every frame, and needs no --tasks/--panos.\n\n" +
        "ffmpeg: $GEOREPLAY_FFMPEG, else ffmpeg-static's, else ffmpeg on PATH (apt-get install ffmpeg).\n" +
        "--engine remotion draws the same scenes in the Remotion composition with Chromium\n" +
        "($GEOREPLAY_CHROMIUM or /usr/bin/chromium); it needs Remotion installed, whose licence is not\n" +
        "open source (free for individuals, non-profits and companies of up to 3 people).\n\n" +
        "Exit codes: 0 written; 1 a view drifted from its recorded hash (use --unverified to render it\n" +
        "anyway, marked UNVERIFIED REPLAY); 2 bad input or the renderer could not run.\n\n" +
        "--json prints one object on stdout once the MP4 is written (docs/json-reports.md).\n\n" +
        "Two-up (before and after): --versus <id|#n> puts a second episode, from any of the inputs,\n" +
        "beside --episode on one turn-aligned clock (the Compare composition); --versus-arm <arm>\n" +
        "[--pass n] picks that arm's (model_name's) attempt at the same task instead. Both sides are\n" +
        "verified; --unverified stamps the side that drifted. Different tasks are allowed and said on screen.",
    )
    .argument("<inputs...>", "recordings: eval episodes.jsonl, training rollouts*.jsonl, an example-rollout or sweep folder")
    .requiredOption("--episode <id|#n>", "episode_id, or #n for the n-th replayable episode of the input");
  addInputOptions(cmd)
    .requiredOption("-o, --out <file.mp4>", "output MP4")
    .addOption(
      new Option("--size <WxH>", "video size, even numbers (16:9 puts the panel beside the view; square or portrait, under it)")
        .argParser(optionParser(parseSize))
        .default({ width: 1280, height: 720 }, "1280x720"),
    )
    .option("--fps <n>", "video frames per second", positiveInt, 30)
    .option("--unverified", "render even if a view drifted; every frame then says UNVERIFIED REPLAY")
    .addOption(
      new Option("--engine <engine>", "native: Skia in Node + x264; remotion: the Remotion composition in Chromium").choices(ENGINES).default("native"),
    )
    .addOption(
      new Option("--preset <preset>", "x264 preset: faster presets encode quicker, slower ones make smaller files").choices(X264_PRESETS).default("medium"),
    )
    .option("--concurrency <n>", "--engine remotion: Chromium tabs in parallel (1 was fastest on 2 cores)", positiveInt, 1)
    .option("--versus <id|#n>", "two-up video: this episode (from any input) beside --episode")
    .option("--versus-arm <arm>", "two-up video: this arm's (model_name's) attempt at --episode's task (same split and task.index)")
    .option("--pass <n>", "with --versus-arm: that arm's pass (task.sample); default --episode's pass, else the lowest", nonNegativeInt);
  registerBatchOptions(cmd);
  addRunOptions(cmd, "worker threads for the frame files")
    .addHelpText(
      "after",
      "\nExamples:\n" +
        "  georeplay render run/episodes.jsonl --episode 90a9d3eba5ce --tasks tasks/ --panos panos/ -o rollout.mp4\n" +
        "  georeplay render run/episodes.jsonl --episode '#2' --tasks tasks.jsonl --panos panos/ -o small.mp4 --size 854x480 --fps 24\n" +
        "  georeplay render base/ ckpt200/ --episode 5e3f5bd32061 --versus-arm ckpt200 --tasks tasks/ --panos panos/ -o two-up.mp4",
    )
    .action(async (episodes: string[], o, command: Command) => {
      await configureImageLibrary();
      await warnMissingFonts();
      if (await routeBatch(episodes, o, command)) return;
      if (o.versus !== undefined || o.versusArm !== undefined || o.pass !== undefined) return renderVersus(episodes, o);
      const r = await withProgress("render", o, async (bar) =>
        (await import("../film/render-episode.ts")).renderEpisodeMp4({
          signal: interruptSignal(),
          episodes,
          episode: o.episode,
          tasks: o.tasks,
          panos: o.panos,
          format: o.format,
          out: o.out,
          size: o.size,
          fps: o.fps,
          unverified: Boolean(o.unverified),
          concurrency: o.concurrency,
          engine: o.engine,
          preset: o.preset,
          jobs: o.jobs,
          onWarning: (m) => process.stderr.write(`warning: ${m}\n`),
          onProgress: onStage(bar),
        }),
      );
      if (o.json) {
        const { renderReport } = await import("../film/render-report.ts");
        const report = renderReport(o.out, r, undefined, (m) => process.stderr.write(`warning: ${m}\n`));
        process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
        return;
      }
      const t = r.timeline;
      const secs = t.totalFrames / t.fps;
      process.stdout.write(
        `wrote ${relative(process.cwd(), r.out) || r.out} · ${t.totalFrames} frames · ${secs.toFixed(2)} s at ${t.fps} fps · ${r.size.width}x${r.size.height} · h264 yuv420p` +
          `${t.episode.source === "slideshow" ? " · slideshow of recorded images (not a replay)" : t.episode.verified ? " · verified replay" : " · UNVERIFIED REPLAY"}` +
          `\nframes ${(r.framesMs / 1000).toFixed(1)} s · video ${(r.renderMs / 1000).toFixed(1)} s (${(t.totalFrames / (r.renderMs / 1000)).toFixed(1)} fps; ${r.painted} distinct frames painted, held frames repeated; --engine ${o.engine})\n`,
      );
    });
}

/** Replies in Chinese, Japanese, Korean or emoji draw as boxes without Debian's Noto fonts: say so before rendering. */
async function warnMissingFonts(): Promise<void> {
  const { registerFonts } = await import("../film/shared/fonts.ts");
  const missing = registerFonts().missing;
  if (missing.length === 0) return;
  const packages = [...new Set(missing.map((m) => m.debianPackage))].join(" ");
  process.stderr.write(
    `warning: ${missing.map((m) => m.family).join(", ")} not found (${missing.map((m) => m.path).join(", ")}): text in those scripts will draw as boxes; apt-get install ${packages}\n`,
  );
}

function nonNegativeInt(text: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(n)) throw new InvalidArgumentError(`expected a whole number >= 0, got ${JSON.stringify(text)}`);
  return n;
}

function onStage(bar: Progress) {
  return (stage: RenderStage, done: number, total: number) => {
    const [a, b] = STAGE_SPAN[stage];
    const f = total > 0 ? Math.min(1, done / total) : 1;
    const detail = stage === "frames" ? `frame files ${done}/${total}` : stage === "bundle" ? "bundling" : `video frames ${done}/${total}`;
    bar.update(Math.round(a + (b - a) * f), detail);
  };
}

/** `render --versus` / `--versus-arm`: the two-up video. */
// Commander's parsed options (typed by the option definitions above).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function renderVersus(episodes: string[], o: Record<string, any>): Promise<void> {
  const r = await withProgress("render", o, async (bar) =>
    (await import("../film/render-compare.ts")).renderCompareMp4({
      signal: interruptSignal(),
      episodes,
      episode: o.episode,
      versus: o.versus,
      versusArm: o.versusArm,
      pass: o.pass,
      tasks: o.tasks,
      panos: o.panos,
      format: o.format,
      out: o.out,
      size: o.size,
      fps: o.fps,
      unverified: Boolean(o.unverified),
      concurrency: o.concurrency,
      engine: o.engine,
      preset: o.preset,
      jobs: o.jobs,
      onWarning: (m) => process.stderr.write(`warning: ${m}\n`),
      onProgress: onStage(bar),
    }),
  );
  if (o.json) {
    const { compareReport } = await import("../film/compare-report.ts");
    const report = compareReport(o.out, r, undefined, (m) => process.stderr.write(`warning: ${m}\n`));
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    return;
  }
  const state = (s: (typeof r.sides)[number]) => {
    const e = s.gen.timeline.episode;
    return `${s.arm} pass ${s.pass ?? "—"} ${e.episodeId} (${e.source === "slideshow" ? "slideshow of recorded images" : e.verified ? "verified replay" : "UNVERIFIED REPLAY"})`;
  };
  const secs = r.frames / r.fps;
  process.stdout.write(
    `wrote ${relative(process.cwd(), r.out) || r.out} · ${r.frames} frames · ${secs.toFixed(2)} s at ${r.fps} fps · ${r.size.width}x${r.size.height} · h264 yuv420p · two-up` +
      `\nA: ${state(r.sides[0])}\nB: ${state(r.sides[1])}` +
      `${r.props.a.timeline.episode.index !== r.props.b.timeline.episode.index || r.props.a.timeline.episode.split !== r.props.b.timeline.episode.split ? "\nnote: the two episodes are of different tasks (said on screen)" : ""}` +
      `\nframes ${(r.framesMs / 1000).toFixed(1)} s · video ${(r.renderMs / 1000).toFixed(1)} s (${(r.frames / (r.renderMs / 1000)).toFixed(1)} fps; ${r.painted} distinct frames painted, held frames repeated; --engine ${o.engine})\n`,
  );
}
