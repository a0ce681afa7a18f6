/**
 * The episode list of both pages, rendered from the store: the filter
 * controls (search, arm, country, verdict, status, task, minimum reward, a
 * filter expression), the sortable table with search matches marked, "no
 * results" when nothing matches, paging, the filtered rows' means and
 * medians, and the filtered rows as CSV. Controls write to the store; the
 * table re-renders from it. The open episode follows the filters: when they
 * leave it out, the first row shown opens instead (or none, said so).
 */
import { badge, el, fillSelect, fmt } from "../../../../../../../src/page/client/dom.ts";
import type { Store, PageState } from "../../state/store.ts";
import { compileExpr, ExprError, FIELDS, type Predicate } from "../../state/expr.ts";
import {
  csvFileName,
  filterAndSort,
  formatSort,
  nextSortDir,
  parseSort,
  selectValues,
  toCsv,
  type ListFilters,
  type ListRow,
  type Sort,
  type SortKey,
} from "../../state/rows.ts";
import { summarise, type Stat } from "../../state/summary.ts";
import { highlight } from "../detail/highlight.ts";
import { rowTally, tallyWords } from "../../../../../../../src/page/count-words.ts";
import { rewardText } from "../../../list-row.ts";

const PAGE_ROWS = 300;

/** How far a `ListSource.loadText` call reached. */
export type TextReach = "all" | "query" | "stale";

export interface ListSource<R extends ListRow> {
  rows: readonly R[];
  /** Lower-cased search text of a row (its fields, and its episode's text when known). */
  text(r: ListRow): string;
  /**
   * Pages whose words are not all at hand: make `text` reach every reply for the query `q` (lower-cased). "all": every
   * text is now held, whatever the query; "query": `text` answers for `q` until the next call; "stale": a newer query took over.
   */
  loadText?(q: string): Promise<TextReach>;
  /** Columns: the board page adds the task. */
  kind: "run" | "board";
}

const num = (x: number | null, digits: number) =>
  x === null ? "–" : x.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** One number of the summary line, its exact values in data attributes (what tests and tools read). */
function statCell(doc: Document, key: string, label: string, s: Stat, digits: number, unit = ""): HTMLElement {
  const span = doc.createElement("span");
  span.className = "stat";
  span.dataset.stat = key;
  span.dataset.n = String(s.n);
  span.dataset.mean = s.mean === null ? "" : String(s.mean);
  span.dataset.median = s.median === null ? "" : String(s.median);
  span.appendChild(doc.createTextNode(`${label} `));
  span.appendChild(el("b", null, s.n ? `${num(s.mean, digits)}${unit}` : "–"));
  span.appendChild(doc.createTextNode(s.n ? ` mean, ${num(s.median, digits)}${unit} median` : " (none recorded)"));
  if (s.n) span.title = `${label}: mean and median over ${s.n} counted row(s) that recorded it`;
  return span;
}

/** The list filters the store's query names. */
export function filtersOf(s: PageState): ListFilters {
  const q = s.query;
  return {
    q: q.q ?? "",
    arm: q.arm ?? "",
    country: q.country ?? "",
    verdict: q.verdict ?? "",
    status: q.status ?? "",
    task: q.task ?? "",
    minScore: q.min ? Number(q.min) : null,
  };
}

/** The episode the route opens, if any. */
const openId = (s: PageState): string | null => (s.route.kind === "episode" || s.route.kind === "moment" ? s.route.id : null);

/** What each sortable column sorts by, and whether it is a number (the words for its two directions). */
const SORT_WORDS: Record<SortKey, [string, boolean]> = {
  id: ["episode id", false],
  arm: ["arm", false],
  task: ["task", true],
  sample: ["attempt", true],
  country: ["country", false],
  verdict: ["verdict", false],
  score: ["reward", true],
  env: ["env reward", true],
  km: ["distance", true],
  turns: ["turns", true],
};

