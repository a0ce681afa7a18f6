/** Atomic file output: write to a temp file beside the target, rename when complete. */
import { mkdirSync, renameSync, rmSync, writeFileSync, createWriteStream, type WriteStream } from "node:fs";
import { dirname, basename, join } from "node:path";
import { onInterrupt } from "./interrupt.ts";

export function tempPathFor(target: string): string {
  return join(dirname(target), `.${basename(target)}.tmp-${process.pid}-${Math.random().toString(36).slice(2, 8)}`);
}

export function writeFileAtomic(target: string, data: string | Uint8Array): void {
  mkdirSync(dirname(target), { recursive: true });
  const tmp = tempPathFor(target);
  const off = onInterrupt(() => rmSync(tmp, { force: true }));
  try {
    writeFileSync(tmp, data);
    renameSync(tmp, target);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  } finally {
    off();
  }
}

/**
 * A stream to a temp file; `commit()` renames it into place, `abort()` removes
 * it. An interrupt removes it too, so a partial output never appears.
 */
export interface AtomicStream {
  stream: WriteStream;
  write(chunk: string | Uint8Array): Promise<void>;
  commit(): Promise<void>;
  abort(): void;
}

export function openAtomicStream(target: string): AtomicStream {
  mkdirSync(dirname(target), { recursive: true });
  const tmp = tempPathFor(target);
  const stream = createWriteStream(tmp);
  const off = onInterrupt(() => rmSync(tmp, { force: true }));
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
