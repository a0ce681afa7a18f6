/**
 * Every command's output folder, one rule (replay/io/out-folder.ts): checked before any work; a
 * missing one is created and said so on stderr; one that cannot be written is exit 2 at once. A
 * folder made for a command that then fails is removed again while it is still empty (run-main).
 */
import { existsSync, rmdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { prepareOutFolder } from "../../../replay/io/out-folder.ts";

/** Folders this process created for its output: the folder asked for, and the first one made on the way to it. */
const made: { folder: string; first: string }[] = [];

/**
 * `flag` names the option in messages (`-o clip.mp4`); `folder` is the folder the output goes in. An
 * output that is itself a folder (render -o DIR/, frames --out DIR) passes `itself`: its parent is
 * the folder made and said so, and the folder, when there already, must take a file too.
 */
export function outFolder(flag: string, folder: string, itself = false): void {
  const dir = resolve(folder);
  if (itself && existsSync(dir)) prepareOutFolder(flag, dir);
  const parent = itself ? dirname(dir) : dir;
  const first = prepareOutFolder(flag, parent);
  if (first === undefined) return;
  made.push({ folder: parent, first });
  process.stderr.write(`note: ${flag}: created the folder ${parent} (it did not exist)\n`);
}

/** After a failure: the folders outFolder created, removed from the deepest up while empty (a non-empty one stays). */
export function removeMadeFolders(): void {
  for (const { folder, first } of made.splice(0)) {
    for (let dir = folder; ; dir = dirname(dir)) {
      try {
        rmdirSync(dir);
      } catch {
        break;
      }
      if (dir === first || dirname(dir) === dir) break;
    }
  }
}
