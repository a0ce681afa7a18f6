/**
 * The episode list of both pages, rendered from the store: the filter
 * controls (search, arm, country, verdict, status, task, minimum reward, a
 * filter expression), the sortable table with search matches marked, "no
 * results" when nothing matches, paging, and the filtered rows as CSV.
 * Controls write to the store; the table re-renders from it.
 */
import { badge, el, fillSelect, fmt } from "../../dom.ts";
import type { Store, PageState } from "../../state/store.ts";
import { compileExpr, ExprError, FIELDS, type Predicate } from "../../state/expr.ts";
import { filterAndSort, formatSort, nextSortDir, parseSort, selectValues, toCsv, type ListFilters, type ListRow, type SortKey } from "../../state/rows.ts";
import { highlight } from "../detail/highlight.ts";

const PAGE_ROWS = 300;

export interface ListSource<R extends ListRow> {
  rows: readonly R[];
  /** Lower-cased search text of a row (its fields, and its episode's text when known). */
  text(r: ListRow): string;
  /** Board pages: read every episode's text (once) so that search reaches replies; resolves when done. */
  loadText?(): Promise<void>;
  /** Columns: the run page shows turns, the board page the task. */
  kind: "run" | "board";
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

const LIST_KEYS = ["q", "arm", "country", "verdict", "status", "task", "min", "expr", "sort"];

export class EpisodeList<R extends ListRow> {
  shown: R[] = [];
  private limit = PAGE_ROWS;
  private expr: Predicate | null = null;
  private exprSrc = "";
  private readonly body: HTMLTableSectionElement;
  private readonly count: HTMLElement;
  private readonly controls: Record<"q" | "arm" | "country" | "verdict" | "status" | "task" | "min" | "expr", HTMLInputElement | HTMLSelectElement>;
  private readonly exprError: HTMLElement;
  private searching = false;

  constructor(
    private readonly doc: Document,
    private readonly store: Store,
    private readonly src: ListSource<R>,
    private readonly onOpen: (id: string) => void,
  ) {
    const $ = <T extends HTMLElement>(id: string) => doc.getElementById(id) as T;
    this.body = $("gr-rows");
    this.count = $("gr-count");
    this.exprError = $("f-expr-error");
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
    if ((this.controls.arm as HTMLSelectElement).options.length <= 2) (this.body.closest("aside") as HTMLElement | null)?.classList.add("one-model");
    ($("f-fields") as HTMLElement).textContent = FIELDS.map((f) => `${f.name} (${f.help})`).join(" · ");

    for (const [key, c] of Object.entries(this.controls)) {
      c.addEventListener("input", () => this.store.set({ query: { [key]: c.value } }, "replace"));
    }
    doc.querySelectorAll<HTMLElement>("table.episodes th[data-sort]").forEach((th) => {
      th.addEventListener("click", () => {
        const k = th.dataset.sort as SortKey;
        const cur = parseSort(this.store.q("sort"));
        this.store.set({ query: { sort: formatSort({ key: k, dir: nextSortDir(cur ? cur.key : null, cur ? cur.dir : 1, k) }) } }, "replace");
      });
    });
    this.body.addEventListener("click", (ev) => {
      const tr = (ev.target as HTMLElement).closest("tr");
      if (!tr) return;
      if (tr.classList.contains("more")) {
        this.limit += PAGE_ROWS;
        this.renderRows();
      } else if (tr.dataset.id) this.onOpen(tr.dataset.id);
    });
    ($("f-csv") as HTMLButtonElement).addEventListener("click", () => this.download());
    store.subscribe((s, prev) => {
      if (LIST_KEYS.some((k) => (s.query[k] ?? "") !== (prev.query[k] ?? ""))) this.apply();
      else if (s.route !== prev.route) this.markSelected();
    });
  }

  /** Reads the store into the controls, filters, sorts and renders. */
  apply(): void {
    const s = this.store.get();
    for (const [key, c] of Object.entries(this.controls)) if (c.value !== (s.query[key] ?? "")) c.value = s.query[key] ?? "";
    const f = filtersOf(s);
    const src = s.query.expr ?? "";
    if (src !== this.exprSrc) {
      this.exprSrc = src;
      try {
        this.expr = src.trim() ? compileExpr(src) : null;
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
    this.shown = filterAndSort(this.src.rows, f, sort, (r) => this.src.text(r), this.expr);
    this.limit = PAGE_ROWS;
    this.renderRows();
    if (f.q && this.src.loadText && !this.searching) {
      // Board pages: replies are in the task chunks; read them all once, then search again.
      this.searching = true;
      this.count.textContent += " · searching replies…";
      void this.src.loadText().then(() => this.apply());
    }
  }

  private renderRows(): void {
    const doc = this.doc;
    const s = this.store.get();
    const selected = s.route.kind === "episode" || s.route.kind === "moment" ? s.route.id : null;
    const frag = doc.createDocumentFragment();
    for (const r of this.shown.slice(0, this.limit)) {
      const tr = doc.createElement("tr");
      tr.dataset.id = r.id;
      tr.setAttribute("aria-selected", String(r.id === selected));
      tr.appendChild(el("td", "mono id", r.id));
      // Long names that share a prefix (training runs) differ at the end: keep both ends.
      const model = el("td", "model", r.arm.length > 20 ? `${r.arm.slice(0, 9)}…${r.arm.slice(-10)}` : r.arm);
      model.title = r.arm;
      tr.appendChild(model);
      if (this.src.kind === "board") tr.appendChild(el("td", "num", String(r.task)));
      tr.appendChild(el("td", null, r.country ?? "–"));
      tr.appendChild(el("td", "wide", r.verdict ?? "–"));
      const score = el("td", "num", r.score.toFixed(3));
      if (r.env === null) {
        score.classList.add("uncounted");
        score.title = `not counted: ${r.flags.includes("errored") ? "errored in the environment" : "unscored (no env reward)"}, left out by geoeval's report`;
      }
      tr.appendChild(score);
      tr.appendChild(el("td", "num opt", fmt(r.env, 3)));
      tr.appendChild(el("td", "num", r.km == null ? "–" : Math.round(r.km).toLocaleString("en-US")));
      if (this.src.kind === "run") tr.appendChild(el("td", "num opt", String(r.turns)));
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
    const cols = this.doc.querySelectorAll("table.episodes thead th").length;
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
    this.count.textContent = `${this.shown.length} of ${this.src.rows.length}`;
  }

  private markSelected(): void {
    const r = this.store.get().route;
    const id = r.kind === "episode" || r.kind === "moment" ? r.id : null;
    this.body.querySelectorAll<HTMLElement>("tr[data-id]").forEach((tr) => {
      tr.setAttribute("aria-selected", String(tr.dataset.id === id));
      if (tr.dataset.id === id) tr.scrollIntoView({ block: "nearest" });
    });
  }

  private download(): void {
    const blob = new Blob([toCsv(this.shown)], { type: "text/csv;charset=utf-8" });
    const a = this.doc.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = "episodes.csv";
    this.doc.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
  }
}
