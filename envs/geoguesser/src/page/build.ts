/**
 * `buildPage`: verified episodes in, one self-contained HTML file out.
 *
 * Episodes stream from verifyRun one at a time (bounded memory): each becomes
 * page JSON appended to a part file, its distinct views are downscaled into
 * the image part file, and only the small per-episode numbers for the summary
 * stay in memory. At the end the parts are joined into a temp file beside
 * the output and renamed into place. The folder form (`-o DIR/`) writes each
 * view as its exact file (views/<sha256>.jpg, full size) instead, the
 * episodes' details in batches of data files (output/run-batches.ts), and
 * the whole folder is renamed into place.
 *
 * The player: the one-file form embeds each episode's video planned in Node
 * (player/embed.ts: its exact text plan). The folder form is for runs too
 * large for that (~17 ms and ~17 KB held per episode: hours and GBs at
 * 128,000 rollouts): each episode's detail carries the compact PlayRecord a
 * board's chunk does and the browser plans the video (board/play.ts).
 */
import { basename } from "node:path";
import { verifyRun } from "../../replay/verify/verify.ts";
import { resolveInputs } from "../../../../replay/formats/inputs.ts";
import { onAbort } from "../../../../replay/io/abort.ts";
import { GeoreplayError } from "../../../../replay/io/errors.ts";
import { checkTarget } from "../../../../src/page/output/target.ts";
import { PageFolder } from "../../../../src/page/output/folder.ts";
import { RunBatches, writeGroupFiles } from "./output/run-batches.ts";
import { rowOfEpisode } from "./client/state/rows.ts";
import { ImageTable, DEFAULT_IMAGE_SIZE } from "../../../../src/page/images.ts";
import { erroredPageEpisode, pageEpisode, type PageEpisode } from "./model.ts";
import { summariseRun, type EpisodeStats } from "./stats.ts";
import { scriptJson } from "../../../../src/page/escape.ts";
import { pageParts } from "./view/template.ts";
import { sweepSection } from "./view/sections.ts";
import { trainingSection } from "./view/training.ts";
import { summariseSweep, type Attempt } from "./sweep.ts";
import { readBoard, boardReport } from "../../replay/board/index.ts";
import { TrainingGroups, trainingRolloutOf } from "./training.ts";
import { buildBoardPage } from "./board/build.ts";
import { boardOfInputs } from "./board/input.ts";
import { PartFile, writePage } from "../../../../src/page/part-file.ts";
import { tallyOf, unwrittenResult, type BuildPageOptions, type BuildPageResult } from "./page-options.ts";
import { PlayerEmbed, playerTail } from "./player/embed.ts";
import { BoardPlayer, boardPanosTail, boardPlayerTail } from "./board/play.ts";
import { PanoTable } from "./pano-table.ts";
import { PageMapCells, mapCellsTail } from "./board/map-cells.ts";

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
  const target = checkTarget(opts.out);
  const sources = await resolveInputs(opts.episodes, opts.format);
  // A sweep or board folder is a board page with or without a baseline (board/input.ts).
  const board = await boardOfInputs(sources, opts.episodes, opts.signal);
  if (board !== null) return buildBoardPage({ ...opts, board });
  const sweepFiles = new Set(sources.filter((s) => s.sweep !== null).map((s) => s.file));
  const folder = target.form === "folder" ? new PageFolder(target.path) : null;
  // Temp part files sit beside the target (never inside the folder being built); the page goes to `pagePath`.
  const beside = target.path;
  const pagePath = folder ? `${folder.tmp}/index.html` : target.path;
  const epPart = new PartFile(beside);
  const imgPart = new PartFile(beside);
  const panoPart = new PartFile(beside);
  const cleanup = () => {
    epPart.remove();
    imgPart.remove();
    panoPart.remove();
    folder?.remove();
  };
  const off = onAbort(opts.signal, cleanup);
  try {
    const images = new ImageTable(imgPart, size, folder);
    // The folder form: the page lists rows; the details go to data files in batches.
    const batches = folder ? new RunBatches(folder) : null;
    // The folder form's maps keep their frames, not their land and borders (~80% of a training rollout's
    // details): the client cuts those from the page's one table of atlas cells, as a board page's do.
    const mapCells = folder ? new PageMapCells() : null;
    const shared = (page: PageEpisode): PageEpisode =>
      mapCells
        ? {
            ...page,
            outcomeMap: page.outcomeMap && mapCells.share(page.outcomeMap),
            turns: page.turns.map((t) => (t.map ? { ...t, map: mapCells.share(t.map) } : t)),
          }
        : page;
    // One player per form (see above), its panoramas in panoPart either way.
    const player = opts.player === false || folder ? null : new PlayerEmbed(panoPart, opts);
    const boardPlayer = opts.player === false || !folder ? null : new BoardPlayer({ episodes: opts.episodes, tasks: opts.tasks, panos: opts.panos });
    const panos = boardPlayer ? new PanoTable(panoPart) : null;
    const stats: EpisodeStats[] = [];
    // Small per-episode numbers for the sweep and training sections (bounded like `stats`).
    const attempts: Attempt[] = [];
    // Training rollouts' numbers, grouped at the end by replay/groups (TRL's numbers, as `georeplay groups`).
    const training = opts.training ?? new TrainingGroups();
    let views = 0;
    // Every episode of the list, errored ones too (the list is the report's, counted apart).
    let listed = 0;
    // The folder form's rows go to data files (run-batches.ts); the one-file form lists every episode in the page.
    const list = async (page: PageEpisode) => {
      if (batches) batches.add(shared(page), rowOfEpisode(page));
      else await epPart.write((listed ? "," : "[") + scriptJson(page));
      listed++;
    };
    // Errored records are read ahead of the episodes verified before them: listed after every episode, in read order (same bytes every run).
    const errored: PageEpisode[] = [];
    const report = await verifyRun({
      episodes: opts.episodes,
      tasks: opts.tasks,
      panos: opts.panos,
      format: opts.format,
      jobs: opts.jobs,
      keepImages: true,
      signal: opts.signal,
      onProgress: opts.onProgress,
      onErrored: (e) => errored.push(erroredPageEpisode(e, opts.episodes)),
      onEpisode: async (v) => {
        const { page, stats: s } = await pageEpisode(v, (digest, jpeg) => images.add(digest, jpeg), opts.episodes, mapCells === null);
        views += v.views.length;
        await player?.add(v, (digest, jpeg) => images.add(digest, jpeg));
        // Its turns point at the image table (views/<sha>.jpg here): the record's keyframes are those exact views.
        const play = boardPlayer && panos ? await boardPlayer.record(v, page, panos, opts.panos) : null;
        if (play) page.play = play;
        stats.push(s);
        if (sweepFiles.has(v.file))
          attempts.push({ id: page.id, model: page.model, split: page.split, index: page.index, sample: page.sample, score: page.score, env: page.reward });
        const rollout = trainingRolloutOf(v, page);
        if (rollout) training.add(rollout);
        await list(page);
      },
    });
    for (const e of errored) await list(e);
    batches?.flush();
    await epPart.write(listed && !batches ? "]" : "[]");
    await Promise.all([epPart.close(), imgPart.close(), panoPart.close()]);
    if (stats.length === 0) {
      const why = report.errors
        .map((e) => e.message)
        .slice(0, 5)
        .join("\n  ");
      throw new GeoreplayError(`no episode to show: the input holds no replayable episode${why ? `:\n  ${why}` : ""}`);
    }

    const result = unwrittenResult(
      opts.out,
      report,
      { episodes: stats.length, tally: tallyOf(stats, errored.length), views, images: images.count },
      report.errors,
    );
    // A page of part of a run looks like a page of the whole run: only on request.
    if (report.errors.length && !opts.partial) return result;

    // A sweep's numbers are `georeplay report`'s over the same files (one number per fact).
    let sweepReport = null;
    try {
      if (attempts.length) sweepReport = boardReport(await readBoard([...sweepFiles], { signal: opts.signal }));
    } catch (e) {
      // A sweep with no scored row has no report (geoeval stops there too): the page shows the episodes without the section.
      if (!(e instanceof GeoreplayError) || e.kind !== "input") throw e;
    }
    const groups = training.data();
    // The folder form's groups are data files, read after the first screen (training-parts.ts GROUPS_KIND).
    const groupFiles = groups && folder ? writeGroupFiles(folder, groups.groups) : undefined;
    const sections = [
      sweepReport ? sweepSection(summariseSweep(sweepReport, attempts)) : "",
      groups ? trainingSection(groupFiles === undefined ? groups : { ...groups, groups: [] }) : "",
    ].join("\n");
    const parts = pageParts(
      {
        title: opts.title ?? `${opts.episodes.map((f) => basename(f)).join(", ")} · ${[...new Set(stats.map((x) => x.model))].join(", ")} · georeplay`,
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
        rowFiles: batches?.rowFiles,
        groupFiles,
      },
      summariseRun(
        stats,
        errored.map((e) => e.model),
      ),
      (player?.count ?? 0) + (boardPlayer?.count ?? 0) > 0,
      target.form,
    );
    // The player's panoramas go in an inert table at the end of the tail (player/embed.ts; the folder form: a board's gr-panos).
    // One table of cells for the page's maps and its player's (the player reads it when its own table has none).
    const boardTail = boardPlayer?.count ? boardPlayerTail(parts.tail, boardPlayer) : parts.tail;
    const playerCells = [...(player?.cellKeys() ?? []), ...(boardPlayer?.count ? boardPlayer.cellKeys() : [])];
    const pageTail = mapCells ? mapCellsTail(boardTail, [...mapCells.cells(), ...playerCells]) : boardTail;
    let tail: (string | PartFile)[] = [pageTail];
    if (player?.count) {
      const [before, after] = playerTail(pageTail, player, mapCells === null);
      tail = [before, panoPart, after];
    } else if (boardPlayer?.count) {
      const [before, after] = boardPanosTail(pageTail);
      tail = [before, panoPart, after];
    }
    const bytes = await writePage(pagePath, [parts.head, epPart, parts.middle, imgPart, ...tail], opts.signal);
    if (folder) {
      folder.counted(bytes);
      folder.commit();
    }
    return {
      ...result,
      written: true,
      partial: report.errors.length > 0,
      bytes: folder ? folder.bytes : bytes,
      form: target.form,
      files: folder ? folder.files : 1,
      viewsEmbedded: images.count,
      viewsLeftOut: 0,
      summaryOf: { stats, errored: errored.map((e) => e.model) },
    };
  } finally {
    cleanup();
    off();
  }
}
