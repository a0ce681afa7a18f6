/** Whether a `georeplay render` is a batch (many videos into -o DIR/), decided from the options alone, before any work. */
import { statSync } from "node:fs";
import type { RenderCliOptions } from "./options/render.ts";

const isDir = (p: string): boolean => {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
};

/**
 * A batch when -o is a folder, several episodes are given, or any batch-only option is;
 * one video (of any format its name asks for) otherwise.
 */
export function isBatch(o: RenderCliOptions): boolean {
  return (
    Boolean(o.all || o.dryRun || o.shard) ||
    (o.episode?.length ?? 0) > 1 ||
    [o.improved, o.regressed, o.poster, o.posterFrame].some((x) => x !== undefined) ||
    /[\\/]$/.test(o.out) ||
    isDir(o.out)
  );
}
