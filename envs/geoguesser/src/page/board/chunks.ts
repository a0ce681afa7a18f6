/**
 * The board page's episode details, one gzip chunk per task: the compare view
 * needs one chunk, an episode's detail one chunk, and nothing is parsed until
 * asked for. Episodes stream in file order, so each goes to its task's part
 * file as it comes (bounded memory); at the end each part becomes a TaskChunk
 * (`{"episodes": [...], "maps": [...], "compare": ...}`, turn maps stored once, the compare maps drawn once every
 * guess is known), gzipped (level 9, no timestamp: same input, same bytes)
 * and written as a base64 string: into the page's chunk table (one-file form)
 * or each to its own data script, data/chunk-<n>.js, beside a compact search
 * text, data/text-<n>.js, its words coded (search-code.ts; folder form: the
 * page loads them as the reader goes).
 */
import { createHash } from "node:crypto";
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import type { ImageSink } from "../../../../../src/page/images.ts";
import { dataScript, type PageFolder } from "../../../../../src/page/output/folder.ts";
import { codeTexts } from "../../../../../src/page/search-code.ts";
import { SearchIndexWriter } from "./search-index.ts";

export class TaskChunks {
  /** Task index -> episodes written so far. */
  private counts = new Map<number, number>();
  /** Task index -> digest of each map in its table -> position. */
  private maps = new Map<number, Map<string, number>>();
  /** The folder form's search index, fed as episodes come (search-index.ts). */
  private readonly index: SearchIndexWriter | null;
  constructor(
    private readonly dir: string,
    opts: { index?: boolean } = {},
  ) {
    mkdirSync(dir, { recursive: true });
    this.index = opts.index ? new SearchIndexWriter(join(dir, "index")) : null;
  }

  private file(task: number): string {
    return join(this.dir, `task-${task}.json`);
  }

  /** Appends one episode's JSON (and its search text, lower-cased) to its task; returns its position in the chunk. */
  add(task: number, json: string, text: string): number {
    const at = this.counts.get(task) ?? 0;
    appendFileSync(this.file(task), (at ? "," : "[") + json);
    appendFileSync(this.textFile(task), (at ? "," : "[") + JSON.stringify(text));
    this.counts.set(task, at + 1);
    this.index?.add(task, at, text);
    return at;
  }

  /**
   * A turn's map, stored once per task: an episode shows the same map on
   * every turn until its pins change, and many attempts share a frame (a
   * board with a map per turn was 1.7 GB before this). Returns its position
   * in the chunk's `maps` table.
   */
  addMap(task: number, json: string): number {
    let seen = this.maps.get(task);
    if (!seen) this.maps.set(task, (seen = new Map()));
    const digest = createHash("sha1").update(json).digest("base64");
    let at = seen.get(digest);
    if (at === undefined) {
      at = seen.size;
      seen.set(digest, at);
      appendFileSync(this.mapFile(task), (at ? "," : "[") + json);
    }
    return at;
  }

  private textFile(task: number): string {
    return join(this.dir, `text-${task}.json`);
  }

  private mapFile(task: number): string {
    return join(this.dir, `maps-${task}.json`);
  }

  /** Task indexes in chunk order (ascending). */
  order(): number[] {
    return [...this.counts.keys()].sort((a, b) => a - b);
  }

  /** Writes every chunk, in order(), as a base64 gzip string; `compare` gives a task's compare maps (JSON); returns the bytes written. */
  async writeTo(sink: ImageSink, compare: (task: number) => string | null = () => null): Promise<number> {
    let bytes = 0;
    let first = true;
    for (const t of this.order()) {
      const entry = `${first ? "" : ","}"${this.chunk(t, compare(t))}"`;
      first = false;
      bytes += entry.length;
      await sink.write(entry);
    }
    return bytes;
  }

  /**
   * The folder form: each chunk, in order(), as data/chunk-<n>.js, and its search text as data/text-<n>.js;
   * then the search index (data/sw-0.js, sp-<n>.js, sd-<n>.js) when it was built.
   */
  writeFiles(folder: PageFolder, compare: (task: number) => string | null = () => null): void {
    const order = this.order();
    order.forEach((t, n) => {
      folder.write(`data/chunk-${n}.js`, dataScript("chunk", n, `"${this.chunk(t, compare(t))}"`));
      const plain = readFileSync(this.textFile(t), "utf8") + "]";
      // Coded (search-code.ts): a query loads and scans several times fewer bytes.
      const coded = codeTexts(JSON.parse(plain) as string[]);
      folder.write(`data/text-${n}.js`, dataScript("text", n, coded ? JSON.stringify(coded) : plain));
    });
    const chunkOf = new Map(order.map((t, n) => [t, n]));
    this.index?.finish(
      (t) => chunkOf.get(t)!,
      (kind, n, json) => folder.write(`data/${kind}-${n}.js`, dataScript(kind, n, json)),
    );
  }

  /** A task's chunk as base64 gzip JSON. */
  private chunk(t: number, maps: string | null): string {
    const turnMaps = existsSync(this.mapFile(t)) ? `,"maps":${readFileSync(this.mapFile(t), "utf8")}]` : "";
    const json = `{"episodes":${readFileSync(this.file(t), "utf8")}]${turnMaps}${maps === null ? "" : `,"compare":${maps}`}}`;
    return gzipSync(Buffer.from(json, "utf8"), { level: 9 }).toString("base64");
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
