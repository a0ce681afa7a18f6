/**
 * The run page, composed from the shared parts: one store (state/store.ts)
 * holding the route and the list state, the episode list (app/list), the
 * open episode (app/detail), on training pages the steps and groups
 * (app/training), and the keyboard, each rendering from the store.
 */
import type { PageEpisode } from "../../model.ts";
import { readJson } from "../../../../../../src/page/client/dom.ts";
import { dataFile, isFolderForm } from "../../../../../../src/page/client/data-files.ts";
import { addMapCells, loadMapCells } from "../map-cells.ts";
import type { RunRow } from "../../output/run-batches.ts";
import { LazyImages } from "../images.ts";
import { storeFromAddress } from "../state/store.ts";
import { append, detailText, rowOfEpisode, rowText, type ListRow } from "../state/rows.ts";
import { ROWS_KIND } from "../../list-row.ts";
import { EpisodeList, type TextReach } from "./list/list.ts";
import { FolderTextSearch } from "../folder-search.ts";
import { DetailView } from "./detail/view.ts";
import { playerHooks } from "./player/player.ts";
import { runSource } from "../../player/hook.ts";
import { bindLightbox, enlarge, lightboxOpen } from "./detail/lightbox.ts";
import { bindKeys, episodeKeyMap } from "../keys.ts";
import { enlargeKey } from "./keys.ts";
import type { PageGroup, TrainingData } from "../../training.ts";
import { GROUPS_KIND } from "../../training-parts.ts";
import { indexTraining, trainFieldsOf, withTrainFields } from "../state/training.ts";
import { TrainingView } from "./training/view.ts";
import { groupLine } from "./training/group.ts";
import { isLive, startLive } from "../../../../../../src/page/client/app/live.ts";
import type { EpisodesEvent, TrainingEvent } from "../../live-events.ts";
import { LIVE_PLAYER_KIND, type LivePlayerData } from "../../player/format.ts";
import type { PlaySource } from "../../player/video.ts";

/** Where the run page's episodes come from: the page itself (one file), or its data files in batches (the folder form). */
interface RunSource {
  rows: ListRow[];
  has(id: string): boolean;
  get(id: string): PageEpisode | null | Promise<PageEpisode | null>;
  text(r: ListRow): string;
  loadText?(q: string): Promise<TextReach>;
  /** A live page's new rows (folder form): returns the ones it did not hold yet. */
  add?(rows: RunRow[]): RunRow[];
  /** The folder form: the page's rows, read from its data files once the first screen is drawn (the page's own: repeats kept). */
  load?(): Promise<RunRow[]>;
}

function inlineSource(): RunSource {
  const episodes = readJson<PageEpisode[]>("gr-episodes");
  const byId = new Map<string, PageEpisode>();
  for (const e of episodes) if (!byId.has(e.id)) byId.set(e.id, e);
  const texts = new Map<string, string>();
  return {
    rows: episodes.map(rowOfEpisode),
    has: (id) => byId.has(id),
    get: (id) => byId.get(id) ?? null,
    text: (r) => {
      let t = texts.get(r.id);
      if (t === undefined) texts.set(r.id, (t = rowText(r) + "\n" + detailText(byId.get(r.id)!)));
      return t;
    },
  };
}

/**
 * data/<kind>-0.js … data/<kind>-<n-1>.js, one at a time with a yield between: each file's script holds
 * the main thread while it runs, and the first screen must keep answering (a hover, a click) meanwhile.
 */
