/**
 * The font chain draws every script as glyphs, not boxes ("tofu").
 *
 * Why these checks: a missing face or a script outside the chain does not fail a render, it just
 * paints boxes, so it has to fail here. The cmaps of the actual files are read with fontkit
 * (it opens woff2 and ttc collections; opentype.js reads neither without extra decoders), the
 * faces are registered with real Skia, and a golden of the fixture reply, wrapped and painted
 * by @napi-rs/canvas, is compared pixel by pixel.
 *
 * Update the golden after a reviewed change: UPDATE_GOLDEN=1 npx vitest run test/text-fonts.test.ts
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { createCanvas } from "@napi-rs/canvas";
import * as fontkit from "fontkit";
import pixelmatch from "pixelmatch";
import { PNG } from "pngjs";
import { describe, expect, it } from "vitest";
import { nodeMeasure, registerFonts } from "../../src/film/shared/fonts.ts";
import { fontFilePath, fontFilePaths, missingFonts } from "../../src/film/shared/font-files.ts";
import { FONT_FACES, SCRIPT_CHAIN, cssFont, fontFamilies, type FontFaceFile, type FontRole } from "../../video/text/fonts.ts";
import { wrapText } from "../../video/text/lines.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const FIXTURE = readFileSync(join(ROOT, "test/fixtures/text/multiscript-reply.txt"), "utf8");
const GOLDEN = join(ROOT, "test/golden/text-multiscript.png");
const UPDATE = process.env.UPDATE_GOLDEN === "1";

const fonts = new Map<string, fontkit.Font>();
function fontOf(face: FontFaceFile): fontkit.Font {
  const path = fontFilePath(face);
  let font = fonts.get(path);
  if (!font) {
    const opened = fontkit.openSync(path);
    // A collection registers its first face with Skia (registerFromPath uses index 0).
    font = "fonts" in opened ? opened.fonts[0] : opened;
    fonts.set(path, font);
  }
  return font;
}

/** The faces a browser or Skia would pick for `family` at `weight`: exact, else the nearest (heavier on a tie). */
function facesAt(family: string, weight: number): FontFaceFile[] {
  const faces = FONT_FACES.filter((f) => f.family === family && f.style === "normal");
  const best = faces.map((f) => f.weight).sort((a, b) => Math.abs(a - weight) - Math.abs(b - weight) || b - a)[0];
  return faces.filter((f) => f.weight === best);
}

/** Code points that need a glyph: not whitespace, format characters (ZWJ, tags) or variation selectors. */
const needsGlyph = (cp: number) => !/[\s\p{Cf}\u{fe00}-\u{fe0f}\u{e0100}-\u{e01ef}]/u.test(String.fromCodePoint(cp));

describe("the font files", () => {
  it("every face of the chain is on this machine (npm packages and Debian's fonts-noto-cjk, fonts-noto-color-emoji)", () => {
    const absent = FONT_FACES.map(fontFilePath).filter((p) => !existsSync(p));
    expect(absent).toEqual([]);
    expect(fontFilePaths()).toHaveLength(FONT_FACES.length);
    const result = registerFonts();
    expect(result.missing).toEqual([]);
    expect(missingFonts()).toEqual(result.missing); // what render warns about, found without Skia
    expect(result.registered).toBe(FONT_FACES.length);
  });

  it("each file is a face of the family both engines are told (a collection's first face for Debian's)", () => {
    // Weighted files name themselves "Inter SemiBold" and the like; the alias is what engines match.
    for (const face of FONT_FACES) expect(fontOf(face).familyName.startsWith(face.family), fontFilePath(face)).toBe(true);
    for (const face of FONT_FACES.filter((f) => f.source.kind === "system")) expect(fontOf(face).familyName).toBe(face.family);
  });

  it("lists one entry per file, and every family of the chain has a regular face", () => {
    const paths = FONT_FACES.map(fontFilePath);
    expect(new Set(paths).size).toBe(paths.length);
    for (const family of [...fontFamilies("sans"), ...fontFamilies("mono")]) expect(facesAt(family, 400).length, family).toBeGreaterThan(0);
  });

  it("each fontsource face's unicodeRange is the one in the package's own CSS", () => {
    for (const face of FONT_FACES) {
      if (face.source.kind !== "package") continue;
      const cssFile = join(fontFilePath(face), "../..", `${face.weight}${face.style === "italic" ? "-italic" : ""}.css`);
      const url = `url(./${face.source.file})`;
      const block = readFileSync(cssFile, "utf8")
        .split("@font-face")
        .find((b) => b.includes(url));
      expect(block, url).toBeDefined();
      expect(block!.match(/unicode-range:\s*([^;]+);/)?.[1], url).toBe(face.unicodeRange);
    }
  });
});

