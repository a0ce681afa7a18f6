/**
 * `buildPage` of a board (a sweep or board folder, or any eval input with
 * --baseline): a board page. The report's numbers come from
 * the report engine (replay/board: readBoard -> boardReport), never
 * recomputed here. Episodes stream from verifyRun as for every page: each
 * episode's detail (every word) goes to its task's gzip chunk, each panorama
 * once into the panorama table, each verified view to the exact-view table
 * (exact-views.ts: every one as a file in the folder form, by priority within
 * --max-mb in the one-file form), and only a small row per episode stays in
 * memory.
 */
import { basename } from "node:path";
import { readBoard, boardReport, type Board } from "../../../replay/board/index.ts";
import type { Report } from "../../../replay/board/report-schema.ts";
import { geoevalReward } from "../../../replay/rules/reward.ts";
import { verifyRun, type ProblemEntry, type ViewOutcome } from "../../../replay/verify/verify.ts";
import { anyPanoPath } from "../../../replay/panos/files.ts";
import { PanoError } from "../../../replay/panos/store.ts";
import type { Episode } from "../../../replay/schema/episode.ts";
import { tempPathFor } from "../../../../../replay/io/atomic.ts";
import { onAbort } from "../../../../../replay/io/abort.ts";
import { GeoreplayError, problemsByTurn } from "../../../../../replay/io/errors.ts";
import { PartFile, writePage } from "../../../../../src/page/part-file.ts";
import { tallyOf, unwrittenResult, viewBudget, type BuildPageOptions, type BuildPageResult } from "../page-options.ts";
import { checkTarget } from "../../../../../src/page/output/target.ts";
import { DATA_CALLBACK, PageFolder, dataScript } from "../../../../../src/page/output/folder.ts";
import { ROWS_PER_FILE } from "../output/run-batches.ts";
import { ROWS_KIND, analysisFields } from "../list-row.ts";
import { detailText } from "../search-text.ts";
import { erroredPageEpisode, pageEpisode, type PageEpisode } from "../model.ts";
import { summariseRun, type EpisodeStats } from "../stats.ts";
import { scriptJson } from "../../../../../src/page/escape.ts";
import { pageParts } from "../view/template.ts";
import { boardSections } from "./sections.ts";
import { PanoTable } from "../pano-table.ts";
import { TaskChunks } from "./chunks.ts";
import { ExactViewTable, EXACT_MAX_FOV } from "./exact-views.ts";
import { CompareMapTable } from "./compare-maps.ts";
import { BoardPlayer, boardPlayerTail } from "./play.ts";
import { PageMapCells, mapCellsJson, mapCellsTail } from "./map-cells.ts";
import { BOARD_PANOS_ID, MAP_CELLS_ID, PLAYER_META_ID } from "../player/format.ts";
import type { BoardData, BoardEpisodeRow, PanoRef } from "./data.ts";

/**
 * The board's own report: the engine's object for these inputs and this
 * --baseline, exactly as `georeplay report [--baseline ARM] --json` gives it.
 * Without --baseline the page pairs nothing (baseline null): the user picks
 * any two arms to compare.
 */
async function reportFor(opts: BoardPageOptions): Promise<{ report: Report; notes: string[]; baseline: string | null }> {
  const board = opts.board ?? (await readBoard(opts.episodes, { signal: opts.signal }));
  const report = boardReport(board, opts.baseline === undefined ? {} : { baseline: opts.baseline });
  if (opts.baseline !== undefined && !report.paired) {
    throw new GeoreplayError(`--baseline ${opts.baseline}: no arm of that name on this board (arms: ${report.arms.map((a) => a.arm).join(", ")})`);
  }
  return { report, notes: board.notes, baseline: opts.baseline ?? null };
}

/** A board page's options: --baseline optional; `board` when the caller has read it already (board/input.ts). */
export type BoardPageOptions = BuildPageOptions & { board?: Board };

/**
 * A board folder's index.html carries the list's first rows only (the list is in file order until the
 * reader sorts: these are its top, what a first screen shows); the rest are in data/rows-<k>.js,
 * ROWS_PER_FILE each, read after the first screen (12,800 rows were 5 MB of index.html to parse first).
 */
export const BOARD_FIRST_ROWS = 50;

/** Views the verifier rendered (a view it could not render already has its problem reported). */
const RENDERED = new Set(["match", "resolved", "mismatch"]);

