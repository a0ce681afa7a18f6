/**
 * Where each face of the font chain is on this machine, and which are not:
 * apart from the registration with Skia (fonts.ts) so that a command can say
 * what is missing without loading Skia on its main thread.
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { FONT_FACES, type FontFaceFile } from "../../../video/text/fonts.ts";

export interface MissingFont {
  family: string;
  path: string;
  debianPackage: string;
}

const require = createRequire(import.meta.url);
const packageDirs = new Map<string, string>();

/** Absolute path of one face's file (whether or not it exists). */
export function fontFilePath(face: FontFaceFile): string {
  if (face.source.kind === "system") return face.source.path;
  const { pkg, file } = face.source;
  let dir = packageDirs.get(pkg);
  if (!dir) {
    dir = dirname(require.resolve(`${pkg}/package.json`));
    packageDirs.set(pkg, dir);
  }
  return join(dir, file);
}

/** Absolute paths of the faces present on this machine. */
export function fontFilePaths(): string[] {
  return FONT_FACES.map(fontFilePath).filter((p) => existsSync(p));
}

/** The Debian faces absent from this machine (text in their scripts would draw as boxes). */
export function missingFonts(): MissingFont[] {
  const missing: MissingFont[] = [];
  for (const face of FONT_FACES) {
    if (face.source.kind !== "system") continue;
    const path = fontFilePath(face);
    if (!existsSync(path)) missing.push({ family: face.family, path, debianPackage: face.source.debianPackage });
  }
  return missing;
}
