/**
 * Line breaking, measured with real fonts in real Skia (no mocks): where each script may break,
 * that graphemes are never split, that every line fits, that truncation ends with an ellipsis,
 * that model text is shown as text, and that a 20,000-character reply wraps fast.
 * Grapheme boundaries are checked against Intl.Segmenter directly, not against our own code.
 */
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { nodeMeasure } from "../../src/film/shared/fonts.ts";
import { graphemes as ourGraphemes } from "../../video/text/breaks.ts";
import type { FontSpec } from "../../video/text/fonts.ts";
import { fitLine, printable, wrapText, type Measure } from "../../video/text/lines.ts";

const SANS: FontSpec = { role: "sans", size: 16, weight: 400 };
const MONO: FontSpec = { role: "mono", size: 13, weight: 400 };
let measure: Measure;
beforeAll(() => {
  measure = nodeMeasure();
});

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });
const graphemes = (s: string) => Array.from(segmenter.segment(s), (g) => g.segment);
const wrap = (text: string, maxWidth: number, font = SANS, opts = {}) => wrapText(text, font, maxWidth, measure, opts);

/** Every line fits, unless it is one grapheme that alone is wider than the line. */
function expectFits(lines: string[], maxWidth: number, font = SANS): void {
  for (const line of lines) {
    if (graphemes(line).length > 1) expect(measure(line, font), JSON.stringify(line)).toBeLessThanOrEqual(maxWidth);
  }
}

/**
 * The lines are the text in order, less only spaces at line ends and the "\n" between
 * paragraphs; every line boundary is a grapheme boundary of its paragraph.
 */
function expectFaithful(text: string, lines: string[]): void {
  const p = printable(text).replace(/[ \n]+$/, "");
  const starts = new Set<number>();
  let offset = 0;
  for (const para of p.split("\n")) {
    for (const g of segmenter.segment(para)) starts.add(offset + g.index);
    starts.add(offset + para.length);
    offset += para.length + 1;
  }
  let pos = 0;
  lines.forEach((line, i) => {
    if (i > 0) {
      // A break drops trailing spaces, and a paragraph's "\n"; a soft-wrapped line may itself
      // start with a space that carries a combining mark, so skip only until it matches.
      let q = pos;
      while (p[q] === " ") q++;
      if (p[q] === "\n") pos = q + 1;
      else if (line !== "") while (pos < q && !p.startsWith(line, pos)) pos++;
    }
    expect(p.startsWith(line, pos), `line ${JSON.stringify(line)} at ${pos} of ${JSON.stringify(p)}`).toBe(true);
    expect(starts.has(pos) && starts.has(pos + line.length), `cut inside a grapheme: ${JSON.stringify(line)}`).toBe(true);
    pos += line.length;
  });
  while (p[pos] === " ") pos++;
  expect(pos).toBe(p.length);
}

