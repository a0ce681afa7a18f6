/**
 * Where a page goes, decided and checked before any verification work:
 * `-o x.html` is the one-file form; `-o DIR/` (a trailing slash) or `-o DIR`
 * naming an existing directory is the folder form. A target that cannot be
 * written (a file where a folder must be, a folder where the file must be,
 * a path under a regular file, a read-only place, a non-empty folder that is
 * not a georeplay page folder) is a GeoreplayError (exit 2) at once, never
 * 24 s of work and a stack trace. The check leaves nothing behind.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname, resolve, sep } from "node:path";
import { GeoreplayError } from "../../../replay/io/errors.ts";
import { prepareOutFolder } from "../../../replay/io/out-folder.ts";

export type PageForm = "file" | "folder";

/** The file that marks a folder as a georeplay page folder (what may be replaced as a whole). */
export const FOLDER_MARK = ".georeplay-page";

export interface PageTarget {
  form: PageForm;
  /** The page file (one-file form) or the folder (folder form), resolved. */
  path: string;
}

const kindOf = (p: string): "dir" | "file" | "other" | null => {
  try {
    const s = statSync(p);
    return s.isDirectory() ? "dir" : s.isFile() ? "file" : "other";
  } catch {
    return null;
  }
};

/** Which form `-o out` asks for (pure but for one stat). */
export function pageForm(out: string): PageForm {
  return out.endsWith("/") || out.endsWith(sep) || kindOf(out) === "dir" ? "folder" : "file";
}

/** True when `dir` may be replaced by a page folder: it does not exist, is empty, or georeplay wrote it. */
export function replaceableFolder(dir: string): boolean {
  const k = kindOf(dir);
  if (k === null) return true;
  if (k !== "dir") return false;
  return existsSync(`${dir}/${FOLDER_MARK}`) || readdirSync(dir).length === 0;
}

/**
 * Checks that `out` can be written as the page it names, creating the folder
 * that holds it only to probe it (removed again when the check fails):
 * throws a GeoreplayError naming the path and the reason.
 */
export function checkTarget(out: string): PageTarget {
  const form = pageForm(out);
  const path = resolve(out);
  const flag = `-o ${out}`;
  const k = kindOf(path);
  if (form === "folder") {
    if (k === "file" || k === "other")
      throw new GeoreplayError(`${flag}: ${path} is a file, not a folder: drop the trailing slash to write the one-file page there, or name a folder`);
    if (!replaceableFolder(path))
      throw new GeoreplayError(
        `${flag}: ${path} is a folder that holds files georeplay did not write (no ${FOLDER_MARK} in it): name an empty or new folder, or a file.html for the one-file form`,
      );
  } else if (k === "other") {
    throw new GeoreplayError(`${flag}: ${path} is not a regular file`);
  }
  probeParent(flag, dirname(path));
  return { form, path };
}

/** Creates `parent` (if needed) and proves it can be written (the rule every output folder follows). */
function probeParent(flag: string, parent: string): void {
  prepareOutFolder(flag, parent);
}