async function dataFiles<T>(kind: string, n: number): Promise<T[][]> {
  const out: T[][] = [];
  for (let k = 0; k < n; k++) {
    out.push(await dataFile<T[]>(kind, k, { keep: false }));
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  return out;
}

function folderSource(): RunSource {
  const rows = readJson<RunRow[]>("gr-episodes");
  const byId = new Map<string, RunRow>();
  const own = (more: readonly RunRow[]) => {
    for (const r of more) if (!byId.has(r.id)) byId.set(r.id, r);
  };
  own(rows);
  // Search: a row's own fields at once; every word per query, read from the batches' search texts (folder-search.ts).
  const search = new FolderTextSearch(rows.map((r) => ({ id: r.id, file: r.batch, at: r.at })));
  const files = Number(document.documentElement.dataset.rowFiles ?? 0);
  return {
    rows,
    load: files
      ? async () => {
          const got = (await dataFiles<RunRow>(ROWS_KIND, files)).flat();
          own(got);
          search.add(got.map((r) => ({ id: r.id, file: r.batch, at: r.at })));
          return got;
        }
      : undefined,
    has: (id) => byId.has(id),
    get: async (id) => {
      const r = byId.get(id);
      if (!r) return null;
      // Its maps keep only their frames: land and borders are cut from the page's cells (map-cells.ts).
      const [batch] = await Promise.all([dataFile<PageEpisode[]>("episodes", r.batch), loadMapCells()]);
      return batch[r.at] ?? null;
    },
    text: (r) => search.text(r.id, rowText(r)),
    loadText: (q) => search.search(q).then((done) => (done ? "query" : "stale")),
    add: (more) => {
      // An episode shown once, whatever the stream repeats (a re-read file, a reconnect).
      const fresh = more.filter((r) => !byId.has(r.id));
      for (const r of fresh) byId.set(r.id, r);
      search.add(fresh.map((r) => ({ id: r.id, file: r.batch, at: r.at })));
      return fresh;
    },
  };
}

export function startRun(): void {
  const doc = document;
  const src = isFolderForm() ? folderSource() : inlineSource();
  // A training page's groups table: each row gets its group's numbers (the filter expression's step, advantage, ...).
  const training = doc.getElementById("gr-training") ? indexTraining(readJson<TrainingData>("gr-training")) : null;
  const rows = training ? withTrainFields(src.rows, training) : src.rows;
  const media = new LazyImages("gr-images");
  // Episodes `serve` added live that may play: their player data file, planned by the server on the first play.
  const videos = new Map<string, number>();
  // Live first; else the folder form's detail carries its PlayRecord (planned in the browser), else the one-file page's table.
  const playSource = (e: PageEpisode): PlaySource | undefined => {
    const n = videos.get(e.id);
    return n === undefined ? runSource(e) : { kind: "live", data: () => dataFile<LivePlayerData>(LIVE_PLAYER_KIND, n) };
  };

  const store = storeFromAddress();
  const noMatch = () => detail.clear("No episode matches the search and filters.");
  const root = doc.getElementById("gr-detail") as HTMLElement;
  const detail: DetailView = new DetailView(
    doc,
    store,
    { has: src.has, get: src.get, header: training ? (e) => groupLine(training, e.id) : undefined },
    media,
    playerHooks(root, (t) => detail.markTurn(t, false), playSource),
  );
  const list = new EpisodeList(doc, store, { rows, text: src.text, loadText: src.loadText, kind: "run" }, (id) => detail.open(id, null), noMatch);
  const steps = training ? new TrainingView(doc, store, training, rows, () => list.shown, { get: src.get }, media) : null;
  bindLightbox(doc);
  const episodeKeys = episodeKeyMap({
    open: () => (detail.current ? { id: detail.current.id, turns: detail.current.turns.map((t) => t.turn), turn: detail.currentTurn } : null),
    shown: () => list.shown.map((r) => r.id),
    go: (id, turn) => detail.open(id, turn),
  });
  const trainingKeys = () => {
    const k = store.get().route.kind;
    return steps && (k === "step" || k === "group") ? { n: () => steps.go(1), p: () => steps.go(-1), Escape: () => steps.close() } : null;
  };
  bindKeys(doc, () => trainingKeys() ?? { ...episodeKeys, v: () => enlargeKey(doc, enlarge) }, doc.getElementById("f-q") as HTMLInputElement, lightboxOpen);
  window.addEventListener("popstate", () => store.followAddress());
  window.addEventListener("hashchange", () => store.followAddress());

  list.apply();
  // The first screen (header, summaries, the training charts with their hover and clicks) is usable now;
  // a folder page's list rows are read after it (run-batches.ts: 128,000 rows would hold it up for seconds).
  doc.documentElement.dataset.firstScreen = "1";
  (window as unknown as { grFirstScreenAt: number }).grFirstScreenAt = performance.now();

  /** The address's episode or step opened, the live stream joined: the page is whole. */
  const settle = (): void => {
    const live = src.add && isLive(doc) ? src.add : null;
    // A served page's address may name an episode its stream has yet to bring (a reload, a deep link).
    if (live) detail.setWaiting(true);
    const s = store.get();
    if (s.route.kind === "step" || s.route.kind === "group") void steps?.render(s, null);
    else if (s.route.kind !== "none") void detail.render(s, null);
    else if (rows.length && !list.shown.length) noMatch();
    else if (rows.length && window.matchMedia("(min-width: 821px)").matches) {
      // The first episode, shown without a history entry (the address stays as it was).
      detail.showQuietly(list.shown[0]?.id ?? rows[0].id);
    }
    if (live) {
      const add = live;
      startLive<EpisodesEvent, TrainingEvent>(doc, {
        caughtUp: () => detail.setWaiting(false),
        episodes: (e) => {
          media.extend(e.imagesFrom, e.images);
          // The new episodes' maps are cut from cells the page may not have had: loaded before they are drawn.
          if (e.cells !== undefined) addMapCells(e.cells);
          const fresh = add(e.rows);
          if (!fresh.length) return 0;
          for (const r of fresh) if (r.video !== undefined) videos.set(r.id, r.video);
          // The list reads this array: new rows go at its end, the reader's sort and filters apply to them.
          const added = training ? withTrainFields(fresh, training) : fresh;
          append(rows as ListRow[], added);
          steps?.addRows(added);
          // The address's episode, if it was among them, opens, and the list shows its row.
          if (detail.grew()) list.loaded(added);
          else list.grew(added);
          return added.length;
        },
        training: (e) => {
          if (!training || !steps) return;
          // The rows of the touched groups take their new numbers (the filter expression's advantage, ...)
          // before the views redraw: the step view shows the groups the list's filters leave in.
          steps.update(e, () => {
            const touched = new Set(e.groups.flatMap((g) => g.episode_ids));
            const changed: ListRow[] = [];
            (rows as ListRow[]).forEach((r, i) => {
              if (!touched.has(r.id)) return;
              const row = { ...r, train: trainFieldsOf(training, r.id, r.train) };
              (rows as ListRow[])[i] = row;
              changed.push(row);
            });
            if (!changed.length) return;
            steps.addRows(changed);
            list.grew([]);
          });
        },
      });
    }
    doc.documentElement.dataset.ready = "1";
    (window as unknown as { grReadyAt: number }).grReadyAt = performance.now();
  };
  const groupFiles = training ? Number(doc.documentElement.dataset.groupFiles ?? 0) : 0;
  if (!src.load && !groupFiles) return settle();
  const files = Number(doc.documentElement.dataset.rowFiles ?? 0);
  list.loading(`reading the list (${files} file${files === 1 ? "" : "s"})…`);
  // Read once the first screen is painted: the files' scripts run on the thread that paints it.
  const painted = new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  const groups = painted.then(() => dataFiles<PageGroup>(GROUPS_KIND, groupFiles));
  Promise.all([groups.then(() => src.load?.() ?? []), groups]).then(
    ([got, parts]) => {
      // The groups join the index every part reads (as a live page's merged table does), before the rows take their numbers.
      if (training && groupFiles) Object.assign(training, indexTraining({ ...training.data, groups: parts.flat() }));
      const added = training ? withTrainFields(got, training) : got;
      append(rows as ListRow[], added);
      steps?.addRows(added);
      list.loaded(added);
      settle();
    },
    (e: Error) => {
      list.loading(`the list could not be read: ${e.message}`);
      settle();
    },
  );
}
