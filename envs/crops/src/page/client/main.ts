/**
 * The crops page's script: the list (list.ts), the open episode (detail.ts) and, on a board,
 * compare by attempt (compare.ts), from one state kept in the address:
 * `#<episode_id>` or `#compare/<split>/<index>`, then `?q=…&arm=…&status=…&expr=…&sort=…`.
 * Reload restores it; Back and Forward step through what was opened. Keys: n/p episodes, / search.
 */
import { readJson } from "../../../../../src/page/client/dom.ts";
import { dataFile, isFolderForm } from "../../../../../src/page/client/data-files.ts";
import type { CropsDetail, CropsRow } from "../model.ts";
import { CropsList, NO_LIST_STATE, type ListState } from "./list.ts";
import { renderDetail, type Images } from "./detail.ts";
import { renderCompare } from "./compare.ts";
import { followCrops } from "./live.ts";
import { CropsGroups } from "./groups.ts";
import { PLAY_KIND, type CropsPlayTable } from "../play-table.ts";
import type { CropsTrainingData } from "../training.ts";
import { ROWS_KIND, rowsOfColumns, type RowColumns } from "../row-columns.ts";

/** The crops player's bundle (player-bundle.ts), inert until the first Play. */
interface CropsPlayerModule {
  mount(container: HTMLElement, play: string, imgs: Images, opts?: { autoplay?: boolean }): { destroy(): void };
}
declare global {
  interface Window {
    grCropsPlayerLoad?: () => CropsPlayerModule;
  }
}

interface Data {
  /** All rows; with rowFiles, the first FIRST_ROWS until the files are read (then all, in the same array). */
  rows: CropsRow[];
  rowFiles?: { files: number; rows: number } | null;
  details: CropsDetail[];
  /** The folder form: episodes per data/cd-<n>.js, in row order (details is then empty). */
  detailChunk: number | null;
  training?: CropsTrainingData | null;
}

/**
 * The folder form names no view: each is views/<sha256>.jpg beside index.html (the exact bytes,
 * named by their digest), so a lookup by digest answers that file; anything else is no image.
 */
function folderViews(): Record<string, string> {
  return new Proxy({} as Record<string, string>, {
    get: (_, sha) => (typeof sha === "string" && /^[0-9a-f]{64}$/.test(sha) ? `views/${sha}.jpg` : undefined),
  });
}

interface Address {
  route: string;
  list: ListState;
}

const KEYS: (keyof ListState)[] = ["q", "arm", "status", "expr", "sort"];

function readAddress(): Address {
  const h = location.hash.slice(1);
  const i = h.indexOf("?");
  // The route alone is decoded: the query's own escapes (a & or + in a search) are URLSearchParams's.
  const route = decodeURIComponent(i < 0 ? h : h.slice(0, i));
  const params = new URLSearchParams(i < 0 ? "" : h.slice(i + 1));
  const list = { ...NO_LIST_STATE };
  for (const k of KEYS) list[k] = params.get(k) ?? "";
  return { route, list };
}

function addressOf(a: Address): string {
  const p = new URLSearchParams();
  for (const k of KEYS) if (a.list[k]) p.set(k, a.list[k]);
  const q = p.toString();
  return "#" + encodeURIComponent(a.route).replace(/%2F/g, "/") + (q ? "?" + q : "");
}

/** The page's own clock at its first screen and when it is whole (what bench/first-screen.ts reads). */
function mark(flag: "firstScreen" | "ready"): void {
  document.documentElement.dataset[flag] = "1";
  (window as unknown as Record<string, number>)[flag === "ready" ? "grReadyAt" : "grFirstScreenAt"] = performance.now();
}

/** All the rows of the folder form's data/cr-<k>.js files, read in parallel (each file's rows built as it arrives), in list order. */
async function readRows(files: number): Promise<CropsRow[]> {
  const parts = await Promise.all(Array.from({ length: files }, (_, k) => dataFile<RowColumns>(ROWS_KIND, k, { keep: false }).then(rowsOfColumns)));
  return parts.flat();
}

/** Resolves after the next frame is painted: what is in the document now is on screen (at once in a hidden tab, which paints no frame). */
const painted = (): Promise<void> => new Promise((r) => (document.hidden ? r() : requestAnimationFrame(() => setTimeout(r, 0))));