/** The list's order in words: the reader sees how the rows are ordered, sorted or not. */
export function orderText(sort: Sort | null): string {
  if (!sort) return "in file order (click a column header to sort)";
  const [what, numeric] = SORT_WORDS[sort.key];
  const dir = numeric ? (sort.dir > 0 ? "lowest first" : "highest first") : sort.dir > 0 ? "A to Z" : "Z to A";
  return `sorted by ${what}, ${dir} (click again to reverse)`;
}

const LIST_KEYS = ["q", "arm", "country", "verdict", "status", "task", "min", "expr", "sort"];

/** A deep-linked row past this many is shown in a window of its own page of rows, not with every row before it. */
const FAR = 2000;

export class EpisodeList<R extends ListRow> {
  shown: R[] = [];
  private limit = PAGE_ROWS;
  /** The first row rendered: past 0 only when a deep link reveals a row beyond FAR rows (a window around it). */
  private start = 0;
  private expr: Predicate | null = null;
  private exprSrc = "";
  private readonly body: HTMLTableSectionElement;
  private readonly count: HTMLElement;
  private readonly order: HTMLElement;
  private readonly summary: HTMLElement | null;
  private readonly controls: Record<"q" | "arm" | "country" | "verdict" | "status" | "task" | "min" | "expr", HTMLInputElement | HTMLSelectElement>;
  private readonly exprError: HTMLElement;
  /** A training page: the list has its group columns. */
  private readonly trainCols: boolean;
  /** Every text is held (no more reading), else the query `text` answers for or is being read for. */
  private allText = false;
  private textFor: string | null = null;
  /** The filters left no row and the open episode was closed for it. */
  private cleared = false;

  constructor(
    private readonly doc: Document,
    private readonly store: Store,
    private readonly src: ListSource<R>,
    private readonly onOpen: (id: string) => void,
    /** The filters left no row: the detail says so rather than show an episode the list does not. */
    private readonly onNoMatch: () => void = () => {},
  ) {
    const $ = <T extends HTMLElement>(id: string) => doc.getElementById(id) as T;
    this.body = $("gr-rows");
    this.count = $("gr-count");
    // The order in words beside the count (made here: pages written before it have no such element).
    this.order = doc.getElementById("gr-order") ?? (this.count.insertAdjacentElement("afterend", el("span", "count order")) as HTMLElement);
    this.order.id = "gr-order";
    this.summary = doc.getElementById("gr-list-summary");
    this.exprError = $("f-expr-error");
    this.trainCols = doc.querySelector("table.episodes th.train") !== null;
    this.controls = {
      q: $("f-q"),
      arm: $("f-model"),
      country: $("f-country"),
      verdict: $("f-verdict"),
      status: $("f-status"),
      task: $("f-task"),
      min: $("f-reward"),
      expr: $("f-expr"),
    };
    const rows = src.rows;
    fillSelect(this.controls.arm as HTMLSelectElement, selectValues(rows.map((r) => r.arm)));
    fillSelect(this.controls.country as HTMLSelectElement, selectValues(rows.map((r) => r.country)));
    fillSelect(this.controls.verdict as HTMLSelectElement, selectValues(rows.map((r) => r.verdict)));
    fillSelect(this.controls.status as HTMLSelectElement, selectValues(rows.flatMap((r) => r.flags)));
    fillSelect(this.controls.task as HTMLSelectElement, [...new Set(rows.map((r) => r.task))].sort((a, b) => a - b).map(String), (v) => `task ${v}`);
    this.markColumns();
    ($("f-fields") as HTMLElement).textContent = FIELDS.map((f) => `${f.name} (${f.help})`).join(" · ");

    for (const [key, c] of Object.entries(this.controls)) {
      c.addEventListener("input", () => this.store.set({ query: { [key]: c.value } }, "replace"));
    }
    doc.querySelectorAll<HTMLElement>("table.episodes th[data-sort]").forEach((th) => {
      const sort = () => {
        const k = th.dataset.sort as SortKey;
        const cur = parseSort(this.store.q("sort"));
        this.store.set({ query: { sort: formatSort({ key: k, dir: nextSortDir(cur ? cur.key : null, cur ? cur.dir : 1, k) }) } }, "replace");
      };
      // A header is a control: reachable by Tab, Enter or Space sorts as a click does.
      th.tabIndex = 0;
      th.title = `sort by ${SORT_WORDS[th.dataset.sort as SortKey]?.[0] ?? th.textContent} (again: reverse)`;
      th.addEventListener("click", sort);
      th.addEventListener("keydown", (e: KeyboardEvent) => {
        if (e.key === "Enter" || e.key === " ") {
          e.preventDefault();
          sort();
        }
      });
    });
    this.body.addEventListener("click", (ev) => {
      const tr = (ev.target as HTMLElement).closest("tr");
      if (!tr) return;
      if (tr.classList.contains("earlier")) {
        this.start = Math.max(0, this.start - PAGE_ROWS);
        this.renderRows();
      } else if (tr.classList.contains("more")) {
        this.limit += PAGE_ROWS;
        this.renderRows();
      } else if (tr.dataset.id) this.onOpen(tr.dataset.id);
    });
    ($("f-csv") as HTMLButtonElement).addEventListener("click", () => this.download());
    store.subscribe((s, prev) => {
      if (LIST_KEYS.some((k) => (s.query[k] ?? "") !== (prev.query[k] ?? ""))) this.apply(true);
      else if (s.route !== prev.route) this.markSelected(openId(s) !== openId(prev));
    });
  }

