/**
 * `buildPage` with a baseline: a board page. The report's numbers come from
 * the report engine (replay/board: readBoard -> boardReport), never
 * recomputed here. Episodes stream from verifyRun as for every page, but at
 * board scale nothing per view is embedded: each episode's detail (text cut
 * at TEXT_CAP characters) goes to its task's gzip chunk, each panorama once
 * into the panorama table, and only a small row per episode stays in memory.
 */
import { mkdirSync } from "node:fs";
import { basename, dirname } from "node:path";
import { readBoard, boardReport } from "../../../replay/board/index.ts";
import type { Report } from "../../../replay/board/report-schema.ts";
import { geoevalReward } from "../../../replay/rules/reward.ts";
import { verifyRun, type ProblemEntry, type ViewOutcome } from "../../../replay/verify/verify.ts";
import { anyPanoPath } from "../../../replay/panos/files.ts";
import { PanoError } from "../../../replay/panos/store.ts";
import type { Episode } from "../../../replay/schema/episode.ts";
import { tempPathFor } from "../../../replay/io/atomic.ts";
import { onAbort } from "../../../replay/io/abort.ts";
import { GeoreplayError, problemsByTurn } from "../../../replay/io/errors.ts";
import { ioReason } from "../../../replay/io/jsonl.ts";
import { PartFile, writePage } from "../part-file.ts";
import { DEFAULT_EXACT_MB, unwrittenResult, type BuildPageOptions, type BuildPageResult } from "../page-options.ts";
import { erroredPageEpisode, pageEpisode, type PageEpisode } from "../model.ts";
import { summariseRun, type EpisodeStats } from "../stats.ts";
import { scriptJson } from "../escape.ts";
import { pageParts } from "../view/template.ts";
import { boardSections } from "./sections.ts";
import { PanoTable } from "../pano-table.ts";
import { TaskChunks } from "./chunks.ts";
import { ExactViewTable, EXACT_MAX_FOV } from "./exact-views.ts";
import { CompareMapTable } from "./compare-maps.ts";
import { BoardPlayer, boardPlayerTail } from "./play.ts";
import type { BoardData, BoardEpisodeRow, PanoRef } from "./data.ts";

/** Replies, reasoning and prompts are cut here in board pages: the full text of 12,800 episodes is over a GB. */
export const TEXT_CAP = 240;

/** The board's own report, or why there is none for this baseline. */
async function reportFor(opts: BuildPageOptions & { baseline: string }): Promise<{ report: Report; notes: string[] }> {
  const board = await readBoard(opts.episodes, { signal: opts.signal });
  const report = boardReport(board, { baseline: opts.baseline });
  if (!report.paired) {
    throw new GeoreplayError(`--baseline ${opts.baseline}: no arm of that name on this board (arms: ${report.arms.map((a) => a.arm).join(", ")})`);
  }
  return { report, notes: board.notes };
}

const cut = (s: string | null) => (s !== null && s.length > TEXT_CAP ? s.slice(0, TEXT_CAP) : s);

/** Views the verifier rendered (a view it could not render already has its problem reported). */
const RENDERED = new Set(["match", "resolved", "mismatch"]);

/**
 * The episode as its chunk stores it: text cut (with the full lengths), views
 * pointing at panoramas; and the panoramas that could not be embedded.
 */
async function compactEpisode(
  page: PageEpisode,
  ep: Episode,
  task: { frames: { image_id: string; compass_angle?: number | null }[] } | null,
  panosDir: string | undefined,
  panos: PanoTable,
  exact: { table: ExactViewTable; views: readonly ViewOutcome[] },
  chunk: { addMap(map: NonNullable<PageEpisode["turns"][number]["map"]>): number },
): Promise<{ episode: PageEpisode; problems: string[] }> {
  const byTurn = new Map(ep.turns.map((t) => [t.turn, t]));
  const outcomes = new Map(exact.views.map((o) => [o.turn, o]));
  const turns = [];
  const problems: { turn: number; message: string }[] = [];
  for (const t of page.turns) {
    let pano: PanoRef | null = null;
    const cam = byTurn.get(t.turn)?.camera_after;
    const frame = cam && task ? task.frames[cam.frame_index] : undefined;
    if (t.kind === "view" && t.check !== null && RENDERED.has(t.check) && cam && frame && panosDir) {
      let index: number | null = null;
      try {
        const file = anyPanoPath(panosDir, frame.image_id);
        if (file === null) throw new PanoError(`panorama ${frame.image_id}: neither ${frame.image_id}.jpg nor ${frame.image_id}.orig.jpg is in ${panosDir}`);
        index = await panos.add(file);
      } catch (e) {
        if (!(e instanceof PanoError)) throw e;
        problems.push({ turn: t.turn, message: `cannot embed the panorama: ${e.message}` });
      }
      if (index !== null) pano = { pano: index, heading: cam.heading_deg + (frame.compass_angle ?? 0), pitch: cam.pitch_deg, fov: cam.fov_deg };
    }
    // Zooms: the verified bytes themselves (only where they are the recorded view: match or resolved).
    let image: number | null = null;
    const o = outcomes.get(t.turn);
    if (t.kind === "view" && cam && cam.fov_deg <= EXACT_MAX_FOV && o?.jpeg && o.rendered && (o.status === "match" || o.status === "resolved")) {
      image = await exact.table.add(o.rendered, o.jpeg);
    }
    turns.push({
      ...t,
      // The chunk's map table holds each distinct map once; the page puts it back on load.
      map: null,
      mapRef: t.map ? chunk.addMap(t.map) : null,
      image,
      reply: cut(t.reply),
      reasoning: cut(t.reasoning),
      prompt: cut(t.prompt),
      replyChars: t.reply?.length ?? 0,
      reasoningChars: t.reasoning?.length ?? 0,
      promptChars: t.prompt?.length ?? 0,
      pano,
    });
  }
  const said = problemsByTurn(problems);
  return { episode: { ...page, turns }, problems: said };
}

