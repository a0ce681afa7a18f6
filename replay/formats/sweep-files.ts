/**
 * Which files a sweep or board is read from, in the order geoeval reads them:
 * the one rule for every command (verify, page and its board tables, report,
 * frames), so a board page's tables and its episode rows come from the same
 * files.
 * geoeval globs `ROOT/**\/episodes.jsonl` (recursive, hidden directories
 * skipped, symlinks followed): that visits ROOT, then each subdirectory in
 * directory (scandir) order, depth first. `opendir` reads entries in the same
 * order as Python's scandir (both are readdir(3)); `readdir` would sort them.
 * The one difference: `_quarantined/` is left out (and counted).
 */
import { opendirSync, statSync, lstatSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { GeoreplayError, fileError } from "../io/errors.ts";
import { ioReason, statInput } from "../io/jsonl.ts";

export const QUARANTINE_DIR = "_quarantined";

export interface SweepFiles {
  /** Every episodes file to read, in read order (a file reached twice is listed twice, as geoeval does). */
  files: string[];
  /** episodes.jsonl files under `_quarantined/` directories, left out. */
  quarantined: string[];
  /** Inputs that are directories holding no episodes.jsonl (geoeval: silently nothing). */
  empty: string[];
}

/** Every episodes file of the inputs: files as given, folders walked (see episodeFilesUnder). */
export function findSweepFiles(inputs: readonly string[]): SweepFiles {
  if (inputs.length === 0) throw new GeoreplayError("no input given (an episodes.jsonl or a folder of sweeps)");
  const out: SweepFiles = { files: [], quarantined: [], empty: [] };
  for (const p of inputs) {
    const st = statInput(p);
    if (st.isFile()) {
      out.files.push(p);
      continue;
    }
    if (!st.isDirectory()) throw fileError(p, "not a regular file or directory");
    const found = episodeFilesUnder(p);
    out.files.push(...found.files);
    out.quarantined.push(...found.quarantined);
    if (found.files.length === 0) out.empty.push(p);
  }
  return out;
}

/** The episodes.jsonl files under one folder, in geoeval's order, and those left out under `_quarantined/`. */
export function episodeFilesUnder(dir: string): { files: string[]; quarantined: string[] } {
  const found = { files: [] as string[], quarantined: [] as string[] };
  walk(dir, found.files, found.quarantined, new Set());
  return found;
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
    throw fileError(dir, `cannot list: ${ioReason(e)}`);
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
