/**
 * Search over every word of a folder-form board through its index
 * (search-index.ts): a query loads the index's table once, then only the
 * shards of the words it needs, and keeps them, so the next query reads
 * little or nothing. Same answers as reading every search text
 * (folder-search.ts): the docs whose text includes the query.
 */
import { dataFile } from "../../../../../src/page/client/data-files.ts";
import { INDEX_KINDS, IndexSearcher, base64Bytes, readTable, type IndexTablePayload } from "../../../../../src/page/search-index.ts";

export class IndexTextSearch {
  private searcher: Promise<IndexSearcher> | null = null;
  private hits: { q: string; ids: Set<string> } | null = null;
  private latest = 0;

  /** `idOf(chunk, at)`: the row whose detail is at `at` in chunk `chunk`. */
  constructor(private readonly idOf: (chunk: number, at: number) => string | undefined) {}

  /** A row's search text: its own fields, and the query last searched when its episode's words hold it (what the list's match reads). */
  text(id: string, own: string): string {
    return this.hits?.ids.has(id) ? `${own}\n${this.hits.q}` : own;
  }

  private open(): Promise<IndexSearcher> {
    this.searcher ??= dataFile<IndexTablePayload>(INDEX_KINDS.table, 0).then(
      (p) => new IndexSearcher(readTable(p), async (kind, n) => base64Bytes(await dataFile<string>(kind, n, { keep: false }))),
    );
    this.searcher.catch(() => (this.searcher = null));
    return this.searcher;
  }

  /** Answers `q` (lower-cased); true once `text` answers for it, false if a newer query took over. */
  async search(q: string): Promise<boolean> {
    const mine = ++this.latest;
    const s = await this.open();
    const docs = await s.docs(q);
    if (mine !== this.latest) return false;
    const ids = new Set<string>();
    for (const d of docs) {
      const id = this.idOf(s.table.chunk[d], s.table.at[d]);
      if (id !== undefined) ids.add(id);
    }
    this.hits = { q, ids };
    return true;
  }
}
