/**
 * The crops list: search, model and status filters, the filter expression over CROPS_FIELDS,
 * sortable columns, and the shown rows as CSV. Every cell carries its exact value in
 * data-value (what tests and tools read); text goes in as text nodes only.
 */
import { el, fillSelect } from "../../../../../src/page/client/dom.ts";
import { compileFieldExpr, FieldExprError } from "../../../../../src/page/client/state/field-expr.ts";
import { csvTable } from "../../../../../src/page/client/state/csv-table.ts";
import type { CropsRow } from "../model.ts";
import { CROPS_CSV, CROPS_FIELDS, cropsColumns, type CropsColumn } from "./fields.ts";

export interface ListState {
  q: string;
  arm: string;
  status: string;
  expr: string;
  sort: string;
}

export const NO_LIST_STATE: ListState = { q: "", arm: "", status: "", expr: "", sort: "" };

/** The rows the state leaves in, sorted; throws FieldExprError for a bad expression. */
export function shownRows(rows: readonly CropsRow[], s: ListState, text: (r: CropsRow) => string): CropsRow[] {
  const pred = compileFieldExpr(s.expr, CROPS_FIELDS);
  const q = s.q.toLowerCase();
  const out = rows.filter(
    (r) => (s.arm === "" || r.arm === s.arm) && (s.status === "" || r.flags.includes(s.status)) && (q === "" || text(r).includes(q)) && pred(r),
  );
  const m = /^([a-zA-Z]+):(-?1)$/.exec(s.sort);
  if (m) {
    const key = m[1] as keyof CropsRow;
    const dir = Number(m[2]);
    out.sort((a, b) => {
      const x = a[key] as unknown as number | string | null;
      const y = b[key] as unknown as number | string | null;
      if (x == null || y == null) return x == null ? (y == null ? 0 : 1) : -1;
      return (x < y ? -1 : x > y ? 1 : 0) * dir;
    });
  }
  return out;
}

const shown = (v: unknown, digits: number | null): string =>
  v === null || v === undefined ? "–" : digits === null || typeof v !== "number" ? String(v) : v.toFixed(digits);

/** "crops-<what filtered>.csv": safe characters only. */
export function cropsCsvName(s: ListState): string {
  const what = [s.q, s.arm, s.status, s.expr]
    .filter(Boolean)
    .join(" ")
    .replace(/>=/g, " ge ")
    .replace(/<=/g, " le ")
    .replace(/!=/g, " ne ")
    .replace(/==?/g, " eq ")
    .replace(/>/g, " gt ")
    .replace(/</g, " lt ")
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80);
  return `crops-${what || "all"}.csv`;
}

/** Rows put in the table at a time: a 10,000-episode board's list must not build 200,000 cells before its first screen. */
export const LIST_WINDOW = 500;

export class CropsList {
  rows: CropsRow[] = [];
  private readonly body: HTMLElement;
  /** What the table was last built from (state and rows); the same again only moves the selection. */
  private built = "";
  /** Rows in the table: a window from the top, grown by "show more" or to reach the open episode. */
  private shownCount = LIST_WINDOW;
  /** While the folder form reads its row files: how many rows the page has (the table holds the first few). */
  private total: number | null = null;
  private readonly columns: CropsColumn[];
  constructor(
    private readonly doc: Document,
    private readonly all: readonly CropsRow[],
    private readonly text: (r: CropsRow) => string,
    private readonly state: () => ListState,
    private readonly set: (patch: Partial<ListState>) => void,
    private readonly open: (id: string) => void,
  ) {
    this.body = doc.getElementById("gr-rows") as HTMLElement;
    const head = doc.getElementById("gr-head") as HTMLElement;
    this.columns = cropsColumns(all);
    for (const c of this.columns) {
      const th = el("th", typeof c.digits === "number" ? "num" : null, c.head);
      th.dataset.key = c.key;
      th.addEventListener("click", () => {
        const cur = /^([a-zA-Z]+):(-?1)$/.exec(this.state().sort);
        const dir = cur && cur[1] === c.key ? -Number(cur[2]) : c.digits === null ? 1 : -1;
        this.set({ sort: `${c.key}:${dir}` });
      });
      head.appendChild(th);
    }
    head.appendChild(el("th", null, "status"));
    fillSelect(doc.getElementById("f-model") as HTMLSelectElement, [...new Set(all.map((r) => r.arm))].sort());
    fillSelect(doc.getElementById("f-status") as HTMLSelectElement, [...new Set(all.flatMap((r) => r.flags))].sort());
    const bind = (id: string, key: keyof ListState, ev: string) => {
      const input = doc.getElementById(id) as HTMLInputElement;
      input.addEventListener(ev, () => this.set({ [key]: input.value }));
    };
    bind("f-q", "q", "input");
    bind("f-model", "arm", "change");
    bind("f-status", "status", "change");
    bind("f-expr", "expr", "change");
    (doc.getElementById("f-csv") as HTMLElement).addEventListener("click", () => this.download());
  }

  /** The list holds the top rows of `total` until null is given (the rest are being read): no means, no "show more" meanwhile. */
  pending(total: number | null): void {
    this.total = total;
  }

