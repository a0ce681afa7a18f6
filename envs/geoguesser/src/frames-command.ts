/** `georeplay frames` on a GeoGuesser episode: verified camera-path frames (or a slideshow of recorded images) and timeline.json. */
import { join } from "node:path";
import { warn, withProgress } from "../../../src/commands/options/shared.ts";
import { interruptSignal } from "../../../src/commands/interrupt.ts";
import { framesJson } from "./reports/frames.ts";
import type { FramesCliOptions } from "../../../src/commands/options/command-options.ts";

export async function framesCommand(episodes: string[], o: FramesCliOptions): Promise<void> {
  const r = await withProgress("frames", o, async (bar) =>
    (await import("../replay/frames/frames.ts")).generateFrames({
      ...o,
      signal: interruptSignal(),
      episodes,
      unverified: Boolean(o.unverified),
      onWarning: warn,
      onProgress: (done, total) => bar.update(total ? Math.round((done / total) * 1000) : 1000, `${done}/${total} frame files`),
    }),
  );
  const { writeStudioProps } = await import("./film/studio-props.ts");
  const propsPath = writeStudioProps(r.outDir, r.timeline, o.size);
  const t = r.timeline;
  const s = r.stats;
  const v = s.views;
  if (o.json) {
    process.stdout.write(JSON.stringify(framesJson(r, propsPath), null, 2) + "\n");
    return;
  }
  const head =
    t.episode.source === "slideshow"
      ? `episode ${t.episode.episodeId} · slideshow of ${s.recordedImages} recorded images (example-rollout folders record no camera path or hashes: not a replay, nothing verified)` +
        `\n${s.files} frame files (${s.keyframes} recorded views copied byte for byte, ${s.files - s.keyframes} transcoded; ${s.reused} reused) in ${join(r.outDir, "frames")}`
      : `episode ${t.episode.episodeId} · ${v.match}/${v.checked} views verified byte-for-byte` +
        (t.episode.recordFormat === "train" ? " (training digests)" : "") +
        (v.resolved ? ` (${v.resolved} on an exact sampling boundary)` : "") +
        (t.episode.verified ? "" : ` · UNVERIFIED: ${v.mismatch} view(s) drifted`) +
        `\n${s.files} frame files (${s.rendered} rendered, ${s.reused} reused, ${s.keyframes} keyframes) in ${join(r.outDir, "frames")}`;
  process.stdout.write(
    head +
      `\n${t.segments.length} segments · ${t.totalFrames} video frames (${(t.totalFrames / t.fps).toFixed(1)} s at ${t.fps} fps)` +
      `\ntimeline: ${r.timelinePath}\nprops (timeline + text laid out at ${o.size.width}x${o.size.height}): ${propsPath}\n`,
  );
}