  /**
   * Reads the store into the controls, filters, sorts and renders. `follow`
   * (the filters changed): an open episode the rows leave out gives way to
   * the first row shown, without a new history entry.
   */
  apply(follow = false): void {
    const s = this.store.get();
    for (const [key, c] of Object.entries(this.controls)) if (c.value !== (s.query[key] ?? "")) c.value = s.query[key] ?? "";
    const f = filtersOf(s);
    const src = s.query.expr ?? "";
    if (src !== this.exprSrc) {
      this.exprSrc = src;
      try {
        this.expr = src.trim() ? compileExpr(src, { words: (r) => this.src.text(r) }) : null;
        this.exprError.textContent = "";
        this.exprError.hidden = true;
        this.controls.expr.removeAttribute("aria-invalid");
      } catch (e) {
        if (!(e instanceof ExprError)) throw e;
        this.expr = null;
        this.exprError.hidden = false;
        this.exprError.textContent = `${e.message} (at character ${e.at + 1}: ${src.slice(0, e.at)}⟨here⟩${src.slice(e.at)})`;
        this.controls.expr.setAttribute("aria-invalid", "true");
      }
    }
    const sort = parseSort(s.query.sort);
    this.doc.querySelectorAll<HTMLElement>("table.episodes th[data-sort]").forEach((th) => {
      if (sort && th.dataset.sort === sort.key) th.setAttribute("aria-sort", sort.dir > 0 ? "ascending" : "descending");
      else th.removeAttribute("aria-sort");
    });
    this.order.textContent = orderText(sort);
    this.shown = filterAndSort(this.src.rows, f, sort, (r) => this.src.text(r), this.expr);
    this.limit = PAGE_ROWS;
    this.start = 0;
    this.renderRows();
    this.renderSummary();
    const open = openId(s);
    // An episode the rows leave out, or none since the filters last left none: the first row shown opens.
    const stale = open !== null ? !this.shown.some((r) => r.id === open) : this.cleared && s.route.kind === "none";
    if (follow && stale) {
      if (this.shown.length) {
        this.cleared = false;
        this.store.set({ route: { kind: "episode", id: this.shown[0].id, turn: null } }, "replace");
      } else if (open !== null) {
        this.cleared = true;
        this.store.set({ route: { kind: "none" } }, "replace");
        this.onNoMatch();
      }
    } else if (open !== null) this.reveal(open);
    const q = f.q.toLowerCase();
    if (q && this.src.loadText && !this.allText && this.textFor !== q) {
      // Replies are in the task chunks or data files: read them for this query, then search again.
      this.textFor = q;
      this.count.textContent += " · searching replies…";
      this.src.loadText(q).then(
        (reach) => {
          if (reach === "all") this.allText = true;
          if (reach !== "stale") this.apply();
        },
        (e: Error) => {
          this.textFor = null;
          this.count.textContent += ` · replies could not be searched: ${e.message}`;
        },
      );
    }
  }

