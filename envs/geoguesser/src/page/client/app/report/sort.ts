/**
 * The board's report tables (arms, behaviour, paired) sort by a header
 * click, again reverses; back to the report's order (rank) by the first
 * column. The order is in the address like the rest of the page's state:
 * `asort`, `bsort`, `psort` = `<column>:<dir>` (the column's data-stat, or
 * its header text where it has none). The numbers are the server's cells,
 * never recomputed: rows are only reordered.
 */
import type { Store, PageState } from "../../state/store.ts";

const TABLES = [
  { id: "gr-board-arms", key: "asort" },
  { id: "gr-board-behaviour", key: "bsort" },
  { id: "gr-board-paired", key: "psort" },
] as const;

export type Cell = number | string | null;

/** Row indexes in the order of column values (missing last either way; ties keep the report's order). */
export function sortedOrder(values: readonly Cell[], dir: 1 | -1): number[] {
  const idx = values.map((_, i) => i);
  return idx.sort((a, b) => {
    const x = values[a];
    const y = values[b];
    if (x === null || y === null) return x === y ? a - b : x === null ? 1 : -1;
    const c = typeof x === "number" && typeof y === "number" ? x - y : String(x).localeCompare(String(y));
    return c === 0 ? a - b : c * dir;
  });
}

export function parseTableSort(s: string): { col: string; dir: 1 | -1 } | null {
  const m = /^(.+):(-?1)$/.exec(s);
  return m ? { col: m[1], dir: Number(m[2]) as 1 | -1 } : null;
}

/** A cell's value: its exact data-value, else its text (a number where it reads as one); "" and "nan" are missing. */
function cellValue(td: HTMLElement | undefined): Cell {
  if (!td) return null;
  const raw = td.dataset.value ?? td.textContent ?? "";
  if (raw === "" || raw === "nan") return null;
  const n = Number(raw);
  return Number.isFinite(n) ? n : raw;
}

export class ReportTables {
  constructor(
    private readonly doc: Document,
    store: Store,
  ) {
    for (const t of TABLES) {
      const table = doc.getElementById(t.id);
      if (!table) continue;
      const ths = Array.from(table.querySelectorAll<HTMLElement>("thead th"));
      const first = table.querySelector("tbody tr");
      ths.forEach((th, i) => {
        const td = first?.children[i] as HTMLElement | undefined;
        th.dataset.col = td?.dataset.stat ?? (th.textContent || String(i));
        th.tabIndex = 0;
        th.title = i === 0 ? "back to the report's order (click again: reverse)" : "sort by this column (again: reverse)";
        const sort = () => {
          const now = parseTableSort(store.q(t.key));
          const col = th.dataset.col!;
          const dir = now && now.col === col ? (now.dir === 1 ? -1 : 1) : i === 0 ? 1 : -1;
          store.set({ query: { [t.key]: i === 0 && dir === 1 ? "" : `${col}:${dir}` } }, "replace");
        };
        th.addEventListener("click", sort);
        th.addEventListener("keydown", (e: KeyboardEvent) => {
          if (e.key === "Enter" || e.key === " ") {
            e.preventDefault();
            sort();
          }
        });
      });
      // The report's order, kept to go back to.
      Array.from(table.querySelectorAll<HTMLElement>("tbody tr")).forEach((tr, i) => (tr.dataset.rank = String(i)));
    }
    store.subscribe((s, prev) => {
      if (TABLES.some((t) => (s.query[t.key] ?? "") !== (prev.query[t.key] ?? ""))) this.render(s);
    });
  }

  /**
   * A served board's report anew (live.ts): each table takes the new section's rows, in the reader's
   * sort; the heading and the forest plot are replaced. The section is the page writer's own HTML
   * (sections.ts, every text escaped), parsed inert (DOMParser runs nothing).
   */
  refresh(html: string, s: PageState): void {
    const fresh = new DOMParser().parseFromString(html, "text/html");
    for (const t of TABLES) {
      const body = this.doc.getElementById(t.id)?.querySelector("tbody");
      const next = fresh.getElementById(t.id)?.querySelector("tbody");
      if (!body || !next) continue;
      const rows = Array.from(next.querySelectorAll<HTMLElement>(":scope > tr")).map((tr, i) => {
        tr.dataset.rank = String(i);
        return this.doc.importNode(tr, true);
      });
      body.replaceChildren(...rows);
    }
    for (const sel of ["#gr-board-h", ".forest-box"]) {
      const now = this.doc.querySelector(sel);
      const next = fresh.querySelector(sel);
      if (now && next) now.replaceWith(this.doc.importNode(next, true));
    }
    this.render(s);
  }

  render(s: PageState): void {
    for (const t of TABLES) {
      const table = this.doc.getElementById(t.id);
      const body = table?.querySelector("tbody");
      if (!table || !body) continue;
      const want = parseTableSort(s.query[t.key] ?? "");
      const ths = Array.from(table.querySelectorAll<HTMLElement>("thead th"));
      const i = want ? ths.findIndex((th) => th.dataset.col === want.col) : -1;
      const rows = Array.from(body.querySelectorAll<HTMLElement>(":scope > tr")).sort((a, b) => Number(a.dataset.rank) - Number(b.dataset.rank));
      const order =
        i > 0 && want
          ? sortedOrder(
              rows.map((tr) => cellValue(tr.children[i] as HTMLElement | undefined)),
              want.dir,
            )
          : rows.map((_, j) => j);
      if (i === 0 && want?.dir === -1) order.reverse();
      body.replaceChildren(...order.map((j) => rows[j]));
      ths.forEach((th, j) => {
        if (want && j === i) th.setAttribute("aria-sort", want.dir === 1 ? "ascending" : "descending");
        else th.removeAttribute("aria-sort");
      });
    }
  }
}
