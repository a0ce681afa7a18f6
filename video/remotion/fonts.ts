/**
 * Loads the font chain's package files (the same files the native engine
 * registers, with their unicode ranges) before the first frame is painted:
 * renders never fetch fonts from the network.
 */
import { cancelRender, continueRender, delayRender } from "remotion";
import { FONT_FACES } from "../text/fonts.ts";
import { BUNDLED_FONT_URLS } from "./font-files.ts";

let loaded = false;

export function loadFonts(): void {
  if (loaded || typeof document === "undefined") return;
  loaded = true;
  const handle = delayRender("Loading bundled fonts");
  const faces = FONT_FACES.flatMap((f) => {
    if (f.source.kind !== "package") return [];
    const url = BUNDLED_FONT_URLS[`${f.source.pkg}/${f.source.file}`];
    const descriptors: FontFaceDescriptors = { weight: String(f.weight), style: f.style, ...(f.unicodeRange ? { unicodeRange: f.unicodeRange } : {}) };
    return [new FontFace(f.family, `url(${url}) format("woff2")`, descriptors)];
  });
  Promise.all(faces.map((f) => f.load()))
    .then((loadedFaces) => {
      // FontFaceSet is set-like; lib.dom without DOM.Iterable does not declare add().
      const set = document.fonts as unknown as Set<FontFace>;
      for (const f of loadedFaces) set.add(f);
      continueRender(handle);
    })
    .catch((e) => cancelRender(e));
}
