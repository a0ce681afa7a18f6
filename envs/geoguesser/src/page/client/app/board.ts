/**
 * The board page, composed from the shared parts: one store (route and list
 * state in the address), the per-task table (app/tasks), the episode list
 * (app/list, the run page's), the open episode (app/detail; details load
 * from their task's chunk) and the compare view (app/compare). Each renders
 * from the store; the keyboard acts on the view the route names.
 */
import type { BoardData, BoardEpisodeRow } from "../../board/data.ts";
import type { PageEpisode } from "../../model.ts";
import { el, fmt, readJson } from "../../../../../../src/page/client/dom.ts";
import { Chunks, PanoMedia } from "../board-media.ts";
import { storeFromAddress } from "../state/store.ts";
import { append, rowText, type ListRow } from "../state/rows.ts";
import { EpisodeList, type TextReach } from "./list/list.ts";
import { FolderTextSearch } from "../folder-search.ts";
import { IndexTextSearch } from "../index-search.ts";
import { dataFile, isFolderForm, pageTables } from "../../../../../../src/page/client/data-files.ts";
import { ROWS_KIND } from "../../list-row.ts";
import { DetailView } from "./detail/view.ts";
import { CompareView } from "./compare/compare.ts";
import { playerHooks } from "./player/player.ts";
import { TaskTable } from "./tasks/tasks.ts";
import { ReportTables } from "./report/sort.ts";
import { episodesByTask } from "./tasks/rows.ts";
import { bindLightbox, enlarge, lightboxOpen } from "./detail/lightbox.ts";
import { bindKeys, episodeKeyMap } from "../keys.ts";
import { enlargeKey } from "./keys.ts";
import { isLive, startLive, type LiveCounts } from "../../../../../../src/page/client/app/live.ts";
import type { BoardEvent } from "../../board/live-event.ts";

