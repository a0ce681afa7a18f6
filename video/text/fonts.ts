/**
 * Which fonts draw text, for both painters (Skia in Node, a browser <canvas> in Remotion).
 *
 * Why: a model's reply can be in any script, and a canvas only draws what its font chain has
 * glyphs for. Inter and JetBrains Mono stay the design fonts (Latin digits and labels look as
 * they always did); every other script falls through one fixed chain of Noto fonts, then emoji.
 * Both engines must see the same family names, so they are spelled here once.
 *
 * Browser-safe: data and string formatting only. Registering the files is the delivery layer's
 * job (src/film/shared/fonts.ts in Node; FontFace with `unicodeRange` in a browser).
 */

export type FontRole = "sans" | "mono";

export interface FontSpec {
  role: FontRole;
  /** px; may be fractional (kept to 2 decimals in the CSS string so it is stable). */
  size: number;
  weight: 400 | 600 | 700 | 800;
  italic?: boolean;
}

export type FontSource = { kind: "package"; pkg: string; file: string } | { kind: "system"; path: string; debianPackage: string };

export interface FontFaceFile {
  family: string;
  weight: number;
  style: "normal" | "italic";
  source: FontSource;
  /** The CSS unicode-range of a fontsource subset (the browser uses it; Skia ignores it). */
  unicodeRange?: string;
  /** That subset's name ("latin-ext"). */
  subset?: string;
}

export const SANS_FAMILY = "Inter";
export const MONO_FAMILY = "JetBrains Mono";
/** After the design font, in this order, for every role. */
export const SCRIPT_CHAIN = ["Noto Sans Arabic", "Noto Sans Hebrew", "Noto Sans Devanagari", "Noto Sans Thai", "Noto Sans CJK JP", "Noto Color Emoji"] as const;

export function fontFamilies(role: FontRole): string[] {
  return [role === "mono" ? MONO_FAMILY : SANS_FAMILY, ...SCRIPT_CHAIN];
}

/** `ctx.font` for a spec, e.g. `600 13.5px "Inter", "Noto Sans Arabic", …, "Noto Color Emoji"`. */
export function cssFont(spec: FontSpec): string {
  if (!(Number.isFinite(spec.size) && spec.size > 0)) throw new RangeError(`font size must be a positive number of px, got ${spec.size}`);
  const size = String(Number(spec.size.toFixed(2)));
  return `${spec.italic ? "italic " : ""}${spec.weight} ${size}px ${familyList(spec.role)}`;
}

// Every text of every frame asks for its font: the family list, the same for a role, is built once.
const familyLists = new Map<FontRole, string>();
function familyList(role: FontRole): string {
  let list = familyLists.get(role);
  if (list === undefined) {
    list = fontFamilies(role)
      .map((f) => `"${f}"`)
      .join(", ");
    familyLists.set(role, list);
  }
  return list;
}

