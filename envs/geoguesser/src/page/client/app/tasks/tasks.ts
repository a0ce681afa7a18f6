/**
 * The board page's per-task table, rendered from the store (arm, second arm,
 * country, verdict, text and order live in the address as tarm, tvs,
 * tcountry, tverdict, tq, torder): each task's report numbers for one arm
 * beside a second arm's (the baseline's by default; without --baseline the
 * next-ranked arm) and the delta, its attempts by attempt number
 * (not-counted ones marked), and a link to the compare view of the two.
 * A header click sorts by its column, again reverses it.
 */
import type { BoardData, BoardEpisodeRow } from "../../../board/data.ts";
import { addOptions, el, fmt } from "../../../../../../../src/page/client/dom.ts";
import { isErrored, rewardText } from "../../../list-row.ts";
import type { Store, PageState } from "../../state/store.ts";
import { compareHash, episodeHash } from "../../state/route.ts";
import { selectValues } from "../../state/rows.ts";
import { formatTaskOrder, nextTaskOrder, parseTaskOrder, taskRows, type TaskFilters, type TaskSortKey } from "./rows.ts";

const sgn = (x: number | null) => (x == null ? "–" : (x >= 0 ? "+" : "") + x.toFixed(4));
const KEYS = ["tarm", "tvs", "tcountry", "tverdict", "tq", "torder"] as const;
type Key = (typeof KEYS)[number];

export function attemptLink(r: BoardEpisodeRow): HTMLAnchorElement {
  const a = el("a", "ep-link" + (r.env === null ? " uncounted" : ""), `${r.sample ?? "?"}: ${rewardText(r, 3)}`) as HTMLAnchorElement;
  a.href = episodeHash(r.id, null);
  a.dataset.id = r.id;
  a.dataset.sample = r.sample === null ? "" : String(r.sample);
  a.dataset.counted = String(r.env !== null);
  a.title = `${r.arm} · attempt ${r.sample ?? "?"} · episode ${r.id} · reward ${rewardText(r, 4)} · env reward ${fmt(r.env, 4)}${r.env === null ? ` · not counted: ${isErrored(r) ? "errored in the environment" : "unscored (no env reward)"}` : ""}`;
  return a;
}

export class TaskTable {
  private readonly c: Partial<Record<Key, HTMLSelectElement | HTMLInputElement>>;
  private readonly defaultArm: string;
  private readonly defaultVs: string | null;

  constructor(
    private readonly doc: Document,
    private readonly store: Store,
    private readonly data: BoardData,
    private readonly byTask: Map<number, Map<string, BoardEpisodeRow[]>>,
  ) {
    // A one-arm board has no second-arm select: only the controls the page has.
    const ids: Record<Key, string> = { tarm: "t-arm", tvs: "t-vs", tcountry: "t-country", tverdict: "t-verdict", tq: "t-q", torder: "t-sort" };
    this.c = {};
    for (const k of KEYS) {
      const ctl = doc.getElementById(ids[k]) as HTMLSelectElement | HTMLInputElement | null;
      if (ctl) this.c[k] = ctl;
    }
    // With a baseline: the first other arm against it (the report's pairing); without: the top two arms by mean-of-k.
    const others = data.arms.filter((a) => a !== data.baseline);
    this.defaultArm = data.baseline !== null ? (others[0] ?? data.baseline) : data.arms[0];
    this.defaultVs = data.arms.length < 2 ? null : (data.baseline ?? data.arms[1]);
    this.fill();
    for (const [k, s] of Object.entries(this.c) as [Key, HTMLSelectElement | HTMLInputElement][])
      s.addEventListener("input", () => store.set({ query: { [k]: s.value === this.defaults(k) ? "" : s.value } }, "replace"));
    for (const th of Array.from(doc.querySelectorAll<HTMLElement>("#gr-task-table th[data-sort]"))) {
      th.tabIndex = 0;
      th.title = "sort by this column (again: reverse)";
      const sort = () => {
        const next = nextTaskOrder(parseTaskOrder(store.q("torder")), th.dataset.sort as TaskSortKey);
        const v = formatTaskOrder(next);
        store.set({ query: { torder: v === "task:1" ? "" : v } }, "replace");
      };
      th.addEventListener("click", sort);
      th.addEventListener("keydown", (e: KeyboardEvent) => {
        if (e.key === "Enter" || e.key === " ") {
          e.preventDefault();
          sort();
        }
      });
    }
    store.subscribe((s, prev) => {
      if (KEYS.some((k) => (s.query[k] ?? "") !== (prev.query[k] ?? ""))) this.render(s);
    });
  }

