/**
 * Atomic file output, the one module every writer uses: write to a temp file
 * beside the target (same file system), rename when complete. A failure, or
 * an abort through the caller's AbortSignal, removes the temp file, so a
 * partial output never appears at the target.
 */
import { mkdirSync, renameSync, rmSync, writeFileSync, createWriteStream, type WriteStream } from "node:fs";
import { rename, rm, writeFile } from "node:fs/promises";
import { dirname, basename, extname, join } from "node:path";
import { threadId } from "node:worker_threads";
import { onAbort } from "./abort.ts";

/**
 * A hidden temp name beside the target, unique per process and thread, ending in the target's
 * extension (`.name.mp4.tmp-<pid>-<tid>-<rand>.mp4`) so tools that read the type from the name
 * (ffmpeg, sharp) treat it as the target.
 */
export function tempPathFor(target: string): string {
  const rand = Math.random().toString(36).slice(2, 8);
  return join(dirname(target), `.${basename(target)}.tmp-${process.pid}-${threadId}-${rand}${extname(target)}`);
}

/** True for the temp files tempPathFor makes (for sweeping the leftovers of a killed run). */
export function isTempName(name: string): boolean {
  return name.startsWith(".") && name.includes(".tmp-");
}

/** Synchronous: creates the folder, writes, renames. */
export function writeFileAtomic(target: string, data: string | Uint8Array): void {
  mkdirSync(dirname(target), { recursive: true });
  const tmp = tempPathFor(target);
  try {
    writeFileSync(tmp, data);
    renameSync(tmp, target);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}

/** Asynchronous, into an existing folder (frame files are written this way from worker threads too). */
export async function writeAtomic(target: string, bytes: Uint8Array | string): Promise<void> {
  const tmp = tempPathFor(target);
  try {
    await writeFile(tmp, bytes);
    await rename(tmp, target);
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
}

/**
 * A stream to a temp file; `commit()` renames it into place, `abort()` removes
 * it. An abort of `signal` removes it too.
 */
export interface AtomicStream {
  stream: WriteStream;
  write(chunk: string | Uint8Array): Promise<void>;
  commit(): Promise<void>;
  abort(): void;
}

export function openAtomicStream(target: string, signal?: AbortSignal): AtomicStream {
  mkdirSync(dirname(target), { recursive: true });
  const tmp = tempPathFor(target);
  const stream = createWriteStream(tmp);
  const off = onAbort(signal, () => {
    stream.destroy();
    rmSync(tmp, { force: true });
  });
  let failed: Error | null = null;
  stream.on("error", (e) => (failed = e));
  return {
    stream,
    write(chunk) {
      if (failed) return Promise.reject(failed);
      return new Promise((resolve, reject) => {
        const ok = stream.write(chunk, (e) => (e ? reject(e) : undefined));
        if (ok) resolve();
        else stream.once("drain", () => resolve());
      });
    },
    async commit() {
      await new Promise<void>((resolve, reject) => stream.end((e?: Error | null) => (e ? reject(e) : resolve())));
      if (failed) throw failed;
      renameSync(tmp, target);
      off();
    },
    abort() {
      stream.destroy();
      rmSync(tmp, { force: true });
      off();
    },
  };
}
