/** A temp file beside the target (same file system, so the final rename is atomic), with the target's extension. */
import { basename, dirname, extname, join } from "node:path";

export function tempFileFor(target: string): string {
  const ext = extname(target);
  return join(dirname(target), `.${basename(target, ext)}.tmp-${process.pid}-${Math.random().toString(36).slice(2, 8)}${ext}`);
}