  /** Columns that would say nothing are hidden: one model, or one attempt number throughout (a run of single attempts). */
  private markColumns(): void {
    const table = this.body.closest("table") as HTMLElement | null;
    table?.classList.toggle("one-model", (this.controls.arm as HTMLSelectElement).options.length <= 2);
    table?.classList.toggle("one-attempt", new Set(this.src.rows.map((r) => r.sample)).size <= 1);
  }

  /** The list while a folder page's rows are read (after its first screen): the count says so. */
  loading(what: string): void {
    this.count.textContent = what;
  }

  /**
   * The rows read after the first screen (a folder page's data files): the list fills and, unlike a
   * live page's growth, shows the address's episode (a deep link's row may be far down).
   */
  loaded(added: readonly R[]): void {
    this.grew(added);
    const open = openId(this.store.get());
    if (open !== null) this.reveal(open);
  }

  /**
   * Rows were added to the source (a live page): the choices, counts and table follow, and the
   * reader keeps their place: filters, rows shown, the list's scroll and the open episode.
   */
  grew(added: readonly R[]): void {
    const more = (c: HTMLInputElement | HTMLSelectElement, values: string[], label: (v: string) => string = (v) => v) => {
      const s = c as HTMLSelectElement;
      const have = new Set(Array.from(s.options, (o) => o.value));
      fillSelect(
        s,
        values.filter((v) => !have.has(v)),
        label,
      );
    };
    more(this.controls.arm, selectValues(added.map((r) => r.arm)));
    more(this.controls.country, selectValues(added.map((r) => r.country)));
    more(this.controls.verdict, selectValues(added.map((r) => r.verdict)));
    more(this.controls.status, selectValues(added.flatMap((r) => r.flags)));
    more(this.controls.task, [...new Set(added.map((r) => r.task))].sort((a, b) => a - b).map(String), (v) => `task ${v}`);
    this.markColumns();
    const box = this.body.closest("aside") as HTMLElement | null;
    const top = box?.scrollTop ?? 0;
    const limit = this.limit;
    const start = this.start;
    // The open search covered the rows before these: search again.
    this.textFor = null;
    this.apply();
    if (limit > this.limit) {
      this.limit = limit;
      this.start = start;
      this.renderRows();
    }
    if (box) box.scrollTop = top;
  }

  /** A training page's group columns: step, group mean and std, advantage, zero spread (and an identical sibling). */
  private trainCells(tr: HTMLElement, r: ListRow): void {
    const t = r.train ?? null;
    const cell = (cls: string, key: string, value: number | null, text: string) => {
      const td = el("td", cls, text);
      td.dataset.stat = key;
      td.dataset.value = value === null ? "" : String(value);
      tr.appendChild(td);
    };
    cell("num", "step", t?.step ?? null, t ? String(t.step) : "–");
    cell("num", "group_mean", t?.groupMean ?? null, fmt(t?.groupMean ?? null, 3));
    cell("num", "group_std", t?.groupStd ?? null, fmt(t?.groupStd ?? null, 3));
    const adv = t?.advantage ?? null;
    cell("num", "advantage", adv, adv === null ? "–" : (adv >= 0 ? "+" : "−") + Math.abs(adv).toFixed(2));
    const z = el("td", "spread");
    z.dataset.stat = "zero_spread";
    z.dataset.value = t?.zeroStd == null ? "" : String(t.zeroStd);
    if (t?.zeroStd) z.appendChild(badge("warn", "zero"));
    if (t?.identical) {
      const b = badge("muted", "=");
      b.title = "a sibling of its group played the byte-identical game (same actions, same views)";
      b.dataset.identical = "true";
      z.appendChild(b);
    }
    tr.appendChild(z);
  }