async function start(): Promise<void> {
  const doc = document;
  const data = readJson<Data>("gr-crops");
  const imgs = readJson<Images>("gr-crops-images");
  if (isFolderForm()) imgs.images = folderViews();
  const byId = new Map(data.details.map((d) => [d.key, d]));
  // Row positions as written (the folder form's detail files follow them); a served page adds rows and details live.
  let rowAt = new Map(data.rows.map((r, i) => [r.key, i]));
  const known = (key: string) => rowAt.has(key) || byId.has(key);
  // The folder form's details arrive by file, a file when one of its episodes is first needed.
  const chunk = data.detailChunk;
  const loadChunk = async (n: number): Promise<void> => {
    for (const d of await dataFile<CropsDetail[]>("cd", n)) byId.set(d.key, d);
  };
  const ensure = (ids: readonly string[]): Promise<void> | null => {
    if (chunk === null) return null;
    const want = [...new Set(ids.filter((id) => !byId.has(id) && rowAt.has(id)).map((id) => Math.floor(rowAt.get(id)! / chunk)))];
    return want.length ? Promise.all(want.map(loadChunk)).then(() => undefined) : null;
  };
  // A search reads every episode's words: the folder form loads all its detail files once.
  let allWords: Promise<void> | null = null;
  const ensureAllWords = () => {
    if (chunk === null || allWords) return;
    const files = Math.ceil(data.rows.length / chunk);
    allWords = (async () => {
      for (let n = 0; n < files; n++) await loadChunk(n);
    })().then(() => {
      texts.clear();
      list.invalidate();
      render();
    });
  };
  // Search text: the row's fields, and the episode's labels, actions, replies, reasoning and feedback.
  const texts = new Map<string, string>();
  const text = (r: CropsRow): string => {
    let t = texts.get(r.key);
    if (t === undefined) {
      const d = byId.get(r.key);
      const words = d ? d.turns.flatMap((x) => [x.action, x.reply ?? "", x.reasoning ?? "", x.feedback, ...x.boxes.map((b) => b.label)]) : [];
      t = [r.id, r.arm, `${r.split}/${r.task}`, `task ${r.task}`, r.image, r.flags.join(" "), ...words].join("\n").toLowerCase();
      texts.set(r.key, t);
    }
    return t;
  };
  let addr = readAddress();
  const go = (next: Address, push: boolean) => {
    addr = next;
    const url = addressOf(next);
    if (url !== location.hash) (push ? history.pushState : history.replaceState).call(history, null, "", url || "#");
    render();
  };
  const detailRoot = doc.getElementById("gr-detail") as HTMLElement;
  const compareRoot = doc.getElementById("gr-compare") as HTMLElement;
  const list = new CropsList(
    doc,
    data.rows,
    text,
    () => addr.list,
    (patch) => go({ ...addr, list: { ...addr.list, ...patch } }, false),
    (id) => go({ ...addr, route: id }, true),
  );
  if (data.rowFiles) {
    // The folder form's first screen: the header and board (HTML), and the top of the list from
    // index.html's own rows, painted before the row files are read. An address with a search,
    // filter or sort needs every row for its list: its first screen is the whole page.
    const plain = KEYS.every((k) => !addr.list[k]);
    if (plain) {
      list.pending(data.rowFiles.rows);
      list.render(null);
      mark("firstScreen");
      // The row files are read once that screen is painted: their scripts would otherwise run before the paint.
      await painted();
    }
    const all = await readRows(data.rowFiles.files);
    // The same array (the list and the live stream hold it), now every row.
    data.rows.length = 0;
    for (const r of all) data.rows.push(r);
    rowAt = new Map(data.rows.map((r, i) => [r.key, i]));
    list.pending(null);
    list.invalidate();
  }
  // A training page: a step's groups (`#step/<n>` opens one; the list and the open episode stay as they are).
  const groupsRoot = doc.getElementById("gr-crops-groups");
  const groups =
    data.training && groupsRoot
      ? new CropsGroups(
          groupsRoot,
          data.training,
          new Map(data.rows.map((r) => [r.key, r])),
          byId,
          imgs,
          (id) => go({ ...addr, route: id }, true),
          (step) => go({ ...addr, route: `step/${step}` }, true),
        )
      : null;
  // The in-page player: its table and script are read on the first Play only.
  let plays: CropsPlayTable | null = null;
  let player: CropsPlayerModule | null = null;
  let playing: { destroy(): void } | null = null;
  const playable = !!doc.getElementById("gr-crops-play") && typeof window.grCropsPlayerLoad === "function";
  const entryOf = async (key: string): Promise<string | undefined> => {
    plays ??= readJson<CropsPlayTable>("gr-crops-play");
    if ("entries" in plays) return plays.entries[key];
    const at = rowAt.get(key);
    return at === undefined ? undefined : (await dataFile<Record<string, string>>(PLAY_KIND, Math.floor(at / plays.perFile)))[key];
  };
  const playFor = (key: string) => (host: HTMLElement) => {
    player ??= window.grCropsPlayerLoad!();
    playing?.destroy();
    playing = null;
    host.textContent = "loading the video…";
    entryOf(key).then(
      (entry) => {
        if (detailRoot.dataset.episode !== key) return; // another episode was opened meanwhile
        if (entry === undefined) host.textContent = "this episode has no video in this page";
        else playing = player!.mount(host, entry, imgs);
      },
      (e: Error) => (host.textContent = e.message),
    );
  };
  let shownId: string | null = null;
  // A served page (live.ts): an address naming an episode it does not hold yet waits for it instead of opening another.
  let live = false;
  let waiting = false;
  function render(scroll = true): void {
    const step = /^step\/(\d+)$/.exec(addr.route);
    if (groups && data.training) {
      // The step shown (the first when none is asked for): its siblings' details first, for their boxes.
      const steps = [...new Set(data.training.groups.map((g) => g.step))].sort((a, b) => a - b);
      const shown = step && steps.includes(Number(step[1])) ? Number(step[1]) : steps[0];
      const loading = ensure(data.training.groups.filter((g) => g.step === shown).flatMap((g) => g.episode_ids));
      if (loading) {
        void loading.then(() => render(scroll));
        return;
      }
      groups.show(step ? Number(step[1]) : null);
    }
    // A step's groups keep the open episode open.
    const route = step ? (shownId ?? "") : addr.route;
    if (addr.list.q) ensureAllWords();
    const rows = list.render(route.startsWith("compare/") ? null : route);
    if (route.startsWith("compare/")) {
      const task = route.slice("compare/".length);
      const loading = ensure(data.rows.filter((r) => `${r.split}/${r.task}` === task).map((r) => r.key));
      if (loading) {
        void loading.then(() => render(scroll));
        return;
      }
      compareRoot.hidden = false;
      renderCompare(compareRoot, route.slice("compare/".length), data.rows, (id) => byId.get(id), imgs);
      if (scroll) compareRoot.scrollIntoView();
      return;
    }
    compareRoot.hidden = true;
    if (live && route !== "" && !byId.has(route)) {
      detailRoot.textContent = waiting
        ? `Episode ${route}: reading the server's new episodes…`
        : `Episode ${route} is not in this page yet: it opens when the server reads it.`;
      delete detailRoot.dataset.episode;
      shownId = null;
      return;
    }
    // The open episode follows the filters: one they leave out gives way to the first row shown.
    const id = known(route) && rows.some((r) => r.key === route) ? route : (rows[0]?.key ?? null);
    const loading = id === null ? null : ensure([id]);
    if (loading) {
      void loading.then(() => render(scroll));
      return;
    }
    if (id === null) {
      detailRoot.textContent = "No episode matches the search and filters.";
      shownId = null;
    } else if (id !== shownId || detailRoot.dataset.episode !== id) {
      playing?.destroy();
      playing = null;
      renderDetail(detailRoot, byId.get(id)!, imgs, playable ? playFor(id) : undefined);
      shownId = id;
    }
    for (const tr of Array.from(doc.querySelectorAll<HTMLElement>("#gr-rows tr"))) tr.classList.toggle("sel", tr.dataset.key === id);
    if (step) groupsRoot?.scrollIntoView();
  }
  window.addEventListener("hashchange", () => {
    addr = readAddress();
    render();
  });
  window.addEventListener("popstate", () => {
    addr = readAddress();
    render();
  });
  doc.addEventListener("keydown", (e) => {
    const target = e.target as HTMLElement;
    if (target.tagName === "INPUT" || target.tagName === "SELECT" || target.tagName === "TEXTAREA" || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === "/") {
      e.preventDefault();
      (doc.getElementById("f-q") as HTMLInputElement).focus();
    } else if (e.key === "n" || e.key === "p") {
      const ids = list.rows.map((r) => r.key);
      const at = ids.indexOf(shownId ?? "");
      const next = ids[Math.min(ids.length - 1, Math.max(0, at + (e.key === "n" ? 1 : -1)))];
      if (next) go({ ...addr, route: next }, true);
    } else if (e.key === "Escape" && addr.route.startsWith("compare/")) go({ ...addr, route: "" }, true);
  });
  live = followCrops(doc, { rows: data.rows, byId, imgs }, { render: () => render(false), waiting: (w) => void (waiting = w) });
  render();
  if (!doc.documentElement.dataset.firstScreen) mark("firstScreen");
  // Ready once every row is in and the open episode is shown (in the folder form, after its detail file arrives).
  const first = known(addr.route) ? addr.route : data.rows[0]?.key;
  const loading = first === undefined ? null : ensure([first]);
  if (loading) void loading.then(() => mark("ready"));
  else mark("ready");
}

void start().catch((e: Error) => {
  const count = document.getElementById("gr-count");
  if (count) count.textContent = e.message;
  throw e;
});
