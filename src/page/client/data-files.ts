/**
 * The folder form's data scripts (data/<kind>-<n>.js): file:// pages cannot
 * fetch, but may load a script, so each file calls `georeplayData(kind, n,
 * payload)` and this module hands the payload to whoever asked. The CSP lets
 * a data script run only because this code inserted it ('strict-dynamic').
 * The one-file form has no data files: `isFolderForm()` is false.
 */
const waiting = new Map<string, { resolve(v: unknown): void; reject(e: Error): void }>();
const loaded = new Map<string, Promise<unknown>>();

(window as unknown as { georeplayData: (kind: string, n: number, payload: unknown) => void }).georeplayData = (kind, n, payload) => {
  const key = `${kind}-${n}`;
  waiting.get(key)?.resolve(payload);
  waiting.delete(key);
};

/** True for a page written with `-o DIR/` (its template marks the root element). */
export const isFolderForm = (): boolean => document.documentElement.dataset.form === "folder";

/** The payload of data/<kind>-<n>.js, loaded once (`keep: false`: not kept once handed over, for data read in passing). */
export function dataFile<T>(kind: string, n: number, opts: { keep?: boolean } = {}): Promise<T> {
  const key = `${kind}-${n}`;
  let p = loaded.get(key);
  if (!p) {
    p = new Promise<unknown>((resolve, reject) => {
      waiting.set(key, { resolve, reject });
      const s = document.createElement("script");
      s.src = `data/${key}.js`;
      s.async = true;
      s.onerror = () => {
        waiting.delete(key);
        loaded.delete(key);
        reject(new Error(`data/${key}.js could not be loaded: is the page folder complete?`));
      };
      // The payload is handed over; the element is no longer needed.
      s.onload = () => s.remove();
      document.head.appendChild(s);
    });
    loaded.set(key, p);
    if (opts.keep === false) void p.then(() => loaded.delete(key)).catch(() => {});
  }
  return p as Promise<T>;
}

let tables: Promise<void> | null = null;
const TABLES_EVENT = "georeplay-tables";

/**
 * Resolves once the page's tables (panoramas, exact views, player, map cells) are in the document:
 * parsed (DOMContentLoaded), or, for a board folder whose index.html leaves them out so its first
 * screen need not wait for them (data-table-file), read from data/tables-0.js on first need and put
 * in as the elements they were, so every reader finds them by id as before.
 */
export function pageTables(): Promise<void> {
  return (tables ??= (async () => {
    if (document.readyState === "loading") await new Promise((r) => document.addEventListener("DOMContentLoaded", r, { once: true }));
    if (document.documentElement.dataset.tableFile !== "1") return;
    const all = await dataFile<Record<string, unknown>>("tables", 0, { keep: false });
    for (const [id, value] of Object.entries(all)) {
      if (document.getElementById(id)) continue;
      const s = document.createElement("script");
      s.type = "application/json";
      s.id = id;
      s.textContent = JSON.stringify(value);
      document.body.appendChild(s);
    }
    // The player's code (its own bundle) waits for this.
    document.documentElement.dataset.tablesIn = "1";
    document.dispatchEvent(new Event(TABLES_EVENT));
  })());
}

/** Whether the tables may be read now without waiting (a page whose tables are all parsed). */
export const tablesInDocument = (): boolean => document.readyState !== "loading" && document.documentElement.dataset.tableFile !== "1";