  private renderRows(): void {
    const doc = this.doc;
    const s = this.store.get();
    const selected = s.route.kind === "episode" || s.route.kind === "moment" ? s.route.id : null;
    const frag = doc.createDocumentFragment();
    const cols = this.doc.querySelectorAll("table.episodes thead th").length;
    if (this.start > 0) {
      const tr = doc.createElement("tr");
      tr.className = "more earlier";
      const td = el("td", null, `show ${Math.min(PAGE_ROWS, this.start)} earlier of ${this.start.toLocaleString("en-US")}`);
      (td as HTMLTableCellElement).colSpan = cols;
      tr.appendChild(td);
      frag.appendChild(tr);
    }
    for (const r of this.shown.slice(this.start, this.limit)) {
      const tr = doc.createElement("tr");
      tr.dataset.id = r.id;
      tr.setAttribute("aria-selected", String(r.id === selected));
      tr.appendChild(el("td", "mono id", r.id));
      // Long names that share a prefix (training runs) differ at the end: keep both ends.
      const model = el("td", "model", r.arm.length > 20 ? `${r.arm.slice(0, 9)}…${r.arm.slice(-10)}` : r.arm);
      model.title = r.arm;
      tr.appendChild(model);
      if (this.src.kind === "board") tr.appendChild(el("td", "num", String(r.task)));
      tr.appendChild(el("td", "num opt attempt", r.sample === null ? "–" : String(r.sample)));
      // Text a narrow column may cut: the whole of it on hover.
      const country = el("td", null, r.country ?? "–");
      country.title = r.country ?? "";
      tr.appendChild(country);
      const verdict = el("td", "wide verdict", r.verdict ?? "–");
      verdict.title = r.verdict ?? "";
      tr.appendChild(verdict);
      const score = el("td", "num", rewardText(r, 3));
      if (r.env === null) {
        score.classList.add("uncounted");
        score.title = `not counted: ${r.flags.includes("errored") ? "errored in the environment" : "unscored (no env reward)"}, left out by geoeval's report`;
      }
      tr.appendChild(score);
      tr.appendChild(el("td", "num opt", fmt(r.env, 3)));
      tr.appendChild(el("td", "num", r.km == null ? "–" : Math.round(r.km).toLocaleString("en-US")));
      tr.appendChild(el("td", "num opt", String(r.turns)));
      if (this.trainCols) this.trainCells(tr, r);
      const st = el("td");
      if (r.flags.indexOf("errored") >= 0) st.appendChild(badge("error", "errored"));
      else if (r.flags.indexOf("mismatch") >= 0) st.appendChild(badge("mismatch", "mismatch"));
      else if (r.flags.indexOf("view-error") >= 0) st.appendChild(badge("error", "error"));
      else if (r.flags.indexOf("overwritten-images") >= 0) st.appendChild(badge("warn", "overwritten"));
      else if (r.format === "example") st.appendChild(badge("muted", "recorded"));
      else st.appendChild(badge("match", "✓"));
      tr.appendChild(st);
      frag.appendChild(tr);
    }
    if (this.shown.length > this.limit) {
      const tr = doc.createElement("tr");
      tr.className = "more";
      const td = el(
        "td",
        null,
        `show ${Math.min(PAGE_ROWS, this.shown.length - this.limit)} more of ${(this.shown.length - this.limit).toLocaleString("en-US")}`,
      );
      (td as HTMLTableCellElement).colSpan = cols;
      tr.appendChild(td);
      frag.appendChild(tr);
    }
    if (!this.shown.length) {
      const tr = doc.createElement("tr");
      tr.className = "no-results";
      const what = [s.query.q ? `“${s.query.q}”` : "", this.expr ? "the filter expression" : "", "the filters"].filter(Boolean).join(", ");
      const td = el("td", "empty", `No episode matches ${what}.`);
      (td as HTMLTableCellElement).colSpan = cols;
      tr.appendChild(td);
      frag.appendChild(tr);
    }
    this.body.replaceChildren(frag);
    highlight(this.body, s.query.q ?? "");
    // The one total (count-words.ts): counted episodes, the others apart; filtered: "12 of 119 episodes".
    const shown = rowTally(this.shown);
    const all = this.shown.length === this.src.rows.length ? undefined : rowTally(this.src.rows).counted;
    this.count.textContent = tallyWords(shown, "episodes", all);
    this.count.dataset.rows = String(this.shown.length);
  }

