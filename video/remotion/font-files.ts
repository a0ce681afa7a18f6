/**
 * The font files the Remotion composition loads, as bundled URLs: the very
 * files the native engine registers with Skia (video/text/fonts.ts lists
 * them; test/remotion-fonts.test.ts holds the two lists equal). Webpack
 * needs static imports. Noto Sans CJK and Noto Color Emoji are Debian's
 * system files, which Chromium finds by family name through fontconfig:
 * the same files again.
 */
import f0 from "@fontsource/inter/files/inter-latin-400-normal.woff2";
import f1 from "@fontsource/inter/files/inter-latin-ext-400-normal.woff2";
import f2 from "@fontsource/inter/files/inter-cyrillic-400-normal.woff2";
import f3 from "@fontsource/inter/files/inter-cyrillic-ext-400-normal.woff2";
import f4 from "@fontsource/inter/files/inter-greek-400-normal.woff2";
import f5 from "@fontsource/inter/files/inter-vietnamese-400-normal.woff2";
import f6 from "@fontsource/inter/files/inter-latin-600-normal.woff2";
import f7 from "@fontsource/inter/files/inter-latin-ext-600-normal.woff2";
import f8 from "@fontsource/inter/files/inter-cyrillic-600-normal.woff2";
import f9 from "@fontsource/inter/files/inter-cyrillic-ext-600-normal.woff2";
import f10 from "@fontsource/inter/files/inter-greek-600-normal.woff2";
import f11 from "@fontsource/inter/files/inter-vietnamese-600-normal.woff2";
import f12 from "@fontsource/inter/files/inter-latin-800-normal.woff2";
import f13 from "@fontsource/inter/files/inter-latin-ext-800-normal.woff2";
import f14 from "@fontsource/inter/files/inter-cyrillic-800-normal.woff2";
import f15 from "@fontsource/inter/files/inter-cyrillic-ext-800-normal.woff2";
import f16 from "@fontsource/inter/files/inter-greek-800-normal.woff2";
import f17 from "@fontsource/inter/files/inter-vietnamese-800-normal.woff2";
import f18 from "@fontsource/inter/files/inter-latin-400-italic.woff2";
import f19 from "@fontsource/inter/files/inter-latin-ext-400-italic.woff2";
import f20 from "@fontsource/inter/files/inter-cyrillic-400-italic.woff2";
import f21 from "@fontsource/inter/files/inter-cyrillic-ext-400-italic.woff2";
import f22 from "@fontsource/inter/files/inter-greek-400-italic.woff2";
import f23 from "@fontsource/inter/files/inter-vietnamese-400-italic.woff2";
import f24 from "@fontsource/jetbrains-mono/files/jetbrains-mono-latin-400-normal.woff2";
import f25 from "@fontsource/jetbrains-mono/files/jetbrains-mono-latin-ext-400-normal.woff2";
import f26 from "@fontsource/jetbrains-mono/files/jetbrains-mono-cyrillic-400-normal.woff2";
import f27 from "@fontsource/jetbrains-mono/files/jetbrains-mono-greek-400-normal.woff2";
import f28 from "@fontsource/jetbrains-mono/files/jetbrains-mono-vietnamese-400-normal.woff2";
import f29 from "@fontsource/jetbrains-mono/files/jetbrains-mono-latin-700-normal.woff2";
import f30 from "@fontsource/jetbrains-mono/files/jetbrains-mono-latin-ext-700-normal.woff2";
import f31 from "@fontsource/jetbrains-mono/files/jetbrains-mono-cyrillic-700-normal.woff2";
import f32 from "@fontsource/jetbrains-mono/files/jetbrains-mono-greek-700-normal.woff2";
import f33 from "@fontsource/jetbrains-mono/files/jetbrains-mono-vietnamese-700-normal.woff2";
import f34 from "@fontsource/noto-sans-arabic/files/noto-sans-arabic-arabic-400-normal.woff2";
import f35 from "@fontsource/noto-sans-arabic/files/noto-sans-arabic-arabic-700-normal.woff2";
import f36 from "@fontsource/noto-sans-hebrew/files/noto-sans-hebrew-hebrew-400-normal.woff2";
import f37 from "@fontsource/noto-sans-hebrew/files/noto-sans-hebrew-hebrew-700-normal.woff2";
import f38 from "@fontsource/noto-sans-devanagari/files/noto-sans-devanagari-devanagari-400-normal.woff2";
import f39 from "@fontsource/noto-sans-devanagari/files/noto-sans-devanagari-devanagari-700-normal.woff2";
import f40 from "@fontsource/noto-sans-thai/files/noto-sans-thai-thai-400-normal.woff2";
import f41 from "@fontsource/noto-sans-thai/files/noto-sans-thai-thai-700-normal.woff2";

