/**
 * `buildPage`: verified episodes in, one self-contained HTML file out.
 *
 * Episodes stream from verifyRun one at a time (bounded memory): each becomes
 * page JSON appended to a part file, its distinct views are downscaled into
 * the image part file, and only the small per-episode numbers for the summary
 * stay in memory. At the end the parts are joined into a temp file beside
 * the output and renamed into place.
 */
import { createReadStream, mkdirSync } from "node:fs";
import { basename, dirname } from "node:path";
import { verifyRun } from "../../replay/verify/verify.ts";
import { resolveInputs } from "../../replay/formats/inputs.ts";
import type { TrainInfo } from "../../replay/formats/train.ts";
import { openAtomicStream } from "../../replay/io/atomic.ts";
import { onAbort } from "../../replay/io/abort.ts";
import { GeoreplayError } from "../../replay/io/errors.ts";
import { ioReason } from "../../replay/io/jsonl.ts";
import { ImageTable, DEFAULT_IMAGE_SIZE } from "./images.ts";
import { pageEpisode } from "./model.ts";
import { summariseRun, type EpisodeStats } from "./stats.ts";
import { scriptJson } from "./escape.ts";
import { pageParts } from "./view/template.ts";
import { sweepSection, trainingSection } from "./view/sections.ts";
import { summariseSweep, type Attempt } from "./sweep.ts";
import { summariseTraining, type Rollout } from "./training.ts";
import { buildBoardPage } from "./board/build.ts";
import { PartFile } from "./part-file.ts";
import type { BuildPageOptions, BuildPageResult } from "./page-options.ts";
import { PlayerEmbed, playerTail } from "./player/embed.ts";

export type { BuildPageOptions, BuildPageResult } from "./page-options.ts";

export function checkImageSize(size: number): number {
  if (!Number.isInteger(size) || size < 32 || size > 640) {
    throw new GeoreplayError(`--image-size ${size}: expected a whole number of pixels from 32 to 640 (views are rendered at 640)`);
  }
  return size;
}

export async function buildPage(opts: BuildPageOptions): Promise<BuildPageResult> {
  const size = checkImageSize(opts.imageSize ?? DEFAULT_IMAGE_SIZE);
  if (opts.baseline !== undefined) return buildBoardPage({ ...opts, baseline: opts.baseline });
  const sources = await resolveInputs(opts.episodes, opts.format);
  const sweepFiles = new Set(sources.filter((s) => s.sweep !== null).map((s) => s.file));
  try {
    mkdirSync(dirname(opts.out), { recursive: true });
  } catch (e) {
    throw new GeoreplayError(`-o ${opts.out}: cannot create its folder: ${ioReason(e)}`);
  }
  const epPart = new PartFile(opts.out);
  const imgPart = new PartFile(opts.out);
  const panoPart = new PartFile(opts.out);
  const off = onAbort(opts.signal, () => {
    epPart.remove();
    imgPart.remove();
    panoPart.remove();
  });
  try {
    const images = new ImageTable(imgPart, size);
    const player = opts.player === false ? null : new PlayerEmbed(panoPart, opts);
    const stats: EpisodeStats[] = [];
    // Small per-episode numbers for the sweep and training sections (bounded like `stats`).
    const attempts: Attempt[] = [];
    const rollouts: Rollout[] = [];
    let views = 0;
    const report = await verifyRun({
      episodes: opts.episodes,
      tasks: opts.tasks,
      panos: opts.panos,
      format: opts.format,
      jobs: opts.jobs,
      keepImages: true,
      signal: opts.signal,
      onProgress: opts.onProgress,
      onEpisode: async (v) => {
        const { page, stats: s } = await pageEpisode(v, (digest, jpeg) => images.add(digest, jpeg));
        views += v.views.length;
        await player?.add(v, (digest, jpeg) => images.add(digest, jpeg));
        stats.push(s);
        if (sweepFiles.has(v.file))
          attempts.push({ id: page.id, model: page.model, split: page.split, index: page.index, sample: page.sample, reward: page.reward });
        const train = (v.episode as { train?: TrainInfo }).train;
        if (v.format === "train" && train) {
          rollouts.push({
            id: page.id,
            run: train.run,
            step: train.step,
            split: page.split,
            index: page.index,
            reward: page.reward,
            turns: page.turnsUsed,
            guessed: train.guessed,
          });
        }
        await epPart.write((stats.length > 1 ? "," : "[") + scriptJson(page));
      },
    });
    await epPart.write(stats.length ? "]" : "[]");
    await Promise.all([epPart.close(), imgPart.close(), panoPart.close()]);
    if (stats.length === 0) {
      const why = report.errors
        .map((e) => e.message)
        .slice(0, 5)
        .join("\n  ");
      throw new GeoreplayError(`no episode to show: the input holds no replayable episode${why ? `:\n  ${why}` : ""}`);
    }

    const result: BuildPageResult = {
      out: opts.out,
      written: false,
      partial: false,
      bytes: 0,
      episodes: stats.length,
      formats: report.formats,
      views,
      images: images.count,
      recordedImages: report.recorded_images,
      checked: report.checked,
      match: report.match,
      resolved: report.resolved,
      mismatch: report.mismatch,
      errors: report.errors,
      erroredEpisodes: report.errored_episodes,
      warnings: report.warnings,
    };
    // A page of part of a run looks like a page of the whole run: only on request.
    if (report.errors.length && !opts.partial) return result;

    const sections = [attempts.length ? sweepSection(summariseSweep(attempts)) : "", rollouts.length ? trainingSection(summariseTraining(rollouts)) : ""].join(
      "\n",
    );
    const parts = pageParts(
      {
        title: opts.title ?? `georeplay · ${opts.episodes.map((f) => basename(f)).join(", ")}`,
        episodes: stats.length,
        views,
        images: images.count,
        checked: report.checked,
        match: report.match,
        resolved: report.resolved,
        mismatch: report.mismatch,
        errored: report.errored_episodes.map((e) => ({ id: e.episode_id, message: e.message })),
        problems: [...report.errors, ...report.warnings].map((e) => e.message),
        formats: report.formats,
        recorded: stats.reduce((n, s) => n + (s.recorded ?? 0), 0),
        sections,
        incomplete: report.errors.map((e) => e.message),
      },
      summariseRun(stats),
      player !== null && player.count > 0,
    );
    const out = openAtomicStream(opts.out, opts.signal);
    let bytes = 0;
    const put = async (s: string) => {
      bytes += Buffer.byteLength(s);
      await out.write(s);
    };
    const copy = async (path: string) => {
      for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
        bytes += chunk.length;
        await out.write(chunk);
      }
    };
    try {
      await put(parts.head);
      await copy(epPart.path);
      await put(parts.middle);
      await copy(imgPart.path);
      if (player?.count) {
        const [before, after] = playerTail(parts.tail, player);
        await put(before);
        await copy(panoPart.path);
        await put(after);
      } else await put(parts.tail);
      await out.commit();
    } catch (e) {
      out.abort();
      throw e;
    }
    return { ...result, written: true, partial: report.errors.length > 0, bytes };
  } finally {
    epPart.remove();
    imgPart.remove();
    panoPart.remove();
    off();
  }
}