  /** The selects' choices: the board's arms, countries and verdicts (a live board's new ones after those already there). */
  private fill(): void {
    const data = this.data;
    const others = data.arms.filter((a) => a !== data.baseline);
    addOptions(this.c.tarm as HTMLSelectElement, data.baseline !== null && others.length ? others : data.arms);
    if (this.c.tvs) addOptions(this.c.tvs as HTMLSelectElement, data.arms, (a) => (a === data.baseline ? `vs ${a} (baseline)` : `vs ${a}`));
    addOptions(this.c.tcountry as HTMLSelectElement, selectValues(Object.values(data.countries)));
    addOptions(this.c.tverdict as HTMLSelectElement, selectValues(data.episodes.map((e) => e.verdict)));
  }

  /** A live board grew (new episodes, arms, tasks): the choices follow, then the table, in the reader's choices and order. */
  grew(s: PageState): void {
    this.fill();
    this.render(s);
  }

  private defaults(k: Key): string {
    return k === "tarm" ? this.defaultArm : k === "tvs" ? (this.defaultVs ?? "") : k === "torder" ? "task" : "";
  }

  render(s: PageState): void {
    const doc = this.doc;
    const val = (k: Key) => s.query[k] || this.defaults(k);
    const order = parseTaskOrder(val("torder"));
    for (const [k, ctl] of Object.entries(this.c) as [Key, HTMLSelectElement | HTMLInputElement][]) {
      const want = k === "torder" && typeof order !== "string" ? "column" : val(k);
      if (ctl.value !== want) ctl.value = want;
    }
    const arm = this.data.arms.includes(val("tarm")) ? val("tarm") : this.defaultArm;
    const vs = this.defaultVs === null ? null : this.data.arms.includes(val("tvs")) ? val("tvs") : this.defaultVs;
    const sorted = typeof order === "string" ? (order === "task" ? { key: "task", dir: 1 } : { key: "delta", dir: order === "improved" ? -1 : 1 }) : order;
    for (const th of Array.from(doc.querySelectorAll<HTMLElement>("#gr-task-table th[data-sort]"))) {
      if (th.dataset.sort === sorted.key) th.setAttribute("aria-sort", sorted.dir === 1 ? "ascending" : "descending");
      else th.removeAttribute("aria-sort");
    }
    const head = (sel: string, text: string) => {
      const h = doc.querySelector<HTMLElement>(`#gr-task-table ${sel}`);
      if (h) h.textContent = text;
    };
    head(".arm-h", `${arm} mean`);
    head(".arm-att-h", `attempts (${arm})`);
    head(".base-h", `${vs ?? ""} mean`);
    head(".vs-h", `attempts (${vs ?? ""})`);
    const f: TaskFilters = { country: val("tcountry"), verdict: val("tverdict"), q: val("tq"), order };
    const rows = taskRows(this.data, this.byTask, arm, vs, f);
    const frag = doc.createDocumentFragment();
    for (const r of rows) {
      const tr = doc.createElement("tr");
      tr.dataset.task = String(r.index);
      tr.dataset.arm = arm;
      if (vs !== null) tr.dataset.vs = vs;
      const c0 = el("td");
      if (vs !== null) {
        const a = el("a", "cmp-link", `task ${r.index}`) as HTMLAnchorElement;
        a.href = compareHash(r.index, arm, vs);
        a.title = `${arm} and ${vs} side by side on task ${r.index}`;
        c0.appendChild(a);
      } else c0.textContent = `task ${r.index}`;
      tr.appendChild(c0);
      tr.appendChild(el("td", null, r.country ?? "–"));
      const num = (stat: string, v: number | null, text: string) => {
        const td = el("td", null, text);
        td.dataset.stat = stat;
        td.dataset.value = v == null ? "" : String(v);
        tr.appendChild(td);
        return td;
      };
      num("mean", r.mean, fmt(r.mean, 4));
      num("best", r.best, fmt(r.best, 4));
      num("k", r.k, r.k == null ? "–" : String(r.k));
      if (vs !== null) {
        num("base_mean", r.baseMean, fmt(r.baseMean, 4));
        const d = num("delta", r.delta, sgn(r.delta));
        if (r.delta != null) d.className = r.delta > 0 ? "up" : r.delta < 0 ? "down" : "";
      }
      for (const eps of vs !== null ? [r.armEpisodes, r.baseEpisodes] : [r.armEpisodes]) {
        const td = el("td", "attempts");
        eps.forEach((e) => {
          td.appendChild(attemptLink(e));
          td.appendChild(doc.createTextNode(" "));
        });
        tr.appendChild(td);
      }
      frag.appendChild(tr);
    }
    (doc.getElementById("t-rows") as HTMLElement).replaceChildren(frag);
    const all = this.data.tasks.filter((t) => t.arms.some((a) => a.arm === arm || a.arm === vs)).length;
    (doc.getElementById("t-count") as HTMLElement).textContent = rows.length === all ? `${rows.length} tasks` : `${rows.length} of ${all} tasks`;
  }
}
