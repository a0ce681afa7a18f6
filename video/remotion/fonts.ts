/** Loads the bundled font files before the first frame is painted (renders never fetch fonts from the network). */
import { cancelRender, continueRender, delayRender } from "remotion";
import { BUNDLED_FONTS } from "./font-files.ts";

let loaded = false;

export function loadFonts(): void {
  if (loaded || typeof document === "undefined") return;
  loaded = true;
  const handle = delayRender("Loading bundled fonts");
  Promise.all(BUNDLED_FONTS.map(([family, weight, , url]) => new FontFace(family, `url(${url}) format("woff2")`, { weight: String(weight), style: "normal" }).load()))
    .then((faces) => {
      // FontFaceSet is set-like; lib.dom without DOM.Iterable does not declare add().
      const set = document.fonts as unknown as Set<FontFace>;
      for (const f of faces) set.add(f);
      continueRender(handle);
    })
    .catch((e) => cancelRender(e));
}
