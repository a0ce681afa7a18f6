/**
 * The folder an output goes in, one rule for every command that writes
 * (render, frames, page): a missing folder is created (the caller says so),
 * and a place that cannot be written (a path under a regular file, a
 * read-only or forbidden folder) is a GeoreplayError naming the path and the
 * reason, found by writing and removing a probe file before any work, never
 * after minutes of it. What the check created is removed again when it fails.
 */
import { accessSync, constants, mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { GeoreplayError } from "./errors.ts";
import { ioReason } from "./jsonl.ts";
import { tempPathFor } from "./atomic.ts";

const kindOf = (p: string): "dir" | "file" | null => {
  try {
    return statSync(p).isDirectory() ? "dir" : "file";
  } catch {
    return null;
  }
};

/**
 * Makes `folder` (and its missing parents) and proves a file can be written in it.
 * Returns the first folder it created (undefined when `folder` was there).
 * `flag` opens every message (`-o clip.mp4`).
 */
export function prepareOutFolder(flag: string, folder: string): string | undefined {
  const dir = resolve(folder);
  let made: string | undefined;
  try {
    // A path under a regular file fails here (ENOTDIR would name no path), an unwritable one at the probe.
    for (let up = dir; ; up = dirname(up)) {
      const k = kindOf(up);
      if (k === "dir") break;
      if (k !== null) throw new GeoreplayError(`${flag}: ${up} is a file, so nothing can be written under it`);
      if (dirname(up) === up) break;
    }
    made = mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK);
    const probe = tempPathFor(`${dir}/probe`);
    writeFileSync(probe, "");
    rmSync(probe, { force: true });
  } catch (e) {
    if (made) rmSync(made, { recursive: true, force: true });
    if (e instanceof GeoreplayError) throw e;
    throw new GeoreplayError(`${flag}: cannot write in ${dir}: ${ioReason(e)}`);
  }
  return made;
}