/** Where a compact episode's panoramas and exact views go: the page's tables (build), or a served board's live files (serve/live-board-episodes.ts). */
export interface CompactTables {
  panos: Pick<PanoTable, "add">;
  exact: Pick<ExactViewTable, "add">;
  /**
   * Every rendered view gets its panorama (the built page: a one-file page may leave its exact bytes
   * out, and the player films from it), or only the views without exact bytes (a served board's live episodes).
   */
  panoEveryView: boolean;
}

/**
 * The episode as its chunk stores it: every word, views pointing at their
 * exact bytes and at panoramas; and the panoramas that could not be embedded.
 */
export async function compactEpisode(
  page: PageEpisode,
  ep: Episode,
  task: { frames: { image_id: string; compass_angle?: number | null }[] } | null,
  panosDir: string | undefined,
  tables: CompactTables,
  views: readonly ViewOutcome[],
  chunk: { addMap(map: NonNullable<PageEpisode["turns"][number]["map"]>): number },
): Promise<{ episode: PageEpisode; problems: string[] }> {
  const byTurn = new Map(ep.turns.map((t) => [t.turn, t]));
  const outcomes = new Map(views.map((o) => [o.turn, o]));
  const turns = [];
  const problems: { turn: number; message: string }[] = [];
  for (const t of page.turns) {
    const cam = byTurn.get(t.turn)?.camera_after;
    const frame = cam && task ? task.frames[cam.frame_index] : undefined;
    // The verified bytes themselves, only where they are the recorded view (match or resolved).
    let image: number | null = null;
    const o = outcomes.get(t.turn);
    // Without its bytes (a budget of 0 keeps none) it is still a verified view, listed as left out: the counts stay true.
    if (t.kind === "view" && o?.rendered && (o.status === "match" || o.status === "resolved")) {
      image = tables.exact.add(o.rendered, o.jpeg ?? null, cam != null && cam.fov_deg <= EXACT_MAX_FOV);
    }
    let pano: PanoRef | null = null;
    const wanted = tables.panoEveryView || image === null;
    if (wanted && t.kind === "view" && t.check !== null && RENDERED.has(t.check) && cam && frame && panosDir) {
      let index: number | null = null;
      try {
        const file = anyPanoPath(panosDir, frame.image_id);
        if (file === null) throw new PanoError(`panorama ${frame.image_id}: neither ${frame.image_id}.jpg nor ${frame.image_id}.orig.jpg is in ${panosDir}`);
        index = await tables.panos.add(file);
      } catch (e) {
        if (!(e instanceof PanoError)) throw e;
        problems.push({ turn: t.turn, message: `cannot embed the panorama: ${e.message}` });
      }
      if (index !== null) pano = { pano: index, heading: cam.heading_deg + (frame.compass_angle ?? 0), pitch: cam.pitch_deg, fov: cam.fov_deg };
    }
    turns.push({
      ...t,
      // The chunk's map table holds each distinct map once; the page puts it back on load.
      map: null,
      mapRef: t.map ? chunk.addMap(t.map) : null,
      image,
      pano,
    });
  }
  const said = problemsByTurn(problems);
  return { episode: { ...page, turns }, problems: said };
}

/** An episode's row in the board's list (its detail at `at` in chunk `chunk`); `score` is geoeval's reward (an errored episode's own score). */
export function boardRow(page: PageEpisode, score: number, chunk: number, at: number): BoardEpisodeRow {
  return {
    id: page.id,
    arm: page.model,
    split: page.split,
    task: page.index,
    taskId: page.taskId,
    sample: page.sample,
    country: page.country,
    verdict: page.verdict,
    score,
    env: page.reward,
    km: page.distanceKm,
    turns: page.turnsUsed,
    flags: page.flags,
    ...analysisFields(page),
    chunk,
    at,
  };
}