describe("breaks where each script allows", () => {
  it("English at spaces, trailing spaces dropped and not counted", () => {
    const text = "The quick brown fox jumps over the lazy dog and keeps on running far away.";
    const { lines, truncated } = wrap(text, 140);
    expect(truncated).toBe(false);
    expect(lines.length).toBeGreaterThan(3);
    expect(lines.join(" ")).toBe(text);
    for (const l of lines) expect(l).not.toMatch(/^ | $/);
    expectFits(lines, 140);
    // A line exactly as wide as a word plus spaces still holds that word: spaces do not count.
    const w = measure("jumps", SANS);
    expect(wrap("jumps     over", w).lines).toEqual(["jumps", "over"]);
  });

  it("Chinese between characters, never before 。 ， 、 or after 「", () => {
    const text = "我认为这是北京的天安门广场附近，路牌是简体字。我们明天去那里、好吗？「故宫」就在旁边。";
    for (const width of [60, 75, 100, 130]) {
      const { lines } = wrap(text, width);
      expect(lines.join("")).toBe(text);
      expect(lines.length).toBeGreaterThan(1);
      for (const l of lines) {
        expect(l).not.toMatch(/^[。，、？」]/);
        expect(l).not.toMatch(/「$/);
      }
      expectFits(lines, width);
    }
  });

  it("Japanese between characters, never before 。 、 ー or small kana", () => {
    const text = "東京の渋谷駅の近くだと思います、たぶん。コンビニのチェーン店がしょっちゅう見えます。ラーメン屋もあります。";
    for (const width of [50, 70, 90, 110, 150]) {
      const { lines } = wrap(text, width);
      expect(lines.join("")).toBe(text);
      for (const l of lines) expect(l).not.toMatch(/^[。、ーょっゅャュョッ]/);
      expectFits(lines, width);
    }
  });

  it("Korean at spaces only, whole words", () => {
    const text = "서울 명동 거리처럼 보입니다 간판이 모두 한글이고 도로 표지판도 한국식입니다";
    const words = text.split(" ");
    const widest = Math.max(...words.map((w) => measure(w, SANS)));
    for (const width of [widest + 1, widest * 1.5, 200]) {
      const { lines } = wrap(text, width);
      expect(lines.join(" ")).toBe(text);
      for (const l of lines) for (const w of l.split(" ")) expect(words).toContain(w);
      expectFits(lines, width);
    }
  });

  it("Thai at dictionary word boundaries, never inside a syllable", () => {
    const text = "ป้ายภาษาไทยแสดงว่าอยู่ในกรุงเทพมหานครใกล้สถานีรถไฟฟ้า";
    const words = new Intl.Segmenter("th", { granularity: "word" });
    const wordStarts = new Set(Array.from(words.segment(text), (s) => s.index));
    const widest = Math.max(...Array.from(words.segment(text), (s) => measure(s.segment, SANS)));
    for (const width of [widest + 1, widest * 1.5, 120]) {
      const { lines } = wrap(text, width);
      expect(lines.join("")).toBe(text);
      expect(lines.length).toBeGreaterThan(1);
      let at = 0;
      for (const l of lines) {
        expect(wordStarts.has(at), `break inside a word before ${l}`).toBe(true);
        expect(l).not.toMatch(/^\p{M}/u);
        at += l.length;
      }
      expectFits(lines, width);
    }
  });

  it("Devanagari at spaces; a word wider than the line splits between whole conjuncts", () => {
    const text = "यह नई दिल्ली का क्षेत्र लगता है। चिह्न दिखता है।";
    const { lines } = wrap(text, 90);
    expect(lines.join(" ")).toBe(text);
    expectFits(lines, 90);
    const narrow = wrap("क्षत्रियक्षत्रिय", 20).lines;
    expect(narrow.join("")).toBe("क्षत्रियक्षत्रिय");
    for (const l of narrow) expect(l).not.toMatch(/्$/); // never ends on a virama: the conjunct stays whole
    expectFaithful("क्षत्रियक्षत्रिय", narrow);
  });

  it("Arabic and Hebrew at spaces, lines in logical order", () => {
    for (const text of ["اللافتات باللغة العربية، ربما في القاهرة قرب ميدان التحرير 2024.", "השלטים בעברית, כנראה תל אביב ליד התחנה המרכזית."]) {
      const { lines } = wrap(text, 110);
      expect(lines.length).toBeGreaterThan(1);
      expect(lines.join(" ")).toBe(text);
      expect(text.startsWith(lines[0])).toBe(true);
      expectFits(lines, 110);
    }
  });

  it("emoji ZWJ sequences, flags, skin tones and combining marks are never split", () => {
    const text = "👨‍👩‍👧‍👦🇯🇵👍🏽🏳️‍🌈🇫🇷👩🏿‍💻e\u0301e\u0301e\u0301a\u0308\u0323👨‍👩‍👧‍👦🇯🇵👍🏽";
    for (const width of [1, 30, 45, 70, 100]) {
      const { lines } = wrap(text, width);
      expect(lines.flatMap(graphemes)).toEqual(graphemes(text));
      expectFaithful(text, lines);
      expectFits(lines, width);
    }
  });

  it("hard breaks at \\n (CRLF, CR, U+2028 too); blank lines kept, trailing ones dropped", () => {
    expect(wrap("one\ntwo\r\nthree\rfour\u2028five", 500).lines).toEqual(["one", "two", "three", "four", "five"]);
    expect(wrap("a\n\nb\n\n\n", 500).lines).toEqual(["a", "", "b"]);
    expect(wrap("", 500)).toEqual({ lines: [], truncated: false });
  });

  it("a run wider than the line breaks between graphemes and the rest continues on the line", () => {
    const url = "https://example.com/a/very/long/path/that/cannot/fit/on/one/line/at/all?query=1";
    const { lines } = wrap(`see ${url} now`, 150);
    expect(lines.length).toBeGreaterThan(2);
    expect(lines[0].startsWith("see https://")).toBe(true); // the run starts on the line, not below it
    expectFaithful(`see ${url} now`, lines);
    expectFits(lines, 150);
  });
});

