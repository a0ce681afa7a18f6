// The little of fontkit (a devDependency) that test/text-fonts.test.ts uses: open a woff2, ttf
// or ttc file and ask its cmap whether a code point has a glyph.
declare module "fontkit" {
  export interface Font {
    familyName: string;
    hasGlyphForCodePoint(codePoint: number): boolean;
  }
  export interface FontCollection {
    fonts: Font[];
  }
  export function openSync(path: string): Font | FontCollection;
}
