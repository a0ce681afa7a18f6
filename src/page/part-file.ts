/**
 * A part of a page being built: streamed to a temp file beside the output,
 * copied into the page at the end, and always removed.
 */
import { createReadStream, createWriteStream, openSync, rmSync, type WriteStream } from "node:fs";
import { openAtomicStream, tempPathFor } from "../../replay/io/atomic.ts";

export class PartFile {
  readonly path: string;
  private stream: WriteStream;
  private failed: Error | null = null;
  bytes = 0;
  constructor(target: string) {
    this.path = tempPathFor(target);
    // Opened synchronously so that remove() can never race a pending open and leave the file behind.
    this.stream = createWriteStream(this.path, { fd: openSync(this.path, "w") });
    this.stream.on("error", (e) => (this.failed = e));
  }
  write(chunk: string): Promise<void> {
    if (this.failed) return Promise.reject(this.failed);
    this.bytes += Buffer.byteLength(chunk);
    return new Promise((resolve, reject) => {
      if (this.stream.write(chunk, (e) => (e ? reject(e) : undefined))) resolve();
      else this.stream.once("drain", () => resolve());
    });
  }
  close(): Promise<void> {
    return new Promise((resolve, reject) => this.stream.end((e?: Error | null) => (e ? reject(e) : resolve())));
  }
  remove(): void {
    this.stream.destroy();
    rmSync(this.path, { force: true });
  }
}

/**
 * Writes a page atomically from its pieces in order: text as it is, part
 * files copied in. Returns the bytes written; on any failure nothing is left.
 */
export async function writePage(out: string, pieces: readonly (string | PartFile)[], signal?: AbortSignal): Promise<number> {
  const file = openAtomicStream(out, signal);
  let bytes = 0;
  try {
    for (const p of pieces) {
      if (typeof p === "string") {
        bytes += Buffer.byteLength(p);
        await file.write(p);
      } else {
        for await (const chunk of createReadStream(p.path) as AsyncIterable<Buffer>) {
          bytes += chunk.length;
          await file.write(chunk);
        }
      }
    }
    await file.commit();
  } catch (e) {
    file.abort();
    throw e;
  }
  return bytes;
}
