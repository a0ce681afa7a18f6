/**
 * The board page's episode details, one gzip chunk per task: the compare view
 * needs one chunk, an episode's detail one chunk, and nothing is parsed until
 * asked for. Episodes stream in file order, so each goes to its task's part
 * file as it comes (bounded memory); at the end each part becomes a TaskChunk
 * (`{"episodes": [...], "compare": ...}`, the compare maps drawn once every
 * guess is known), gzipped (level 9, no timestamp: same input, same bytes)
 * and written as a base64 string.
 */
import { appendFileSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import type { ImageSink } from "../images.ts";

export class TaskChunks {
  /** Task index -> episodes written so far. */
  private counts = new Map<number, number>();
  constructor(private readonly dir: string) {
    mkdirSync(dir, { recursive: true });
  }

  private file(task: number): string {
    return join(this.dir, `task-${task}.json`);
  }

  /** Appends one episode's JSON to its task; returns its position in the chunk. */
  add(task: number, json: string): number {
    const at = this.counts.get(task) ?? 0;
    appendFileSync(this.file(task), (at ? "," : "[") + json);
    this.counts.set(task, at + 1);
    return at;
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
      const maps = compare(t);
      const json = `{"episodes":${readFileSync(this.file(t), "utf8")}]${maps === null ? "" : `,"compare":${maps}`}}`;
      const entry = `${first ? "" : ","}"${gzipSync(Buffer.from(json, "utf8"), { level: 9 }).toString("base64")}"`;
      first = false;
      bytes += entry.length;
      await sink.write(entry);
    }
    return bytes;
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