describe("cssFont", () => {
  it("names the whole chain, design font first, in both roles", () => {
    expect(cssFont({ role: "sans", size: 24, weight: 400 })).toBe(
      '400 24px "Inter", "Noto Sans Arabic", "Noto Sans Hebrew", "Noto Sans Devanagari", "Noto Sans Thai", "Noto Sans CJK JP", "Noto Color Emoji"',
    );
    expect(cssFont({ role: "mono", size: 13.5, weight: 700, italic: true })).toMatch(/^italic 700 13\.5px "JetBrains Mono", "Noto Sans Arabic", /);
    expect(SCRIPT_CHAIN).toHaveLength(6);
  });

  it("keeps sizes to 2 decimals so strings are stable, and refuses sizes that are not positive", () => {
    expect(cssFont({ role: "sans", size: 12.3456, weight: 600 })).toMatch(/^600 12\.35px /);
    expect(cssFont({ role: "sans", size: 1 / 3, weight: 800 })).toMatch(/^800 0\.33px /);
    expect(() => cssFont({ role: "sans", size: 0, weight: 400 })).toThrow(RangeError);
    expect(() => cssFont({ role: "sans", size: NaN, weight: 400 })).toThrow(RangeError);
  });

  it("is a font string Skia accepts as given", () => {
    registerFonts();
    const ctx = createCanvas(8, 8).getContext("2d");
    ctx.font = cssFont({ role: "sans", size: 24, weight: 600 });
    expect(ctx.font).toContain("Inter");
    expect(ctx.font).toContain("24px");
  });
});

describe("no tofu: every code point of a reply in many scripts has a glyph in the chain", () => {
  const codePoints = [...new Set([...FIXTURE].map((c) => c.codePointAt(0)!))].filter(needsGlyph);
  const cases: [FontRole, number][] = [
    ["sans", 400],
    ["sans", 600],
    ["sans", 800],
    ["mono", 400],
    ["mono", 700],
  ];
  it("the fixture really has every script", () => {
    for (const re of [/\p{sc=Han}/u, /\p{sc=Hiragana}/u, /\p{sc=Katakana}/u, /\p{sc=Hangul}/u, /\p{sc=Thai}/u, /\p{sc=Devanagari}/u])
      expect(FIXTURE).toMatch(re);
    for (const re of [/\p{sc=Arabic}/u, /\p{sc=Hebrew}/u, /\p{sc=Cyrillic}/u, /\p{sc=Greek}/u, /\p{Extended_Pictographic}/u, /\u0301/, /ệ|ộ|ẵ/])
      expect(FIXTURE).toMatch(re);
  });
  for (const [role, weight] of cases) {
    it(`${role} ${weight}`, () => {
      const chain = fontFamilies(role).map((family) => facesAt(family, weight).map(fontOf));
      const tofu = codePoints.filter((cp) => !chain.some((faces) => faces.some((f) => f.hasGlyphForCodePoint(cp))));
      expect(tofu.map((cp) => `U+${cp.toString(16).toUpperCase()} ${String.fromCodePoint(cp)}`)).toEqual([]);
    });
  }

  it("no font of the chain has Control Pictures or U+FFFD, which is why printable() writes escapes", () => {
    const all = FONT_FACES.map(fontOf);
    for (const cp of [0x2400, 0x241b, 0x2421, 0xfffd])
      expect(
        all.some((f) => f.hasGlyphForCodePoint(cp)),
        cp.toString(16),
      ).toBe(false);
    for (const cp of [..."\\x1bu0123456789abcdef"].map((c) => c.codePointAt(0)!)) expect(fontOf(FONT_FACES[0]).hasGlyphForCodePoint(cp)).toBe(true);
  });
});

