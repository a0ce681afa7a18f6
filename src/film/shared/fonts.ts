/**
 * Fonts for the native (Skia) painter: registers every face of the chain with @napi-rs/canvas
 * and measures text with it.
 *
 * Why here: the chain itself (families, files) is browser-safe data in video/text/fonts.ts; this
 * is the Node half. Package files resolve through the installed package (so an installed tarball
 * works too); Debian files may be absent, and are reported rather than fatal, because a render
 * with boxes for CJK is still a render.
 */
import { existsSync } from "node:fs";
import { GlobalFonts, createCanvas, type SKRSContext2D } from "@napi-rs/canvas";
import { FONT_FACES, cssFont, type FontRole, type FontSpec } from "../../../video/text/fonts.ts";
import { fontFilePath, missingFonts, type MissingFont } from "./font-files.ts";
import type { Measure } from "../../../video/text/lines.ts";

let registration: { registered: number; missing: MissingFont[] } | undefined;

/** Registers every face once per process; later calls return the first call's result. */
export function registerFonts(): { registered: number; missing: MissingFont[] } {
  if (registration) return { registered: registration.registered, missing: [...registration.missing] };
  let registered = 0;
  const missing = missingFonts();
  for (const face of FONT_FACES) {
    const path = fontFilePath(face);
    if (!existsSync(path)) {
      if (face.source.kind === "system") continue; // said by missingFonts()
      throw new Error(`font file missing from an installed package: ${path}`);
    }
    if (GlobalFonts.registerFromPath(path, face.family)) registered++;
    else throw new Error(`@napi-rs/canvas could not load the font ${path}`);
  }
  registration = { registered, missing };
  return { registered, missing: [...missing] };
}

/** A Measure backed by Skia, cached by (font, text). Registers the fonts first. */
export function nodeMeasure(): Measure {
  registerFonts();
  const context: SKRSContext2D = createCanvas(8, 8).getContext("2d");
  let current = "";
  const cache = new Map<string, Map<string, number>>();
  const MAX_ENTRIES = 50_000;
  let entries = 0;
  return (text, font) => {
    const css = cssFont(font);
    let byText = cache.get(css);
    if (!byText) cache.set(css, (byText = new Map()));
    let width = byText.get(text);
    if (width === undefined) {
      if (current !== css) context.font = current = css;
      width = context.measureText(text).width;
      if (entries >= MAX_ENTRIES) {
        cache.clear();
        entries = 0;
        cache.set(css, (byText = new Map()));
      }
      byText.set(text, width);
      entries++;
    }
    return width;
  };
}

/**
 * Measures one string in every role, weight and style the scenes can ask for. Skia resolves a
 * font's family list and loads its faces at the first measure in that font (8-20 ms each, here)
 * and keeps them for the whole process: done on the painter's thread while the views are
 * verified, the planning's first measures on the main thread are then ~0.4 ms instead.
 */
export function warmFonts(): void {
  registerFonts();
  const context = createCanvas(8, 8).getContext("2d");
  for (const role of ["sans", "mono"] satisfies FontRole[])
    for (const weight of [400, 600, 700, 800] satisfies FontSpec["weight"][])
      for (const italic of [false, true]) {
        context.font = cssFont({ role, size: 13, weight, italic });
        context.measureText("Ag 0");
      }
}