  /** Renders from the state; returns the rows shown (the previous ones when the expression is wrong, its error shown). */
  render(openId: string | null): CropsRow[] {
    const s = this.state();
    const err = this.doc.getElementById("f-expr-error") as HTMLElement;
    for (const [id, v] of [
      ["f-q", s.q],
      ["f-model", s.arm],
      ["f-status", s.status],
      ["f-expr", s.expr],
    ] as const) {
      const input = this.doc.getElementById(id) as HTMLInputElement;
      if (input.value !== v) input.value = v;
    }
    const key = JSON.stringify([s, this.all.length]);
    if (key !== this.built) {
      try {
        this.rows = shownRows(this.all, s, this.text);
        err.hidden = true;
        err.textContent = "";
      } catch (e) {
        if (!(e instanceof FieldExprError)) throw e;
        err.hidden = false;
        err.textContent = `at ${e.at + 1}: ${e.message}`;
        err.dataset.at = String(e.at);
        return this.rows;
      }
      this.built = key;
      this.shownCount = LIST_WINDOW;
      this.body.textContent = "";
    }
    // The open episode is in the table, however far down the list it is.
    const at = openId === null ? -1 : this.rows.findIndex((r) => r.key === openId);
    if (at >= this.shownCount) this.shownCount = Math.ceil((at + 1) / LIST_WINDOW) * LIST_WINDOW;
    this.fill(openId);
    const count = this.doc.getElementById("gr-count") as HTMLElement;
    if (this.total !== null) {
      count.textContent = `the first ${this.rows.length} of ${this.total} episodes (reading the rest…)`;
      delete count.dataset.rows;
    } else {
      this.summarise();
      count.textContent = `${this.rows.length} of ${this.all.length} episodes`;
      count.dataset.rows = String(this.rows.length);
    }
    for (const th of Array.from(this.doc.querySelectorAll<HTMLElement>("#gr-head th"))) {
      const m = /^([a-zA-Z]+):(-?1)$/.exec(s.sort);
      if (m && th.dataset.key === m[1]) th.setAttribute("aria-sort", m[2] === "1" ? "ascending" : "descending");
      else th.removeAttribute("aria-sort");
    }
    return this.rows;
  }

  /** Puts rows up to the window in the table (after those already there), then a "show more" row; marks the open one. */
  private fill(openId: string | null): void {
    this.body.querySelector("tr.more")?.remove();
    const have = this.body.querySelectorAll("tr[data-key]").length;
    const upTo = Math.min(this.rows.length, this.shownCount);
    for (const r of this.rows.slice(have, upTo)) {
      const tr = el("tr");
      tr.dataset.id = r.id;
      tr.dataset.key = r.key;
      for (const c of this.columns) {
        const v = r[c.key];
        const td = el("td", c.key === "id" ? "id" : null, c.key === "task" ? `${r.split}/${r.task}` : shown(v, c.digits));
        td.dataset.key = c.key;
        td.dataset.value = v === null ? "" : String(v);
        tr.appendChild(td);
      }
      const st = el("td", r.flags.includes("clean") ? "b-match" : "b-mismatch", r.flags.join(" "));
      st.dataset.key = "flags";
      tr.appendChild(st);
      tr.addEventListener("click", () => this.open(r.key));
      this.body.appendChild(tr);
    }
    for (const tr of Array.from(this.body.querySelectorAll<HTMLElement>("tr[data-key]"))) tr.classList.toggle("sel", tr.dataset.key === openId);
    if (!this.rows.length && !this.body.querySelector("tr.none")) {
      const tr = el("tr", "none");
      const td = el("td", null, "no results");
      td.setAttribute("colspan", String(this.columns.length + 1));
      tr.appendChild(td);
      this.body.appendChild(tr);
    }
    if (upTo < this.rows.length && this.total === null) {
      const tr = el("tr", "more");
      const td = el("td");
      td.setAttribute("colspan", String(this.columns.length + 1));
      const b = el("button", null, `show ${Math.min(LIST_WINDOW, this.rows.length - upTo)} more (${this.rows.length - upTo} not shown)`) as HTMLButtonElement;
      b.type = "button";
      b.addEventListener("click", () => {
        this.shownCount += LIST_WINDOW;
        this.fill(openId);
      });
      td.appendChild(b);
      tr.appendChild(td);
      this.body.appendChild(tr);
    }
  }

  /** The search texts changed (detail files arrived): the next render filters again. */
  invalidate(): void {
    this.built = "";
  }

  /** The shown rows' means (exact values in data-mean): what the filter left, in the report's terms. */
  private summarise(): void {
    const box = this.doc.getElementById("gr-list-summary") as HTMLElement;
    box.textContent = "";
    if (!this.rows.length) return;
    const stats: [keyof CropsRow, string, number][] = [
      ["score", "score", 3],
      ["recall", "recall", 3],
      ["precision", "precision", 3],
      ["boxes", "boxes", 2],
      ["misses", "misses", 2],
      ["falseAlarms", "false alarms", 2],
      ["zooms", "zooms", 1],
    ];
    box.appendChild(this.doc.createTextNode(`means over ${this.rows.length}: `));
    for (const [key, label, digits] of stats) {
      const mean = this.rows.reduce((s, r) => s + (r[key] as number), 0) / this.rows.length;
      const span = el("span", "stat", `${label} ${mean.toFixed(digits)} `);
      span.dataset.stat = key;
      span.dataset.mean = String(mean);
      box.appendChild(span);
    }
  }

  csv(): string {
    return csvTable(CROPS_CSV, this.rows);
  }

  private download(): void {
    const a = this.doc.createElement("a");
    a.href = URL.createObjectURL(new Blob([this.csv()], { type: "text/csv" }));
    a.download = cropsCsvName(this.state());
    this.doc.body.appendChild(a);
    a.click();
    a.remove();
  }
}
