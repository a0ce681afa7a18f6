/**
 * The folder form's search index (src/page/search-index.ts, written by
 * src/page/board/search-index.ts): for any texts and any query, the docs it
 * answers are exactly those whose text includes the query, as reading every
 * search text answers (search-code.ts, the search it replaces), whether the
 * positions stayed in memory or spilled to files on the way, whatever the
 * shard size; the same texts give the same files. The browser side runs in
 * Chromium in page-folder.test.ts.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import { SearchIndexWriter } from "../../envs/geoguesser/src/page/board/search-index.ts";
import { IndexSearcher, base64Bytes, readTable, type IndexTablePayload } from "../../src/page/search-index.ts";
import { codeTexts, textHits } from "../../src/page/search-code.ts";

const WORD = fc.constantFrom("the", "road", "roads", "a", "", "café", "東京", '"double"', "tab\tnewline\n", "«quoted»", "e", "ñandú", "x\\y");
const TEXT = fc.array(WORD, { maxLength: 30 }).map((ws) => ws.join(" "));

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** Indexes texts (doc i: task i % 3, place i) and returns a searcher over the written files, and the files. */
function indexOf(texts: readonly string[], spillBytes?: number, shardBytes?: number): { searcher: IndexSearcher; files: Map<string, string>; loads: string[] } {
  const dir = mkdtempSync(join(tmpdir(), "search-index-"));
  dirs.push(dir);
  const w = new SearchIndexWriter(join(dir, "spill"), spillBytes, shardBytes);
  texts.forEach((t, i) => w.add(i % 3, i, t));
  const files = new Map<string, string>();
  w.finish(
    (task) => task + 10,
    (kind, n, json) => files.set(`${kind}-${n}`, json),
  );
  const loads: string[] = [];
  const table = readTable(JSON.parse(files.get("sw-0")!) as IndexTablePayload);
  const searcher = new IndexSearcher(table, async (kind, n) => {
    loads.push(`${kind}-${n}`);
    return base64Bytes(JSON.parse(files.get(`${kind}-${n}`)!) as string);
  });
  return { searcher, files, loads };
}

/** A stretch of one of the texts (the usual query: a phrase someone read), or any string. */
const QUERY = fc.oneof(
  fc.tuple(fc.nat(), fc.nat(), fc.nat()).map(([i, a, b]) => ({ pick: [i, a, b] as const })),
  fc.string({ maxLength: 12 }).map((s) => ({ q: s })),
);
const queryOf = (texts: readonly string[], query: { q: string } | { pick: readonly [number, number, number] }): string => {
  if ("q" in query) return query.q;
  const t = texts[query.pick[0] % texts.length];
  const from = t.length ? query.pick[1] % t.length : 0;
  return t.slice(from, from + 1 + (query.pick[2] % 25));
};

describe("the search index", () => {
  it("answers exactly the docs whose text includes the query, as the coded texts do", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(TEXT, { minLength: 1, maxLength: 8 }), fc.array(QUERY, { minLength: 1, maxLength: 4 }), async (texts, queries) => {
        const { searcher } = indexOf(texts);
        const coded = codeTexts(texts)!;
        for (const query of queries) {
          const q = queryOf(texts, query);
          if (q === "") continue;
          const want = texts.flatMap((t, i) => (t.includes(q) ? [i] : []));
          expect(await searcher.docs(q)).toEqual(want);
          expect(textHits(coded, q).flatMap((h, i) => (h ? [i] : []))).toEqual(want);
        }
      }),
      { numRuns: 600 },
    );
  });

  it("answers the same when its positions spilled to files on the way (one byte held at most)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(TEXT, { minLength: 1, maxLength: 8 }), QUERY, async (texts, query) => {
        const q = queryOf(texts, query);
        if (q === "") return;
        const { searcher } = indexOf(texts, 1);
        expect(await searcher.docs(q)).toEqual(texts.flatMap((t, i) => (t.includes(q) ? [i] : [])));
      }),
      { numRuns: 300 },
    );
  });

  it("gives the same files for the same texts, spilled or not; maps each doc to its chunk and place", () => {
    const texts = ["the road the café", "road the 東京  end", "", " a b ", "tab\tnewline\n x"];
    const a = indexOf(texts);
    const b = indexOf(texts, 1);
    expect([...b.files]).toEqual([...a.files]);
    const table = readTable(JSON.parse(a.files.get("sw-0")!) as IndexTablePayload);
    expect([...table.chunk]).toEqual([10, 11, 12, 10, 11]);
    expect([...table.at]).toEqual([0, 1, 2, 3, 4]);
    expect(table.words).toContain("東京");
    expect(table.words).toContain("");
  });

  it("loads only the shards of the words a query needs, and keeps them for the next query", async () => {
    // Many distinct words, so the positions take many shards.
    const texts = Array.from({ length: 200 }, (_, d) => Array.from({ length: 400 }, (_, i) => `w${(d * 7919 + i * 104729) % 5000}`).join(" "));
    const { searcher, loads, files } = indexOf(texts, undefined, 1024);
    const shards = [...files.keys()].filter((k) => k.startsWith("sp-")).length;
    expect(shards).toBeGreaterThan(100);
    const phrase = texts[17].split(" ").slice(100, 104).join(" ");
    const want = texts.flatMap((t, i) => (t.includes(phrase) ? [i] : []));
    expect(await searcher.docs(phrase)).toEqual(want);
    const first = loads.length;
    // The shards of the phrase's words: its inner words' and the few words its end parts match.
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThan(shards / 10);
    expect(await searcher.docs(phrase)).toEqual(want);
    expect(loads.length).toBe(first);
  });
});