export function startBoard(): void {
  const doc = document;
  const data = readJson<BoardData>("gr-board-data");
  const byId = new Map<string, BoardEpisodeRow>();
  for (const e of data.episodes) if (!byId.has(e.id)) byId.set(e.id, e);
  const byTask = episodesByTask(data.episodes);
  const media = new PanoMedia(data.pano.width, data.pano.height);
  const chunks = new Chunks((n) => media.exact.has(n));

  // Search: a row's own fields at once; replies, prompts and feedback once read. The one-file form reads every
  // task's chunk once and keeps the texts; the folder form reads its search index (the words a query needs, kept
  // between queries), or, a served page (no index: its episodes grow), the text files per query, keeping only the hits.
  const fields = new Map<string, string>();
  const own = (r: ListRow) => {
    let f = fields.get(r.id);
    if (f === undefined) fields.set(r.id, (f = rowText(r)));
    return f;
  };
  let byPlace: Map<string, string> | null = null;
  const idOf = (chunk: number, at: number) => (byPlace ??= new Map(data.episodes.map((r) => [`${r.chunk}:${r.at}`, r.id]))).get(`${chunk}:${at}`);
  const folder = !isFolderForm()
    ? null
    : data.searchIndex
      ? new IndexTextSearch(idOf)
      : new FolderTextSearch(data.episodes.map((r) => ({ id: r.id, file: r.chunk, at: r.at })));
  const texts = new Map<string, string>();
  const text = (r: ListRow) => (folder ? folder.text(r.id, own(r)) : (texts.get(r.id) ?? own(r)));
  let loaded: Promise<TextReach> | null = null;
  // A board folder's rows past its first ones are in data/rows-<k>.js (board/build.ts), read after the first screen;
  // a search waits for them: its hits are named by row (idOf), and every row must be there to be named.
  const rowFiles = isFolderForm() ? Number(doc.documentElement.dataset.rowFiles ?? 0) : 0;
  let rowsIn: () => void = () => {};
  const allRows = rowFiles ? new Promise<void>((resolve) => (rowsIn = resolve)) : Promise.resolve();
  const loadText = (q: string): Promise<TextReach> =>
    folder
      ? allRows.then(() => folder.search(q)).then((done) => (done ? "query" : "stale"))
      : (loaded ??= (async () => {
          const n = [...new Set(data.episodes.map((r) => r.chunk))];
          const all = await Promise.all(n.map((c) => chunks.texts(c)));
          const byChunk = new Map(n.map((c, i) => [c, all[i]]));
          for (const r of data.episodes) {
            const t = byChunk.get(r.chunk)?.[r.at];
            if (t !== undefined) texts.set(r.id, own(r) + "\n" + t);
          }
          return "all" as const;
        })());

  const store = storeFromAddress();
  const noMatch = () => detail.clear("No episode matches the search and filters.");
  const rewardLine = (e: PageEpisode) => {
    const r = byId.get(e.id);
    if (!r) return null;
    const counted = r.env !== null;
    const errored = r.flags.includes("errored");
    return el(
      "p",
      "meta reward-line" + (counted ? "" : " uncounted"),
      (errored ? "errored in the environment: no turns, no reward" : `reward ${r.score.toFixed(4)} (geoeval's, recomputed from distance and cost)`) +
        ` · env reward ${fmt(r.env, 4)} (the environment's stored reward)` +
        (counted ? "" : ` · not counted: ${errored ? "errored" : "unscored (no env reward)"}, so geoeval's report and every mean on this page leave it out`),
    );
  };
  const detail = new DetailView(
    doc,
    store,
    {
      has: (id) => byId.has(id),
      get: async (id) => (await chunks.get(byId.get(id)!.chunk))[byId.get(id)!.at] ?? null,
      header: rewardLine,
    },
    media,
    playerHooks(
      doc.getElementById("gr-detail") as HTMLElement,
      (t) => detail.markTurn(t, false),
      (e) => ({ kind: "board", episode: e }),
    ),
  );
  const taskTable = new TaskTable(doc, store, data, byTask);
  taskTable.render(store.get());
  const reportTables = new ReportTables(doc, store);
  reportTables.render(store.get());
  const compare = new CompareView(doc, store, data, byTask, (c) => chunks.task(c), media);
  const list = new EpisodeList(doc, store, { rows: data.episodes, text, loadText, kind: "board" }, (id) => detail.open(id, null), noMatch);
  bindLightbox(doc);

  const episodeKeys = episodeKeyMap({
    open: () => (detail.current ? { id: detail.current.id, turns: detail.current.turns.map((t) => t.turn), turn: detail.currentTurn } : null),
    shown: () => list.shown.map((r) => r.id),
    go: (id, turn) => detail.open(id, turn),
  });
  bindKeys(
    doc,
    () =>
      store.get().route.kind === "compare"
        ? {
            n: () => compare.stepTask(1),
            p: () => compare.stepTask(-1),
            j: () => compare.stepAttempt(1),
            k: () => compare.stepAttempt(-1),
            Escape: () => compare.close(),
          }
        : { ...episodeKeys, v: () => enlargeKey(doc, enlarge) },
    doc.getElementById("f-q") as HTMLInputElement,
    lightboxOpen,
  );
  window.addEventListener("popstate", () => store.followAddress());
  window.addEventListener("hashchange", () => store.followAddress());

  /** Rows the page did not list yet (a live stream's, a folder's row files): listed once, in every table that counts them. */
  const addRows = (more: readonly BoardEpisodeRow[]): BoardEpisodeRow[] => {
    // An episode listed once, whatever the stream repeats (a re-read file, a reconnect).
    const fresh = more.filter((r) => !byId.has(r.id));
    for (const r of fresh) {
      byId.set(r.id, r);
      if ((data.countries[String(r.task)] ?? null) === null) data.countries[String(r.task)] = r.country;
    }
    if (fresh.length) {
      // The list reads this array: new rows go at its end, the reader's sort and filters apply to them.
      append(data.episodes, fresh);
      byPlace = null;
      if (folder instanceof FolderTextSearch) folder.add(fresh.map((r) => ({ id: r.id, file: r.chunk, at: r.at })));
      const touched = new Set(fresh.map((r) => r.task));
      for (const [task, arms] of episodesByTask(data.episodes.filter((r) => touched.has(r.task)))) byTask.set(task, arms);
    }
    return fresh;
  };

  list.apply();
  showViewSources(doc, media);
  // The first screen (header, report tables, the list's first rows) is drawn; a folder's other rows come next.
  doc.documentElement.dataset.firstScreen = "1";
  (window as unknown as { grFirstScreenAt: number }).grFirstScreenAt = performance.now();
  if (!rowFiles) return settle();
  list.loading(`reading the list (${rowFiles} file${rowFiles === 1 ? "" : "s"})…`);
  // Read once the first screen is painted: the files' scripts run on the thread that paints it.
  const painted = new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  painted
    .then(() => readRows(rowFiles))
    .then(
      (got) => {
        const fresh = addRows(got);
        taskTable.grew(store.get());
        list.loaded(fresh);
        rowsIn();
        settle();
      },
      (e: Error) => {
        list.loading(`the list could not be read: ${e.message}`);
        rowsIn();
        settle();
      },
    );

  /** The address's episode or compare view opened, the live stream joined: the page is whole. */
  function settle(): void {
    const live = isLive(doc);
    // A served page's address may name an episode its stream has yet to bring (a reload, a deep link).
    if (live) detail.setWaiting(true);
    const s = store.get();
    if (s.route.kind === "compare") void compare.render(s, null);
    else if (s.route.kind === "episode" || s.route.kind === "moment") void detail.render(s, null);
    // Served live: new episodes join the list, the per-task table and the compare view, and the report's
    // tables and per-task numbers follow the sweep (the reader's sorts, filters, scroll and open episode stay).
    if (live)
      startLive<LiveCounts, never, BoardEvent>(doc, {
        caughtUp: () => detail.setWaiting(false),
        board: (e) => {
          // The tables first: a new row's detail points into them.
          media.exact.extend(e.imagesFrom, e.images);
          media.extendPanos(e.panosFrom, e.panos);
          const fresh = addRows(e.rows);
          if (e.report) {
            reportTables.refresh(e.report.html, store.get());
            data.tasks = e.report.tasks;
            data.arms = e.report.arms;
          }
          taskTable.grew(store.get());
          // The address's episode, if it was among them, opens, and the list shows its row.
          if (fresh.length && detail.grew()) list.loaded(fresh);
          else if (fresh.length) list.grew(fresh);
        },
      });
    doc.documentElement.dataset.ready = "1";
    (window as unknown as { grReadyAt: number }).grReadyAt = performance.now();
  }
}

/** data/rows-0.js … data/rows-<n-1>.js in order, one at a time with a yield between (the first screen keeps answering). */
async function readRows(n: number): Promise<BoardEpisodeRow[]> {
  const out: BoardEpisodeRow[] = [];
  for (let k = 0; k < n; k++) {
    for (const r of await dataFile<BoardEpisodeRow[]>(ROWS_KIND, k, { keep: false })) out.push(r);
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  return out;
}

/**
 * The header says how many of the board's distinct verified views are exact bytes and how many the
 * browser draws by reprojecting a panorama (a one-file page over its --max-mb): a badge "match" must
 * not stand for both. Read once the image table is parsed.
 */
function showViewSources(doc: Document, media: PanoMedia): void {
  const fill = () => {
    const span = doc.getElementById("gr-view-sources");
    if (!span) return;
    const { entries, images } = media.exact.tally();
    span.dataset.exact = String(images);
    span.dataset.reprojected = String(entries - images);
    span.textContent =
      entries === images
        ? `; all ${entries} distinct verified views exact`
        : `; ${images} of ${entries} distinct verified views exact, ${entries - images} drawn by the browser's reprojection (over the one-file budget; -o DIR/ keeps every view exact)`;
  };
  void pageTables().then(fill);
}