// unicode-range of fontsource's subsets (the same for Inter and JetBrains Mono; checked against
// the packages' CSS by test/text-fonts.test.ts).
const RANGES = {
  latin:
    "U+0000-00FF,U+0131,U+0152-0153,U+02BB-02BC,U+02C6,U+02DA,U+02DC,U+0304,U+0308,U+0329,U+2000-206F,U+20AC,U+2122,U+2191,U+2193,U+2212,U+2215,U+FEFF,U+FFFD",
  "latin-ext":
    "U+0100-02BA,U+02BD-02C5,U+02C7-02CC,U+02CE-02D7,U+02DD-02FF,U+0304,U+0308,U+0329,U+1D00-1DBF,U+1E00-1E9F,U+1EF2-1EFF,U+2020,U+20A0-20AB,U+20AD-20C0,U+2113,U+2C60-2C7F,U+A720-A7FF",
  cyrillic: "U+0301,U+0400-045F,U+0490-0491,U+04B0-04B1,U+2116",
  "cyrillic-ext": "U+0460-052F,U+1C80-1C8A,U+20B4,U+2DE0-2DFF,U+A640-A69F,U+FE2E-FE2F",
  greek: "U+0370-0377,U+037A-037F,U+0384-038A,U+038C,U+038E-03A1,U+03A3-03FF",
  vietnamese: "U+0102-0103,U+0110-0111,U+0128-0129,U+0168-0169,U+01A0-01A1,U+01AF-01B0,U+0300-0301,U+0303-0304,U+0308-0309,U+0323,U+0329,U+1EA0-1EF9,U+20AB",
  arabic:
    "U+0600-06FF,U+0750-077F,U+0870-088E,U+0890-0891,U+0897-08E1,U+08E3-08FF,U+200C-200E,U+2010-2011,U+204F,U+2E41,U+FB50-FDFF,U+FE70-FE74,U+FE76-FEFC,U+102E0-102FB,U+10E60-10E7E,U+10EC2-10EC4,U+10EFC-10EFF,U+1EE00-1EE03,U+1EE05-1EE1F,U+1EE21-1EE22,U+1EE24,U+1EE27,U+1EE29-1EE32,U+1EE34-1EE37,U+1EE39,U+1EE3B,U+1EE42,U+1EE47,U+1EE49,U+1EE4B,U+1EE4D-1EE4F,U+1EE51-1EE52,U+1EE54,U+1EE57,U+1EE59,U+1EE5B,U+1EE5D,U+1EE5F,U+1EE61-1EE62,U+1EE64,U+1EE67-1EE6A,U+1EE6C-1EE72,U+1EE74-1EE77,U+1EE79-1EE7C,U+1EE7E,U+1EE80-1EE89,U+1EE8B-1EE9B,U+1EEA1-1EEA3,U+1EEA5-1EEA9,U+1EEAB-1EEBB,U+1EEF0-1EEF1",
  hebrew: "U+0307-0308,U+0590-05FF,U+200C-2010,U+20AA,U+25CC,U+FB1D-FB4F",
  devanagari: "U+0900-097F,U+1CD0-1CF9,U+200C-200D,U+20A8,U+20B9,U+20F0,U+25CC,U+A830-A839,U+A8E0-A8FF,U+11B00-11B09",
  thai: "U+02D7,U+0303,U+0331,U+0E01-0E5B,U+200C-200D,U+25CC",
} as const;
type Subset = keyof typeof RANGES;

function fontsource(family: string, pkg: string, subsets: Subset[], weights: number[], style: "normal" | "italic" = "normal"): FontFaceFile[] {
  const id = pkg.replace("@fontsource/", "");
  return weights.flatMap((weight) =>
    subsets.map((subset) => ({
      family,
      weight,
      style,
      source: { kind: "package" as const, pkg, file: `files/${id}-${subset}-${weight}-${style}.woff2` },
      unicodeRange: RANGES[subset],
      subset,
    })),
  );
}

const INTER_SUBSETS: Subset[] = ["latin", "latin-ext", "cyrillic", "cyrillic-ext", "greek", "vietnamese"];
const CJK = { debianPackage: "fonts-noto-cjk" };

/**
 * Every file the chain needs, one entry per file. Italic exists for Inter 400 only: other
 * italic weights, and italic in mono or the script fonts, are whatever the engine synthesizes.
 * Noto script fonts ship 400 and 700; a 600/800 request picks the nearest (700).
 */
export const FONT_FACES: readonly FontFaceFile[] = [
  ...fontsource(SANS_FAMILY, "@fontsource/inter", INTER_SUBSETS, [400, 600, 800]),
  ...fontsource(SANS_FAMILY, "@fontsource/inter", INTER_SUBSETS, [400], "italic"),
  ...fontsource(MONO_FAMILY, "@fontsource/jetbrains-mono", ["latin", "latin-ext", "cyrillic", "greek", "vietnamese"], [400, 700]),
  ...fontsource("Noto Sans Arabic", "@fontsource/noto-sans-arabic", ["arabic"], [400, 700]),
  ...fontsource("Noto Sans Hebrew", "@fontsource/noto-sans-hebrew", ["hebrew"], [400, 700]),
  ...fontsource("Noto Sans Devanagari", "@fontsource/noto-sans-devanagari", ["devanagari"], [400, 700]),
  ...fontsource("Noto Sans Thai", "@fontsource/noto-sans-thai", ["thai"], [400, 700]),
  // Han, kana and Hangul: ~20 MB a weight, so Debian's copy rather than an npm package
  // (the first face of each collection is "Noto Sans CJK JP").
  {
    family: "Noto Sans CJK JP",
    weight: 400,
    style: "normal",
    source: { kind: "system", path: "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc", ...CJK },
  },
  { family: "Noto Sans CJK JP", weight: 700, style: "normal", source: { kind: "system", path: "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc", ...CJK } },
  {
    family: "Noto Color Emoji",
    weight: 400,
    style: "normal",
    source: { kind: "system", path: "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf", debianPackage: "fonts-noto-color-emoji" },
  },
];