describe("painted by Skia", () => {
  it("bidi: a Hebrew word is drawn right to left inside a left-to-right line", () => {
    registerFonts();
    const font = cssFont({ role: "sans", size: 40, weight: 400 });
    const ink = (text: string) => {
      const c = createCanvas(200, 60);
      const ctx = c.getContext("2d");
      ctx.font = font;
      ctx.direction = "ltr";
      ctx.fillStyle = "#000";
      ctx.fillText(text, 10, 45);
      const data = ctx.getImageData(0, 0, 200, 60).data;
      const cols: number[] = [];
      for (let x = 0; x < 200; x++) {
        let sum = 0;
        for (let y = 0; y < 60; y++) sum += data[(y * 200 + x) * 4 + 3];
        cols.push(sum);
      }
      return cols;
    };
    // Alef then bet in logical order: bet is drawn first (leftmost), alef to its right.
    const both = ink("\u05d0\u05d1");
    const betAlone = ink("\u05d1");
    const alefAlone = ink("\u05d0");
    const measure = nodeMeasure();
    const betWidth = Math.round(measure("\u05d1", { role: "sans", size: 40, weight: 400 }));
    const same = (a: number[], b: number[], from: number, to: number) => a.slice(from, to).every((v, i) => Math.abs(v - b[from + i]) < 300);
    expect(same(both, betAlone, 0, 10 + betWidth - 2)).toBe(true);
    expect(same(both, alefAlone, 0, 10 + betWidth - 2)).toBe(false);
  });

  it("Arabic is joined: a word is narrower than its letters drawn apart", () => {
    const measure = nodeMeasure();
    const f = { role: "sans", size: 24, weight: 400 } as const;
    const word = "\u0627\u0644\u0642\u0627\u0647\u0631\u0629"; // القاهرة
    const apart = [...word].reduce((sum, c) => sum + measure(c, f), 0);
    expect(measure(word, f)).toBeLessThan(apart);
    expect(measure(`Cairo ${word}`, f)).toBeCloseTo(measure("Cairo ", f) + measure(word, f), 0);
  });

  it("the fixture reply, wrapped at 860 px, matches the reviewed golden", () => {
    registerFonts();
    const W = 900;
    const H = 500;
    const font = { role: "sans", size: 17, weight: 400 } as const;
    const { lines } = wrapText(FIXTURE, font, 860, nodeMeasure(), { maxLines: 18 });
    const canvas = createCanvas(W, H);
    const ctx = canvas.getContext("2d");
    ctx.fillStyle = "#11151c";
    ctx.fillRect(0, 0, W, H);
    ctx.fillStyle = "#e8ecf2";
    ctx.font = cssFont(font);
    ctx.textBaseline = "alphabetic";
    lines.forEach((line, i) => ctx.fillText(line, 20, 34 + i * 26));
    const png = PNG.sync.read(canvas.toBuffer("image/png"));
    if (UPDATE) {
      mkdirSync(join(ROOT, "test/golden"), { recursive: true });
      writeFileSync(GOLDEN, PNG.sync.write(png));
    }
    expect(existsSync(GOLDEN), `${GOLDEN} (create with UPDATE_GOLDEN=1 and look at it)`).toBe(true);
    const want = PNG.sync.read(readFileSync(GOLDEN));
    expect([want.width, want.height]).toEqual([W, H]);
    const diff = pixelmatch(png.data, want.data, undefined, W, H, { threshold: 0.1 });
    expect(diff, "pixels that differ from the golden").toBeLessThanOrEqual(W * H * 0.0005);
  });
});
