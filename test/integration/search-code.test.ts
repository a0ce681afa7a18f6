/**
 * The folder form's coded search texts (src/page/search-code.ts): a query
 * matched on the codes finds exactly the texts whose plain form includes it
 * (within a word, across word ends, runs of spaces, any script), the coding
 * is deterministic, and a file with more distinct words than codes keeps
 * its plain texts. The browser side runs in Chromium in page-folder.test.ts.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { codeTexts, codedMatcher, decodeTexts, textHits } from "../../src/page/search-code.ts";

/** Words from a small vocabulary, so queries often hit: ASCII, accents, CJK, quotes, tabs and newlines. */
const WORD = fc.constantFrom("the", "road", "roads", "a", "", "café", "東京", '"double"', "tab\tnewline\n", "«quoted»", "e", "ñandú", "x\\y");
const TEXT = fc.array(WORD, { maxLength: 30 }).map((ws) => ws.join(" "));

describe("coded search texts", () => {
  it("match exactly the texts whose plain form includes the query", () => {
    fc.assert(
      fc.property(
        fc.array(TEXT, { minLength: 1, maxLength: 6 }),
        fc.oneof(
          // A stretch of one of the texts (the usual query: a phrase someone read), or any string.
          fc.tuple(fc.nat(), fc.nat(), fc.nat()).map(([i, a, b]) => ({ pick: [i, a, b] as const })),
          fc.string({ maxLength: 12 }).map((s) => ({ q: s })),
        ),
        (texts, query) => {
          let q: string;
          if ("q" in query) q = query.q;
          else {
            const t = texts[query.pick[0] % texts.length];
            const from = t.length ? query.pick[1] % t.length : 0;
            q = t.slice(from, from + 1 + (query.pick[2] % 25));
          }
          const coded = codeTexts(texts)!;
          expect(decodeTexts(coded)).toEqual(texts);
          expect(textHits(coded, q)).toEqual(texts.map((t) => t.includes(q)));
          expect(textHits(texts, q)).toEqual(texts.map((t) => t.includes(q)));
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("code each word as one character, most frequent first, the same texts giving the same bytes", () => {
    const texts = ["the road the café", "road the 東京  end"];
    const coded = codeTexts(texts)!;
    expect(coded.words).toEqual(["the", "road", "café", "東京", "", "end"]);
    expect(coded.texts.map((t) => t.length)).toEqual([4, 5]);
    expect(JSON.stringify(codeTexts(texts))).toBe(JSON.stringify(coded));
    // The frequent words are printable ASCII (one byte in the file), never a quote or a backslash.
    expect(coded.texts[0]).toBe(" ! #");
    for (const t of coded.texts) expect(t).not.toMatch(/["\\]/);
  });

  it("say when a word the query needs is in none of a file's texts", () => {
    const coded = codeTexts(["the road", "a café"])!;
    expect(codedMatcher(coded.words, "the car")).toBeNull();
    expect(codedMatcher(coded.words, "zebra")).toBeNull();
    expect(codedMatcher(coded.words, "he ro")).not.toBeNull();
  });

  it("keep a file's plain texts when it has more distinct words than codes", () => {
    const many = Array.from({ length: 64_000 }, (_, i) => `w${i}`).join(" ");
    expect(codeTexts([many])).toBeNull();
    const fits = Array.from({ length: 60_000 }, (_, i) => `w${i}`).join(" ");
    const coded = codeTexts([fits])!;
    expect(textHits(coded, "w59998 w59999")).toEqual([true]);
    expect(textHits(coded, "9 w1")).toEqual([true]);
    expect(textHits(coded, "w59999 w0")).toEqual([false]);
  });
});