describe("maxLines", () => {
  it("cuts the last kept line at a grapheme boundary, ends it with the ellipsis, and says so", () => {
    const text = "The quick brown fox jumps over the lazy dog. ".repeat(10);
    const { lines, truncated } = wrap(text, 200, SANS, { maxLines: 3 });
    expect(truncated).toBe(true);
    expect(lines).toHaveLength(3);
    expect(lines[2].endsWith("…")).toBe(true);
    expectFits(lines, 200);
    const custom = wrap(text, 200, SANS, { maxLines: 2, ellipsis: " [more]" });
    expect(custom.lines[1].endsWith(" [more]")).toBe(true);
    expectFits(custom.lines, 200);
  });

  it("is not truncated when the text fits exactly, or only blank lines follow", () => {
    expect(wrap("one\ntwo", 500, SANS, { maxLines: 2 })).toEqual({ lines: ["one", "two"], truncated: false });
    expect(wrap("one\ntwo\n\n", 500, SANS, { maxLines: 2 })).toEqual({ lines: ["one", "two"], truncated: false });
    expect(wrap("one\ntwo\nthree", 500, SANS, { maxLines: 2 }).truncated).toBe(true);
    expect(() => wrap("x", 100, SANS, { maxLines: 0 })).toThrow(RangeError);
  });

  it("never splits an emoji when cutting for the ellipsis", () => {
    const text = "👨‍👩‍👧‍👦".repeat(40);
    for (const width of [50, 77, 120]) {
      const { lines } = wrap(text, width, SANS, { maxLines: 2 });
      const last = lines[1].slice(0, -1);
      expect(graphemes(last).every((g) => g === "👨‍👩‍👧‍👦")).toBe(true);
      expectFits(lines, width);
    }
  });
});

describe("fitLine", () => {
  it("keeps a line that fits, shows newlines as spaces, and cuts with the ellipsis at a grapheme boundary", () => {
    expect(fitLine("Tokyo, Japan", SANS, 300, measure)).toBe("Tokyo, Japan");
    expect(fitLine("two\nlines", SANS, 300, measure)).toBe("two lines");
    const cut = fitLine("Shibuya Crossing, Tokyo, Japan, near the station", SANS, 120, measure);
    expect(cut.endsWith("…")).toBe(true);
    expect(measure(cut, SANS)).toBeLessThanOrEqual(120);
    const emoji = fitLine("🇯🇵🇯🇵🇯🇵🇯🇵🇯🇵🇯🇵🇯🇵🇯🇵🇯🇵", SANS, 70, measure, "…");
    expect(graphemes(emoji.slice(0, -1)).every((g) => g === "🇯🇵")).toBe(true);
    expect(fitLine("x".repeat(50_000), MONO, 200, measure).length).toBeLessThan(100);
  });
});

