/**
 * A run just started may have no episode yet: serve waits (saying so once)
 * until every input file exists and holds a complete line, so the page has
 * something to be built from and the format something to be read from.
 * Folders (sweeps, example rollouts) are taken as they are.
 */
import { closeSync, openSync, readSync, statSync } from "node:fs";

/** Whether `file` is a regular file with a newline in it (a folder counts as ready; a missing file does not). */
export function hasCompleteLine(file: string): boolean {
  let st;
  try {
    st = statSync(file);
  } catch {
    return false;
  }
  if (st.isDirectory()) return true;
  if (!st.isFile() || st.size === 0) return false;
  const fd = openSync(file, "r");
  try {
    const buf = Buffer.allocUnsafe(1 << 16);
    for (let pos = 0; ; pos += buf.length) {
      const n = readSync(fd, buf, 0, buf.length, pos);
      if (n === 0) return false;
      if (buf.subarray(0, n).includes(0x0a)) return true;
    }
  } finally {
    closeSync(fd);
  }
}

/** Resolves once every input has a complete line; rejects when `signal` aborts. */
export async function firstLines(inputs: readonly string[], pollMs: number, signal: AbortSignal, say: (line: string) => void): Promise<void> {
  let told = false;
  for (;;) {
    signal.throwIfAborted();
    const waiting = inputs.filter((f) => !hasCompleteLine(f));
    if (!waiting.length) return;
    if (!told) say(`waiting for the first episode in ${waiting.join(", ")}`);
    told = true;
    await new Promise((r) => setTimeout(r, pollMs));
  }
}
