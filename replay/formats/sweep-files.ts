/**
 * Which files a board is read from, in the order geoeval reads them.
 * geoeval globs `ROOT/**\/episodes.jsonl` (recursive, hidden directories
 * skipped, symlinks followed): that visits ROOT, then each subdirectory in
 * directory (scandir) order, depth first. `opendir` reads entries in the same
 * order as Python's scandir (both are readdir(3)); `readdir` would sort them.
 * The one difference: `_quarantined/` is left out (and counted).
 */
import { opendirSync, statSync, lstatSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { GeoreplayError } from "../io/errors.ts";
import { ioReason } from "../io/jsonl.ts";

export const QUARANTINE_DIR = "_quarantined";

export interface BoardFiles {
  /** Every episodes file to read, in read order (a file reached twice is listed twice, as geoeval does). */
  files: string[];
  /** episodes.jsonl files under `_quarantined/` directories, left out. */
  quarantined: string[];
  /** Inputs that are directories holding no episodes.jsonl (geoeval: silently nothing). */
  empty: string[];
}

export function findBoardFiles(inputs: readonly string[]): BoardFiles {
  if (inputs.length === 0) throw new GeoreplayError("no input given (an episodes.jsonl or a folder of sweeps)");
  const out: BoardFiles = { files: [], quarantined: [], empty: [] };
  for (const p of inputs) {
    let st;
    try {
      st = statSync(p);
    } catch (e) {
      throw new GeoreplayError(`${p}: ${ioReason(e)}`);
    }
    if (st.isFile()) {
      out.files.push(p);
      continue;
    }
    if (!st.isDirectory()) throw new GeoreplayError(`${p}: not a regular file or directory`);
    const before = out.files.length;
    walk(p, out.files, out.quarantined, new Set());
    if (out.files.length === before) out.empty.push(p);
  }
  return out;
}

function isDir(path: string, ent: { isDirectory(): boolean; isSymbolicLink(): boolean }): boolean {
  if (ent.isDirectory()) return true;
  if (!ent.isSymbolicLink()) return false;
  try {
    return statSync(path).isDirectory();
  } catch {
    return false; // a dangling link: glob skips it too
  }
}

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Subdirectory names in directory order (unsorted, like scandir). */
function subdirs(dir: string): string[] {
  const names: string[] = [];
  let d;
  try {
    d = opendirSync(dir);
  } catch (e) {
    throw new GeoreplayError(`${dir}: cannot list: ${ioReason(e)}`);
  }
  try {
    for (let ent = d.readSync(); ent !== null; ent = d.readSync()) {
      if (isDir(join(dir, ent.name), ent)) names.push(ent.name);
    }
  } finally {
    d.closeSync();
  }
  return names;
}

function walk(dir: string, files: string[], quarantined: string[], ancestors: Set<string>): void {
  // A symlink back up the tree would make glob recurse until the path is too long; stop at the loop instead.
  let real: string;
  try {
    real = realpathSync(dir);
  } catch {
    real = dir;
  }
  if (ancestors.has(real)) return;
  ancestors.add(real);
  const candidate = join(dir, "episodes.jsonl");
  if (exists(candidate)) files.push(candidate);
  for (const name of subdirs(dir)) {
    if (name.startsWith(".")) continue;
    const full = join(dir, name);
    if (name === QUARANTINE_DIR) walk(full, quarantined, quarantined, ancestors);
    else walk(full, files, quarantined, ancestors);
  }
  ancestors.delete(real);
}
