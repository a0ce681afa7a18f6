/**
 * The font files the Remotion composition loads, as bundled URLs: the very
 * files the native engine registers with Skia (video/text/fonts.ts lists
 * them; a test holds the two lists equal). Webpack needs static imports.
 * Noto Sans CJK and Noto Color Emoji are Debian's system files, which
 * Chromium finds by family name through fontconfig: the same files again.
 */
import inter400latin from "@fontsource/inter/files/inter-latin-400-normal.woff2";
import inter400latinExt from "@fontsource/inter/files/inter-latin-ext-400-normal.woff2";
import inter400cyrillic from "@fontsource/inter/files/inter-cyrillic-400-normal.woff2";
import inter400greek from "@fontsource/inter/files/inter-greek-400-normal.woff2";
import inter600latin from "@fontsource/inter/files/inter-latin-600-normal.woff2";
import inter600latinExt from "@fontsource/inter/files/inter-latin-ext-600-normal.woff2";
import inter600cyrillic from "@fontsource/inter/files/inter-cyrillic-600-normal.woff2";
import inter600greek from "@fontsource/inter/files/inter-greek-600-normal.woff2";
import inter800latin from "@fontsource/inter/files/inter-latin-800-normal.woff2";
import inter800latinExt from "@fontsource/inter/files/inter-latin-ext-800-normal.woff2";
import inter800cyrillic from "@fontsource/inter/files/inter-cyrillic-800-normal.woff2";
import inter800greek from "@fontsource/inter/files/inter-greek-800-normal.woff2";
import mono400latin from "@fontsource/jetbrains-mono/files/jetbrains-mono-latin-400-normal.woff2";
import mono400latinExt from "@fontsource/jetbrains-mono/files/jetbrains-mono-latin-ext-400-normal.woff2";
import mono700latin from "@fontsource/jetbrains-mono/files/jetbrains-mono-latin-700-normal.woff2";
import mono700latinExt from "@fontsource/jetbrains-mono/files/jetbrains-mono-latin-ext-700-normal.woff2";
import arabic400 from "@fontsource/noto-sans-arabic/files/noto-sans-arabic-arabic-400-normal.woff2";
import hebrew400 from "@fontsource/noto-sans-hebrew/files/noto-sans-hebrew-hebrew-400-normal.woff2";
import devanagari400 from "@fontsource/noto-sans-devanagari/files/noto-sans-devanagari-devanagari-400-normal.woff2";
import thai400 from "@fontsource/noto-sans-thai/files/noto-sans-thai-thai-400-normal.woff2";

/** [family, weight, package file (as FONT_FACES names it), bundled URL] */
export const BUNDLED_FONTS: [string, number, string, string][] = [
  ["Inter", 400, "@fontsource/inter/files/inter-latin-400-normal.woff2", inter400latin],
  ["Inter", 400, "@fontsource/inter/files/inter-latin-ext-400-normal.woff2", inter400latinExt],
  ["Inter", 400, "@fontsource/inter/files/inter-cyrillic-400-normal.woff2", inter400cyrillic],
  ["Inter", 400, "@fontsource/inter/files/inter-greek-400-normal.woff2", inter400greek],
  ["Inter", 600, "@fontsource/inter/files/inter-latin-600-normal.woff2", inter600latin],
  ["Inter", 600, "@fontsource/inter/files/inter-latin-ext-600-normal.woff2", inter600latinExt],
  ["Inter", 600, "@fontsource/inter/files/inter-cyrillic-600-normal.woff2", inter600cyrillic],
  ["Inter", 600, "@fontsource/inter/files/inter-greek-600-normal.woff2", inter600greek],
  ["Inter", 800, "@fontsource/inter/files/inter-latin-800-normal.woff2", inter800latin],
  ["Inter", 800, "@fontsource/inter/files/inter-latin-ext-800-normal.woff2", inter800latinExt],
  ["Inter", 800, "@fontsource/inter/files/inter-cyrillic-800-normal.woff2", inter800cyrillic],
  ["Inter", 800, "@fontsource/inter/files/inter-greek-800-normal.woff2", inter800greek],
  ["JetBrains Mono", 400, "@fontsource/jetbrains-mono/files/jetbrains-mono-latin-400-normal.woff2", mono400latin],
  ["JetBrains Mono", 400, "@fontsource/jetbrains-mono/files/jetbrains-mono-latin-ext-400-normal.woff2", mono400latinExt],
  ["JetBrains Mono", 700, "@fontsource/jetbrains-mono/files/jetbrains-mono-latin-700-normal.woff2", mono700latin],
  ["JetBrains Mono", 700, "@fontsource/jetbrains-mono/files/jetbrains-mono-latin-ext-700-normal.woff2", mono700latinExt],
  ["Noto Sans Arabic", 400, "@fontsource/noto-sans-arabic/files/noto-sans-arabic-arabic-400-normal.woff2", arabic400],
  ["Noto Sans Hebrew", 400, "@fontsource/noto-sans-hebrew/files/noto-sans-hebrew-hebrew-400-normal.woff2", hebrew400],
  ["Noto Sans Devanagari", 400, "@fontsource/noto-sans-devanagari/files/noto-sans-devanagari-devanagari-400-normal.woff2", devanagari400],
  ["Noto Sans Thai", 400, "@fontsource/noto-sans-thai/files/noto-sans-thai-thai-400-normal.woff2", thai400],
];
