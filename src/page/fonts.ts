/**
 * The fonts a page embeds, one table for its two users: the stylesheet's
 * faces (the page's own text and maps) and the player's (the video's text,
 * drawn on a canvas). Both are the video's own files (video/text/fonts.ts),
 * as fontsource subsets with their unicode-range, so a browser loads only
 * the subsets its text uses. A face the stylesheet declares is not embedded
 * again for the player: the player loads it from there.
 */
import { readFileSync } from "node:fs";
import { FONT_FACES, MONO_FAMILY, SANS_FAMILY, type FontFaceFile } from "../../video/text/fonts.ts";
import { fontFilePath } from "../film/shared/font-files.ts";

/** A face the player registers before it paints (player/load.ts). */
export interface PlayerFont {
  family: string;
  weight: number;
  style: "normal" | "italic";
  range: string;
  /** base64; absent when the page's stylesheet declares this face (the same file): loaded from there. */
  woff2?: string;
}

/**
 * The subsets the stylesheet embeds: every Latin script (~150 KB of woff2 for its three faces), so
 * a place name or reply in Czech, Turkish or Vietnamese is drawn in the page's font. Other scripts
 * fall back to the system's fonts.
 */
export const PAGE_FONT_SUBSETS: readonly string[] = ["latin", "latin-ext", "vietnamese"];

/** The stylesheet's faces: Inter 400 and 600, JetBrains Mono 400, in PAGE_FONT_SUBSETS. */
export function pageFontFaces(): FontFaceFile[] {
  const face = (f: FontFaceFile) =>
    f.style === "normal" && ((f.family === SANS_FAMILY && (f.weight === 400 || f.weight === 600)) || (f.family === MONO_FAMILY && f.weight === 400));
  return FONT_FACES.filter((f) => face(f) && f.source.kind === "package" && f.subset !== undefined && PAGE_FONT_SUBSETS.includes(f.subset));
}

/** A face's file as base64. */
export function fontBase64(f: FontFaceFile): string {
  return readFileSync(fontFilePath(f)).toString("base64");
}

function inRange(cp: number, range: string): boolean {
  for (const part of range.split(",")) {
    const [lo, hi] = part.replace("U+", "").split("-");
    const a = parseInt(lo, 16);
    const b = hi === undefined ? a : parseInt(hi, 16);
    if (cp >= a && cp <= b) return true;
  }
  return false;
}

/**
 * The player's faces: the video's Inter and JetBrains Mono files, only the subsets the laid-out
 * text reaches (and only `faces`, "Inter|600|normal", when given); other scripts fall back to the
 * browser's fonts. A face the stylesheet embeds comes without its bytes.
 */
export function fontsFor(chars: Set<number>, faces?: Set<string>): PlayerFont[] {
  const used = (f: FontFaceFile) =>
    (faces === undefined || faces.has(`${f.family}|${f.weight}|${f.style}`)) &&
    f.unicodeRange !== undefined &&
    [...chars].some((cp) => inRange(cp, f.unicodeRange!));
  const inStylesheet = new Set(pageFontFaces());
  return FONT_FACES.filter((f) => (f.family === SANS_FAMILY || f.family === MONO_FAMILY) && f.source.kind === "package" && used(f)).map((f) => ({
    family: f.family,
    weight: f.weight,
    style: f.style,
    range: f.unicodeRange!,
    ...(inStylesheet.has(f) ? {} : { woff2: fontBase64(f) }),
  }));
}