export async function buildBoardPage(opts: BuildPageOptions & { baseline: string }): Promise<BuildPageResult> {
  const exactMb = opts.exactZoomsMb ?? DEFAULT_EXACT_MB;
  if (!Number.isFinite(exactMb) || exactMb < 0) throw new GeoreplayError("--exact-zooms-mb: expected a number of MB, 0 or more");
  try {
    mkdirSync(dirname(opts.out), { recursive: true });
  } catch (e) {
    throw new GeoreplayError(`-o ${opts.out}: cannot create its folder: ${ioReason(e)}`);
  }
  const { report, notes } = await reportFor(opts);
  const chunkPart = new PartFile(opts.out);
  const panoPart = new PartFile(opts.out);
  const exactPart = new PartFile(opts.out);
  const chunks = new TaskChunks(tempPathFor(opts.out));
  const cleanup = () => {
    chunkPart.remove();
    panoPart.remove();
    exactPart.remove();
    chunks.remove();
  };
  const off = onAbort(opts.signal, cleanup);
  try {
    const panos = new PanoTable(panoPart);
    const exactViews = new ExactViewTable(exactPart, exactMb * 1e6);
    const compareMaps = new CompareMapTable();
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
      // The JPEG bytes come back for every view; only zooms (fov <= 45) are kept, per episode.
      keepImages: exactMb > 0,
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
          panos,
          { table: exactViews, views: v.views },
          {
            addMap: (map) => chunks.addMap(page.index, scriptJson(map)),
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
        const at = chunks.add(page.index, scriptJson(play ? { ...compact, play } : compact));
        compareMaps.add(page.index, v.episode);
        const o = v.episode.outcome ?? null;
        rows.push({
          id: page.id,
          arm: page.model,
          split: page.split,
          task: page.index,
          taskId: page.taskId,
          taskKey: page.index,
          sample: page.sample,
          country: page.country,
          verdict: page.verdict,
          score: geoevalReward(o),
          env: page.reward,
          km: page.distanceKm,
          turns: page.turnsUsed,
          flags: page.flags,
          chunk: -1,
          at,
        });
      },
    });
    if (stats.length === 0) throw new GeoreplayError("no episode to show: the input holds no replayable episode");
    for (const page of errored) {
      const at = chunks.add(page.index, scriptJson(page));
      const { id, model: arm, split, index: task, taskId, sample, country, verdict, score, reward: env, distanceKm: km, turnsUsed: turns, flags } = page;
      rows.push({ id, arm, split, task, taskId, sample, country, verdict, score, env, km, turns, flags, taskKey: task, chunk: -1, at });
    }
    const errors = [...verified.errors, ...embedErrors];
    const order = chunks.order();
    const chunkOf = new Map(order.map((t, i) => [t, i]));
    const countries: Record<string, string | null> = {};
    for (const r of rows) {
      r.chunk = chunkOf.get(r.taskKey)!;
      if (!(String(r.task) in countries) || countries[String(r.task)] === null) countries[String(r.task)] = r.country;
    }
    const data: BoardData = {
      baseline: opts.baseline,
      arms: report.arms.map((a) => a.arm),
      tasks: report.tasks,
      countries,
      episodes: rows.map(({ taskKey: _, ...r }) => r),
      textCap: TEXT_CAP,
      pano: { width: panos.width, height: panos.height },
    };

    const result = unwrittenResult(opts.out, verified, { episodes: stats.length, views, images: panos.count }, errors);
    if (errors.length && !opts.partial) return result;

    await chunks.writeTo(chunkPart, (task) => {
      const maps = compareMaps.maps(task);
      return maps === null ? null : scriptJson(maps);
    });
    await Promise.all([chunkPart.close(), panoPart.close(), exactPart.close()]);
    const parts = pageParts(
      {
        title:
          opts.title ??
          `${opts.episodes.map((f) => basename(f)).join(", ")} · board of ${report.arms.length} arms: ${report.arms.map((a) => a.arm).join(", ")} · georeplay`,
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
        board: boardSections(report, notes),
      },
      summariseRun(
        stats,
        errored.map((e) => e.model),
      ),
      player !== null && player.count > 0,
    );
    const tail = player?.count ? boardPlayerTail(parts.tail, player) : parts.tail;
    const bytes = await writePage(
      opts.out,
      [parts.head, scriptJson(data), parts.middle, chunkPart, parts.between!, panoPart, parts.exact!, exactPart, tail],
      opts.signal,
    );
    return { ...result, written: true, partial: errors.length > 0, bytes };
  } finally {
    cleanup();
    off();
  }
}
