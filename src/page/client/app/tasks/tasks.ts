/**
 * The board page's per-task table, rendered from the store (arm, country,
 * verdict and order live in the address as tarm, tcountry, tverdict,
 * torder): each task's report mean and delta for one arm against the
 * baseline, its attempts by attempt number (not-counted ones marked), and a
 * link to the compare view.
 */
import type { BoardData, BoardEpisodeRow } from "../../../board/data.ts";
import { el, fillSelect, fmt } from "../../dom.ts";
import type { Store, PageState } from "../../state/store.ts";
import { compareHash, episodeHash } from "../../state/route.ts";
import { selectValues } from "../../state/rows.ts";
import { taskRows, type TaskFilters } from "./rows.ts";

const sgn = (x: number | null) => (x == null ? "–" : (x >= 0 ? "+" : "") + x.toFixed(4));
const KEYS = ["tarm", "tcountry", "tverdict", "torder"];

export function attemptLink(r: BoardEpisodeRow): HTMLAnchorElement {
  const a = el("a", "ep-link" + (r.env === null ? " uncounted" : ""), `${r.sample ?? "?"}: ${r.score.toFixed(3)}`) as HTMLAnchorElement;
  a.href = episodeHash(r.id, null);
  a.dataset.id = r.id;
  a.title = `${r.arm} · attempt ${r.sample ?? "?"} · episode ${r.id} · reward ${r.score.toFixed(4)} · env reward ${fmt(r.env, 4)}${r.env === null ? " · not counted: unscored (no env reward)" : ""}`;
  return a;
}

export class TaskTable {
  private readonly c: Record<"tarm" | "tcountry" | "tverdict" | "torder", HTMLSelectElement>;
  private readonly defaultArm: string;

  constructor(
    private readonly doc: Document,
    private readonly store: Store,
    private readonly data: BoardData,
    private readonly byTask: Map<number, Map<string, BoardEpisodeRow[]>>,
  ) {
    const $ = (id: string) => doc.getElementById(id) as HTMLSelectElement;
    this.c = { tarm: $("t-arm"), tcountry: $("t-country"), tverdict: $("t-verdict"), torder: $("t-sort") };
    const compared = data.arms.filter((a) => a !== data.baseline);
    this.defaultArm = (compared.length ? compared : [data.baseline])[0];
    fillSelect(this.c.tarm, compared.length ? compared : [data.baseline]);
    fillSelect(this.c.tcountry, selectValues(Object.values(data.countries)));
    fillSelect(this.c.tverdict, selectValues(data.episodes.map((e) => e.verdict)));
    (doc.querySelector("#gr-task-table .base-h") as HTMLElement).textContent = `${data.baseline} mean`;
    for (const [k, s] of Object.entries(this.c))
      s.addEventListener("input", () => store.set({ query: { [k]: s.value === this.defaults(k) ? "" : s.value } }, "replace"));
    doc.querySelector('#gr-task-table th[data-sort="delta"]')!.addEventListener("click", () => {
      store.set({ query: { torder: store.q("torder") === "improved" ? "regressed" : "improved" } }, "replace");
    });
    store.subscribe((s, prev) => {
      if (KEYS.some((k) => (s.query[k] ?? "") !== (prev.query[k] ?? ""))) this.render(s);
    });
  }

  private defaults(k: string): string {
    return k === "tarm" ? this.defaultArm : k === "torder" ? "task" : "";
  }

  render(s: PageState): void {
    const doc = this.doc;
    const val = (k: string) => s.query[k] || this.defaults(k);
    for (const [k, sel] of Object.entries(this.c)) if (sel.value !== val(k)) sel.value = val(k);
    const arm = val("tarm");
    const f: TaskFilters = { country: val("tcountry"), verdict: val("tverdict"), order: val("torder") as TaskFilters["order"] };
    const rows = taskRows(this.data, this.byTask, arm, f);
    const frag = doc.createDocumentFragment();
    for (const r of rows) {
      const tr = doc.createElement("tr");
      tr.dataset.task = String(r.index);
      tr.dataset.arm = arm;
      const c0 = el("td");
      const a = el("a", "cmp-link", `task ${r.index}`) as HTMLAnchorElement;
      a.href = compareHash(r.index, arm, this.data.baseline);
      a.title = `${arm} and ${this.data.baseline} side by side on task ${r.index}`;
      c0.appendChild(a);
      tr.appendChild(c0);
      tr.appendChild(el("td", null, r.country ?? "–"));
      const num = (stat: string, v: number | null, text: string) => {
        const td = el("td", null, text);
        td.dataset.stat = stat;
        td.dataset.value = v == null ? "" : String(v);
        tr.appendChild(td);
        return td;
      };
      num("base_mean", r.baseMean, fmt(r.baseMean, 4));
      num("mean", r.mean, fmt(r.mean, 4));
      const d = num("delta", r.delta, sgn(r.delta));
      if (r.delta != null) d.className = r.delta > 0 ? "up" : r.delta < 0 ? "down" : "";
      for (const eps of [r.armEpisodes, r.baseEpisodes]) {
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
    (doc.getElementById("t-count") as HTMLElement).textContent = `${rows.length} tasks`;
  }
}
