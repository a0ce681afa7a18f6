/** STUB until the text module lands: registers the design fonts and the script chain with Skia. */
import { createRequire } from "node:module";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { createCanvas, GlobalFonts } from "@napi-rs/canvas";
import { cssFont } from "../../video/text/fonts.ts";
import type { Measure } from "../../video/text/lines.ts";

const require = createRequire(import.meta.url);
let done: { registered: number; missing: { family: string; path: string; debianPackage: string }[] } | null = null;

export function registerFonts() {
  if (done) return done;
  const pkg = (name: string) => dirname(require.resolve(`${name}/package.json`));
  let registered = 0;
  const missing: { family: string; path: string; debianPackage: string }[] = [];
  const reg = (path: string, family: string) => {
    if (GlobalFonts.registerFromPath(path, family)) registered++;
  };
  for (const w of [400, 600, 800]) for (const s of ["latin", "latin-ext", "cyrillic", "greek"]) reg(join(pkg("@fontsource/inter"), "files", `inter-${s}-${w}-normal.woff2`), "Inter");
  for (const w of [400, 700]) for (const s of ["latin", "latin-ext"]) reg(join(pkg("@fontsource/jetbrains-mono"), "files", `jetbrains-mono-${s}-${w}-normal.woff2`), "JetBrains Mono");
  for (const [p, f, sub] of [["@fontsource/noto-sans-arabic", "Noto Sans Arabic", "arabic"], ["@fontsource/noto-sans-hebrew", "Noto Sans Hebrew", "hebrew"], ["@fontsource/noto-sans-devanagari", "Noto Sans Devanagari", "devanagari"], ["@fontsource/noto-sans-thai", "Noto Sans Thai", "thai"]])
    reg(join(pkg(p), "files", `${p.split("/")[1]}-${sub}-400-normal.woff2`), f);
  for (const [path, family, deb] of [["/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc", "Noto Sans CJK JP", "fonts-noto-cjk"], ["/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf", "Noto Color Emoji", "fonts-noto-color-emoji"]]) {
    if (existsSync(path)) reg(path, family);
    else missing.push({ family, path, debianPackage: deb });
  }
  return (done = { registered, missing });
}

export function nodeMeasure(): Measure {
  registerFonts();
  const ctx = createCanvas(8, 8).getContext("2d");
  const cache = new Map<string, number>();
  return (text, font) => {
    const css = cssFont(font);
    const k = `${css}\u0000${text}`;
    let w = cache.get(k);
    if (w === undefined) {
      ctx.font = css;
      w = ctx.measureText(text).width;
      cache.set(k, w);
    }
    return w;
  };
}