describe("model text is shown as text", () => {
  it("printable: controls and DEL become escapes, tabs become spaces to the next stop of 4, lone surrogates and bidi overrides are visible", () => {
    expect(printable("a\tb\tc")).toBe("a   b   c");
    expect(printable("\tx\n12345\ty")).toBe("    x\n12345   y");
    expect(printable("\x1b[31mred\x1b[0m\x00\x07\x7f\x85\x9b")).toBe("\\x1b[31mred\\x1b[0m\\x00\\x07\\x7f\\x85\\x9b");
    expect(printable("a\ud800b\udc00c😀")).toBe("a\\ud800b\\udc00c😀");
    expect(printable("abc\u202eevil\u2066x\u2069")).toBe("abc\\u202eevil\\u2066x\\u2069");
    expect(printable("<script>alert(1)</script> &amp; &lt;b&gt;")).toBe("<script>alert(1)</script> &amp; &lt;b&gt;");
    expect(printable("ZWJ 👨‍👩‍👧 and RLM \u200f stay")).toBe("ZWJ 👨‍👩‍👧 and RLM \u200f stay");
    const messy = "x\r\ny\tz\x1b\ud83d";
    expect(printable(printable(messy))).toBe(printable(messy));
  });

  it("a reply with control characters and HTML wraps into lines of visible text", () => {
    const reply = '<script>alert("x")</script>\r\n&amp; &nbsp; \x1b[1mbold\x1b[0m\x00\x08 done\tend\r';
    const { lines } = wrap(reply, 400, MONO);
    expect(lines[0]).toBe('<script>alert("x")</script>');
    expect(lines[1]).toMatch(/^&amp; &nbsp; \\x1b\[1mbold\\x1b\[0m\\x00\\x08 done +end$/);
    expect(lines).toHaveLength(2);
    // eslint-disable-next-line no-control-regex
    for (const l of lines) expect(l).not.toMatch(/[\x00-\x1f\x7f-\x9f]/);
  });
});

describe("a 20,000-character reply", () => {
  const words = "the signs are in Japanese and the cars drive on the left so this is probably Tokyo near Shibuya station".split(" ");
  const prose = Array.from({ length: 4000 }, (_, i) => words[(i * 7) % words.length] + (i % 13 === 0 ? "." : ""))
    .join(" ")
    .slice(0, 20_000);
  const token = Array.from({ length: 20_000 }, (_, i) => "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"[(i * 37 + (i >> 3)) % 64]).join("");

  for (const [name, text] of [
    ["prose", prose],
    ["one long token", token],
  ] as const) {
    it(`${name}: every line within maxWidth, and within maxLines with an ellipsis`, () => {
      const all = wrap(text, 860);
      expect(all.lines.length).toBeGreaterThan(100);
      expectFits(all.lines, 860);
      expectFaithful(text, all.lines);
      const cut = wrap(text, 860, SANS, { maxLines: 8 });
      expect(cut.truncated).toBe(true);
      expect(cut.lines).toHaveLength(8);
      expect(cut.lines[7].endsWith("…")).toBe(true);
      expectFits(cut.lines, 860);
    });

    it(`${name}: wrapping measures linear work, not quadratic (characters measured, fresh cache)`, () => {
      // Work, not time: a timed assertion is a benchmark's job. Measuring each candidate line
      // from its start would measure ~100x the text here; segment widths are measured once.
      const fresh = nodeMeasure();
      let measured = 0;
      const counting: Measure = (s, f) => ((measured += s.length), fresh(s, f));
      const t0 = performance.now();
      wrapText(text, SANS, 860, counting);
      console.log(`wrapText, 20,000 characters of ${name}: ${(performance.now() - t0).toFixed(1)} ms, ${measured} characters measured`);
      expect(measured).toBeLessThanOrEqual(4 * text.length);
    });
  }
});

describe("property: any mix of scripts", () => {
  const tokens = [
    "hello", "world", " ", "  ", "\n", "\t", "-", "/", "北", "京", "。", "、", "「", "한국어", "ภาษา", "ไทย", "क्ष", "त्रि",
    "مرحبا", "שלום", "Ωμέγα", "Привет", "👨‍👩‍👧‍👦", "🇯🇵", "👍🏽", "e\u0301", "\u0301", "x".repeat(30), "\x1b", "\ud800", "\r\n",
  ]; // prettier-ignore
  const text = fc.oneof(
    fc.array(fc.constantFrom(...tokens), { maxLength: 40 }).map((t) => t.join("")),
    fc.string({ unit: "grapheme", maxLength: 60 }),
  );
  it("lines give back the text up to spaces at breaks, fit unless one grapheme, and never cut a grapheme", () => {
    fc.assert(
      fc.property(text, fc.integer({ min: 1, max: 400 }), fc.option(fc.integer({ min: 1, max: 6 }), { nil: undefined }), (t, width, maxLines) => {
        const all = wrap(t, width);
        expectFaithful(t, all.lines);
        expectFits(all.lines, width);
        if (maxLines !== undefined) {
          const cut = wrap(t, width, SANS, { maxLines });
          expect(cut.lines.length).toBeLessThanOrEqual(maxLines);
          expect(cut.truncated).toBe(all.lines.length > maxLines);
          if (cut.truncated) expect(cut.lines[maxLines - 1].endsWith("…")).toBe(true);
          else expect(cut.lines).toEqual(all.lines);
          expectFits(cut.lines, width);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe("property: grapheme boundaries", () => {
  it("the fast path (no segmenter between two code units that never join) agrees with Intl.Segmenter", () => {
    const pieces = [
      "a",
      " ",
      "北",
      "한",
      "\u1100",
      "\u1161",
      "\u11a8",
      "ภ",
      "\u0e33",
      "\u0e34",
      "क",
      "\u094d",
      "ष",
      "\u0d4e",
      "\u0600",
      "م",
      "\u064e",
      "e",
      "\u0301",
      "\u200d",
      "\ufe0f",
      "❤",
      "👩",
      "🏽",
      "🇯",
      "🇵",
      "\u{e0067}",
      "\ud800",
      "\r",
      "\n",
      "ｶ",
      "\uff9e",
    ];
    const text = fc.oneof(
      fc.array(fc.constantFrom(...pieces), { maxLength: 60 }).map((t) => t.join("")),
      fc.string({ unit: "binary", maxLength: 80 }),
      fc.string({ unit: "grapheme-composite", maxLength: 40 }),
    );
    fc.assert(
      fc.property(text, (t) => {
        expect(ourGraphemes(t)).toEqual(graphemes(t));
      }),
      { numRuns: 2000 },
    );
    const long = "क्षत्रिय 👩🏽‍💻 ภาษาไทย e\u0301 ".repeat(400);
    expect(ourGraphemes(long)).toEqual(graphemes(long));
  });
});
