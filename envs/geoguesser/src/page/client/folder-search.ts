/**
 * Search over every word of a folder-form page without holding every word.
 * A 12,800-episode board's search texts are ~1 GB: kept in the tab they
 * crash it, so a query reads each data file's texts in turn (data/text-<n>.js,
 * one read ahead), keeps the ids of the episodes whose text holds it, and
 * lets the texts go. A newer query stops an older one between files. A
 * board's files carry their words coded (search-code.ts: matched on the
 * codes), a run page's and a served page's the plain texts.
 */
import { dataFile } from "../../../../../src/page/client/data-files.ts";
import { textHits, type CodedTexts } from "../../../../../src/page/search-code.ts";

/** Where a row's search text is: the data file and its place in that file's array. */
export interface TextPlace {
  id: string;
  file: number;
  at: number;
}

export class FolderTextSearch {
  private readonly byFile = new Map<number, string[]>();
  private hits: { q: string; ids: Set<string> } | null = null;
  private latest = 0;

  constructor(places: readonly TextPlace[]) {
    this.add(places);
  }

  /** Rows a live page received: their texts are searched from the next query on. */
  add(places: readonly TextPlace[]): void {
    this.hits = null;
    for (const p of places) {
      let ids = this.byFile.get(p.file);
      if (!ids) this.byFile.set(p.file, (ids = []));
      ids[p.at] = p.id;
    }
  }

  /** A row's search text: its own fields, and the query last searched when its episode's words hold it (what the list's match reads). */
  text(id: string, own: string): string {
    return this.hits?.ids.has(id) ? `${own}\n${this.hits.q}` : own;
  }

  /** Reads every text file for `q` (lower-cased); true once `text` answers for it, false if a newer query took over. */
  async search(q: string): Promise<boolean> {
    const mine = ++this.latest;
    const files = [...this.byFile.keys()].sort((a, b) => a - b);
    const ids = new Set<string>();
    const read = (i: number) => (i < files.length ? dataFile<string[] | CodedTexts>("text", files[i], { keep: false }) : null);
    let next = read(0);
    for (let i = 0; i < files.length; i++) {
      const file = await next!;
      next = read(i + 1);
      if (mine !== this.latest) return false;
      const place = this.byFile.get(files[i])!;
      textHits(file, q).forEach((hit, j) => {
        if (hit && place[j] !== undefined) ids.add(place[j]);
      });
    }
    if (mine !== this.latest) return false;
    this.hits = { q, ids };
    return true;
  }
}