/** Package file (as FONT_FACES names it) -> bundled URL. */
export const BUNDLED_FONT_URLS: Record<string, string> = {
  "@fontsource/inter/files/inter-latin-400-normal.woff2": f0,
  "@fontsource/inter/files/inter-latin-ext-400-normal.woff2": f1,
  "@fontsource/inter/files/inter-cyrillic-400-normal.woff2": f2,
  "@fontsource/inter/files/inter-cyrillic-ext-400-normal.woff2": f3,
  "@fontsource/inter/files/inter-greek-400-normal.woff2": f4,
  "@fontsource/inter/files/inter-vietnamese-400-normal.woff2": f5,
  "@fontsource/inter/files/inter-latin-600-normal.woff2": f6,
  "@fontsource/inter/files/inter-latin-ext-600-normal.woff2": f7,
  "@fontsource/inter/files/inter-cyrillic-600-normal.woff2": f8,
  "@fontsource/inter/files/inter-cyrillic-ext-600-normal.woff2": f9,
  "@fontsource/inter/files/inter-greek-600-normal.woff2": f10,
  "@fontsource/inter/files/inter-vietnamese-600-normal.woff2": f11,
  "@fontsource/inter/files/inter-latin-800-normal.woff2": f12,
  "@fontsource/inter/files/inter-latin-ext-800-normal.woff2": f13,
  "@fontsource/inter/files/inter-cyrillic-800-normal.woff2": f14,
  "@fontsource/inter/files/inter-cyrillic-ext-800-normal.woff2": f15,
  "@fontsource/inter/files/inter-greek-800-normal.woff2": f16,
  "@fontsource/inter/files/inter-vietnamese-800-normal.woff2": f17,
  "@fontsource/inter/files/inter-latin-400-italic.woff2": f18,
  "@fontsource/inter/files/inter-latin-ext-400-italic.woff2": f19,
  "@fontsource/inter/files/inter-cyrillic-400-italic.woff2": f20,
  "@fontsource/inter/files/inter-cyrillic-ext-400-italic.woff2": f21,
  "@fontsource/inter/files/inter-greek-400-italic.woff2": f22,
  "@fontsource/inter/files/inter-vietnamese-400-italic.woff2": f23,
  "@fontsource/jetbrains-mono/files/jetbrains-mono-latin-400-normal.woff2": f24,
  "@fontsource/jetbrains-mono/files/jetbrains-mono-latin-ext-400-normal.woff2": f25,
  "@fontsource/jetbrains-mono/files/jetbrains-mono-cyrillic-400-normal.woff2": f26,
  "@fontsource/jetbrains-mono/files/jetbrains-mono-greek-400-normal.woff2": f27,
  "@fontsource/jetbrains-mono/files/jetbrains-mono-vietnamese-400-normal.woff2": f28,
  "@fontsource/jetbrains-mono/files/jetbrains-mono-latin-700-normal.woff2": f29,
  "@fontsource/jetbrains-mono/files/jetbrains-mono-latin-ext-700-normal.woff2": f30,
  "@fontsource/jetbrains-mono/files/jetbrains-mono-cyrillic-700-normal.woff2": f31,
  "@fontsource/jetbrains-mono/files/jetbrains-mono-greek-700-normal.woff2": f32,
  "@fontsource/jetbrains-mono/files/jetbrains-mono-vietnamese-700-normal.woff2": f33,
  "@fontsource/noto-sans-arabic/files/noto-sans-arabic-arabic-400-normal.woff2": f34,
  "@fontsource/noto-sans-arabic/files/noto-sans-arabic-arabic-700-normal.woff2": f35,
  "@fontsource/noto-sans-hebrew/files/noto-sans-hebrew-hebrew-400-normal.woff2": f36,
  "@fontsource/noto-sans-hebrew/files/noto-sans-hebrew-hebrew-700-normal.woff2": f37,
  "@fontsource/noto-sans-devanagari/files/noto-sans-devanagari-devanagari-400-normal.woff2": f38,
  "@fontsource/noto-sans-devanagari/files/noto-sans-devanagari-devanagari-700-normal.woff2": f39,
  "@fontsource/noto-sans-thai/files/noto-sans-thai-thai-400-normal.woff2": f40,
  "@fontsource/noto-sans-thai/files/noto-sans-thai-thai-700-normal.woff2": f41,
};
