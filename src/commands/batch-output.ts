/**
 * What `georeplay render -o DIR/` prints for any environment's batch: a progress bar with an ETA,
 * a line (or JSON line) per video as it finishes, the summary line, the exit code, what an
 * interrupt keeps, and `--dry-run`'s plan. The environment plans and renders; this is its voice.
 */
import { join, relative, resolve } from "node:path";
import type { VideoFormat } from "../../replay/batch/manifest-schema.ts";
import type { Shard } from "../../replay/io/shard.ts";
import type { BatchProgress, BatchVideo, VideoOutcome } from "../batch/run-batch.ts";
import { batchSummary, planLine, planSummary, videoLine, type PlannedResult } from "../reports/batch.ts";
import type { RenderCliOptions } from "./options/render.ts";
import { onInterrupt } from "./interrupt.ts";
import { progressBar } from "./progress.ts";

const fmtTime = (s: number) =>
  s >= 3600
    ? `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`
    : s >= 60
      ? `${Math.floor(s / 60)}m${String(Math.round(s % 60)).padStart(2, "0")}s`
      : `${Math.round(s)}s`;

export interface BatchCallbacks {
  onVideo: (r: VideoOutcome) => void;
  onProgress: (p: BatchProgress) => void;
}

/** Runs `render` (the environment's batch into `dir`) with the progress bar and the per-video lines; prints the summary and sets the exit code. */
export async function runBatchCli(
  dir: string,
  o: RenderCliOptions,
  settings: { format: VideoFormat; shard: Shard | null },
  render: (cb: BatchCallbacks) => Promise<PlannedResult>,
): Promise<void> {
  const t0 = performance.now();
  const { bar, onVideo, dispose } = batchProgress(dir, o);
  let result;
  try {
    result = await render({
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
export function printBatchPlan(
  plan: { planned: readonly BatchVideo[]; shards: readonly number[]; mine: readonly BatchVideo[] },
  format: VideoFormat,
  shard: Shard | null,
  o: RenderCliOptions,
): void {
  const { planned, shards, mine } = plan;
  for (const [i, v] of planned.entries()) {
    if (shard && shards[i] !== shard.index - 1) continue;
    const line = planLine(v, format, shard ? `${shards[i] + 1}/${shard.count}` : null);
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
