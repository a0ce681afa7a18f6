/**
 * Fonts bundled with the project (woff2 from @fontsource, served by the
 * bundle): renders never fetch fonts from the network and look the same on
 * every machine. Rendering waits until they are loaded.
 */
import { continueRender, delayRender, cancelRender } from "remotion";
import inter400 from "@fontsource/inter/files/inter-latin-400-normal.woff2";
import inter400ext from "@fontsource/inter/files/inter-latin-ext-400-normal.woff2";
import inter600 from "@fontsource/inter/files/inter-latin-600-normal.woff2";
import inter600ext from "@fontsource/inter/files/inter-latin-ext-600-normal.woff2";
import inter800 from "@fontsource/inter/files/inter-latin-800-normal.woff2";
import mono400 from "@fontsource/jetbrains-mono/files/jetbrains-mono-latin-400-normal.woff2";
import mono400ext from "@fontsource/jetbrains-mono/files/jetbrains-mono-latin-ext-400-normal.woff2";
import mono700 from "@fontsource/jetbrains-mono/files/jetbrains-mono-latin-700-normal.woff2";

// unicode-range of fontsource's latin and latin-ext subsets, so each character picks the face that has it.
const LATIN =
  "U+0000-00FF,U+0131,U+0152-0153,U+02BB-02BC,U+02C6,U+02DA,U+02DC,U+0304,U+0308,U+0329,U+2000-206F,U+20AC,U+2122,U+2191,U+2193,U+2212,U+2215,U+FEFF,U+FFFD";
const LATIN_EXT =
  "U+0100-02BA,U+02BD-02C5,U+02C7-02CC,U+02CE-02D7,U+02DD-02FF,U+0304,U+0308,U+0329,U+1D00-1DBF,U+1E00-1E9F,U+1EF2-1EFF,U+2020,U+20A0-20AB,U+20AD-20C0,U+2113,U+2C60-2C7F,U+A720-A7FF";

const faces: [string, string, string, string][] = [
  ["Inter", inter400, "400", LATIN],
  ["Inter", inter400ext, "400", LATIN_EXT],
  ["Inter", inter600, "600", LATIN],
  ["Inter", inter600ext, "600", LATIN_EXT],
  ["Inter", inter800, "800", LATIN],
  ["JetBrains Mono", mono400, "400", LATIN],
  ["JetBrains Mono", mono400ext, "400", LATIN_EXT],
  ["JetBrains Mono", mono700, "700", LATIN],
];

let loaded = false;

export function loadFonts(): void {
  if (loaded || typeof document === "undefined") return;
  loaded = true;
  const handle = delayRender("Loading bundled fonts");
  Promise.all(
    faces.map(([family, url, weight, unicodeRange]) => new FontFace(family, `url(${url}) format("woff2")`, { weight, style: "normal", unicodeRange }).load()),
  )
    .then((loadedFaces) => {
      // FontFaceSet is set-like; lib.dom without DOM.Iterable does not declare add().
      const set = document.fonts as unknown as Set<FontFace>;
      for (const f of loadedFaces) set.add(f);
      continueRender(handle);
    })
    .catch((e) => cancelRender(e));
}