export async function buildBoardPage(opts: BoardPageOptions): Promise<BuildPageResult> {
  const budget = viewBudget(opts);
  const target = checkTarget(opts.out);
  const { report, notes, baseline } = await reportFor(opts);
  const folder = target.form === "folder" ? new PageFolder(target.path) : null;
  // Temp part files sit beside the target (never inside the folder being built); the page goes to `pagePath`.
  const beside = target.path;
  const pagePath = folder ? `${folder.tmp}/index.html` : target.path;
  const chunkPart = new PartFile(beside);
  const panoPart = new PartFile(beside);
  const exactPart = new PartFile(beside);
  // The folder form's search index (a served page's episodes grow after the build: it searches the texts).
  const chunks = new TaskChunks(tempPathFor(beside), { index: folder !== null && !opts.served });
  const exactViews = new ExactViewTable(folder ? { folder } : { spool: tempPathFor(beside), budgetBytes: budget.spoolBytes });
  const cleanup = () => {
    chunkPart.remove();
    panoPart.remove();
    exactPart.remove();
    chunks.remove();
    exactViews.remove();
    folder?.remove();
  };
  const off = onAbort(opts.signal, cleanup);
  try {
    const panos = new PanoTable(panoPart);
    const mapCells = new PageMapCells();
    const compareMaps = new CompareMapTable(mapCells);
    const player = opts.player === false ? null : new BoardPlayer({ episodes: opts.episodes, tasks: opts.tasks, panos: opts.panos });
    const stats: EpisodeStats[] = [];
    const rows: (BoardEpisodeRow & { taskKey: number })[] = [];
    let views = 0;
    // Episodes the environment failed: listed (and counted apart) after the others, in read order.
    const errored: PageEpisode[] = [];
    // Panoramas the page could not embed: input problems like the verifier's own (exit 2, no page unless --partial).
    const embedErrors: ProblemEntry[] = [];
    const verified = await verifyRun({
      episodes: opts.episodes,
      tasks: opts.tasks,
      panos: opts.panos,
      format: opts.format,
      jobs: opts.jobs,
      // The JPEG bytes come back for every view, per episode (the exact-view table keeps what it may use).
      keepImages: folder !== null || budget.spoolBytes > 0,
      // The exact-view table keeps a view's bytes the first time its digest comes (exact-views.ts): a repeat needs none.
      imagesOnce: true,
      signal: opts.signal,
      onProgress: opts.onProgress,
      onErrored: (e) => errored.push(erroredPageEpisode(e, opts.episodes)),
      onEpisode: async (v) => {
        const { page, stats: s } = await pageEpisode(v, async () => -1, opts.episodes);
        views += v.views.length;
        stats.push(s);
        const { episode: compact, problems } = await compactEpisode(
          page,
          v.episode,
          v.task,
          opts.panos,
          { panos, exact: exactViews, panoEveryView: true },
          v.views,
          {
            addMap: (map) => chunks.addMap(page.index, scriptJson(mapCells.share(map))),
          },
        );
        for (const p of problems) {
          embedErrors.push({
            file: v.file,
            line: v.line,
            episode_id: v.episode.episode_id,
            message: `${v.file}:${v.line}: episode ${v.episode.episode_id}: ${p}`,
          });
        }
        const play = player ? await player.record(v, compact, panos, opts.panos) : null;
        const stored = { ...compact, outcomeMap: compact.outcomeMap && mapCells.share(compact.outcomeMap) };
        const at = chunks.add(page.index, scriptJson(play ? { ...stored, play } : stored), detailText(compact));
        compareMaps.add(page.index, v.episode);
        rows.push({ ...boardRow(page, geoevalReward(v.episode.outcome ?? null), -1, at), taskKey: page.index });
      },
    });
    if (stats.length === 0) throw new GeoreplayError("no episode to show: the input holds no replayable episode");
    for (const page of errored) {
      const at = chunks.add(page.index, scriptJson(page), detailText(page));
      rows.push({ ...boardRow(page, page.score, -1, at), taskKey: page.index });
    }
    const errors = [...verified.errors, ...embedErrors];
    const order = chunks.order();
    const chunkOf = new Map(order.map((t, i) => [t, i]));
    const countries: Record<string, string | null> = {};
    for (const r of rows) {
      r.chunk = chunkOf.get(r.taskKey)!;
      if (!(String(r.task) in countries) || countries[String(r.task)] === null) countries[String(r.task)] = r.country;
    }
    const episodes = rows.map(({ taskKey: _, ...r }) => r);
    const later = folder !== null && !opts.served && episodes.length > BOARD_FIRST_ROWS ? episodes.slice(BOARD_FIRST_ROWS) : [];
    const data: BoardData = {
      baseline,
      arms: report.arms.map((a) => a.arm),
      tasks: report.tasks,
      countries,
      episodes: later.length ? episodes.slice(0, BOARD_FIRST_ROWS) : episodes,
      pano: { width: panos.width, height: panos.height },
      // The folder form's search reads its index (data/sw-0.js).
      ...(folder && !opts.served ? { searchIndex: true as const } : {}),
    };

    const result = {
      ...unwrittenResult(opts.out, verified, { episodes: stats.length, tally: tallyOf(stats, errored.length), views, images: panos.count }, errors),
      board: true,
    };
    if (errors.length && !opts.partial) return result;

    const compare = (task: number) => {
      const maps = compareMaps.maps(task);
      return maps === null ? null : scriptJson(maps);
    };
    if (folder) chunks.writeFiles(folder, compare);
    else await chunks.writeTo(chunkPart, compare);
    let rowFiles = 0;
    for (let i = 0; i < later.length; i += ROWS_PER_FILE, rowFiles++)
      folder!.write(`data/${ROWS_KIND}-${rowFiles}.js`, dataScript(ROWS_KIND, rowFiles, scriptJson(later.slice(i, i + ROWS_PER_FILE))));
    // The folder form's first screen should not wait for the panorama, view, player and map-cell tables (most of
    // index.html on a large board): they go to data/tables-0.js, loaded once first needed (data-files.ts pageTables).
    const tableFile = folder !== null && !opts.served;
    const parts = pageParts(
      {
        title:
          opts.title ??
          `${opts.episodes.map((f) => basename(f)).join(", ")} · board of ${report.arms.length} arm${report.arms.length === 1 ? "" : "s"}: ${report.arms.map((a) => a.arm).join(", ")} · georeplay`,
        episodes: stats.length,
        views,
        images: panos.count,
        checked: verified.checked,
        match: verified.match,
        resolved: verified.resolved,
        mismatch: verified.mismatch,
        errored: verified.errored_episodes.map((e) => ({ id: e.episode_id, message: e.message })),
        problems: [...errors, ...verified.warnings].map((e) => e.message),
        formats: verified.formats,
        recorded: 0,
        sections: "",
        incomplete: errors.map((e) => e.message),
        board: boardSections(report, notes, baseline),
        tableFile,
        ...(later.length ? { rowFiles } : {}),
      },
      summariseRun(
        stats,
        errored.map((e) => e.model),
      ),
      player !== null && player.count > 0,
      target.form,
    );
    // One table of atlas cells for the page's maps and its player.
    const cellKeys = [...mapCells.cells(), ...(player?.count ? player.cellKeys() : [])];
    const tail = tableFile ? parts.tail : mapCellsTail(player?.count ? boardPlayerTail(parts.tail, player) : parts.tail, cellKeys);
    const dataJson = scriptJson(data);
    // The one-file form: the views fill what the rest of the page leaves of --max-mb (or --exact-zooms-mb, if given).
    await Promise.all([chunkPart.close(), panoPart.close()]);
    const rest = [parts.head, dataJson, parts.middle, parts.between!, parts.exact!, tail].reduce((n, p) => n + Buffer.byteLength(p), 0);
    await exactViews.finish(exactPart, budget.viewBytes(rest + chunkPart.bytes + panoPart.bytes));
    await exactPart.close();
    const bytes = await writePage(
      pagePath,
      tableFile
        ? [parts.head, dataJson, parts.middle, chunkPart, tail]
        : [parts.head, dataJson, parts.middle, chunkPart, parts.between!, panoPart, parts.exact!, exactPart, tail],
      opts.signal,
    );
    if (folder && tableFile) {
      const playerEntry = player?.count ? `,${JSON.stringify(PLAYER_META_ID)}:${player.metaJson()}` : "";
      const tables = await writePage(
        `${folder.tmp}/data/tables-0.js`,
        [
          `${DATA_CALLBACK}("tables",0,{${JSON.stringify(BOARD_PANOS_ID)}:[`,
          panoPart,
          `],"gr-images":[`,
          exactPart,
          `]${playerEntry},${JSON.stringify(MAP_CELLS_ID)}:${mapCellsJson(cellKeys)}});\n`,
        ],
        opts.signal,
      );
      folder.counted(tables);
    }
    if (folder) {
      folder.counted(bytes);
      folder.commit();
    }
    return {
      ...result,
      written: true,
      partial: errors.length > 0,
      bytes: folder ? folder.bytes : bytes,
      form: target.form,
      files: folder ? folder.files : 1,
      viewsEmbedded: exactViews.embedded,
      viewsLeftOut: exactViews.leftOut,
    };
  } finally {
    cleanup();
    off();
  }
}
