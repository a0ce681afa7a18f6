/**
 * Lazy images: the image table (a JSON array of data URLs after the script
 * in the file; in the folder form, paths of the view files beside the page)
 * is parsed on first use, and each image decodes only when its turn scrolls
 * near the viewport (IntersectionObserver sets `src`). A null entry is a
 * view left out of a one-file page (its turn reprojects the panorama).
 */
import { pageTables, tablesInDocument } from "../../../../../src/page/client/data-files.ts";

export class LazyImages {
  private table: string[] | null = null;
  // While the parser is still inside the table its text is partial: wait for DOMContentLoaded (a board folder: its table file).
  private parsed = tablesInDocument();
  private pending = new Set<HTMLImageElement>();
  private observer: IntersectionObserver | null;

  constructor(private readonly tableId: string) {
    this.observer =
      "IntersectionObserver" in window
        ? new IntersectionObserver(
            (entries) => {
              for (const en of entries) if (en.isIntersecting) this.load(en.target as HTMLImageElement);
            },
            { rootMargin: "400px 0px" },
          )
        : null;
    void pageTables().then(() => {
      this.parsed = true;
      this.pending.forEach((img) => this.load(img));
    });
  }

  source(n: number): string | null {
    if (!this.table) {
      const node = this.parsed ? document.getElementById(this.tableId) : null;
      if (!node) return null;
      this.table = JSON.parse(node.textContent || "[]") as string[];
    }
    const u = this.table[n];
    return typeof u === "string" && (u.startsWith("data:image/") || /^views\/[0-9a-f]{64}\.(jpg|png|webp)$/.test(u)) ? u : null;
  }

  /** A live page's new table entries, from index `from` on (served pages only: the table is read first). */
  extend(from: number, entries: readonly string[]): void {
    this.source(0);
    if (!this.table) return;
    entries.forEach((u, i) => (this.table![from + i] = u));
    this.pending.forEach((img) => this.load(img));
  }

  /** Entries in the table, and how many hold an image (call once the page is parsed). */
  tally(): { entries: number; images: number } {
    this.source(0);
    const t = this.table ?? [];
    let images = 0;
    for (let n = 0; n < t.length; n++) if (this.source(n) !== null) images++;
    return { entries: t.length, images };
  }

  /** Whether table entry n holds an image (call once the page is parsed). */
  has(n: number): boolean {
    return this.source(n) !== null;
  }

  /** An <img> for table entry n, filled in when it comes into view. */
  image(n: number, alt: string, size: number): HTMLImageElement {
    const img = document.createElement("img");
    img.dataset.img = String(n);
    img.alt = alt;
    img.decoding = "async";
    img.width = size;
    img.height = size;
    if (this.observer) this.observer.observe(img);
    else this.load(img);
    return img;
  }

  private load(img: HTMLImageElement): void {
    const src = this.source(Number(img.dataset.img));
    if (!src) {
      this.pending.add(img);
      return;
    }
    this.pending.delete(img);
    img.src = src;
    if (this.observer) this.observer.unobserve(img);
  }
}