  /** The filtered rows' count, and mean and median of reward, distance, tokens and cost (summary.ts). */
  private renderSummary(): void {
    if (!this.summary) return;
    const doc = this.doc;
    const m = summarise(this.shown);
    const line = doc.createDocumentFragment();
    const rows = el("span", "stat", tallyWords(rowTally(this.shown)));
    rows.dataset.stat = "rows";
    rows.dataset.rows = String(m.rows);
    rows.dataset.counted = String(m.counted);
    rows.title = "counted: episodes with an env reward, as geoeval's report counts them; unscored and errored ones are listed but left out of every mean";
    line.appendChild(rows);
    line.appendChild(statCell(doc, "reward", "reward", m.reward, 3));
    line.appendChild(statCell(doc, "km", "distance", m.km, 0, " km"));
    line.appendChild(statCell(doc, "tokens", "tokens", m.tokens, 0));
    line.appendChild(statCell(doc, "cost", "cost", m.cost, 2));
    this.summary.replaceChildren(line);
  }

  /** Marks the open episode's row; `scroll`: brings it into the list's view (another episode was opened, a deep link followed). */
  private markSelected(scroll = false): void {
    const id = openId(this.store.get());
    this.body.querySelectorAll<HTMLElement>("tr[data-id]").forEach((tr) => tr.setAttribute("aria-selected", String(tr.dataset.id === id)));
    if (scroll && id !== null) this.reveal(id);
  }

  /** Scrolls the list (not the page) to a row, showing more rows first when it is past the ones shown. */
  reveal(id: string): void {
    const i = this.shown.findIndex((r) => r.id === id);
    if (i < 0) return;
    if (i < this.start || i >= this.limit) {
      // Near the top: every row down to it. Far down (a 128,000-row run): the page of rows around it,
      // with "show earlier" above; rendering every row before it froze the tab for over a minute.
      const page = Math.floor(i / PAGE_ROWS) * PAGE_ROWS;
      this.start = i < FAR ? 0 : page;
      this.limit = page + PAGE_ROWS;
      this.renderRows();
    }
    const tr = this.body.querySelector<HTMLElement>(`tr[data-id="${CSS.escape(id)}"]`);
    const box = this.body.closest("aside") as HTMLElement | null;
    if (!tr || !box) return;
    const at = tr.getBoundingClientRect();
    const view = box.getBoundingClientRect();
    const head = (box.querySelector(".filters") as HTMLElement | null)?.offsetHeight ?? 0;
    // Already in sight below the sticky filters: leave the list where it is.
    if (at.top >= view.top + head && at.bottom <= view.bottom) return;
    box.scrollTop += at.top - view.top - head - (box.clientHeight - head - at.height) / 2;
  }

  private download(): void {
    const blob = new Blob([toCsv(this.shown, this.trainCols)], { type: "text/csv;charset=utf-8" });
    const a = this.doc.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = csvFileName(this.doc.title, this.store.get().query);
    this.doc.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
  }
}
