/**
 * The page client's pure parts in Node (filtering, sorting, deep links), and
 * its bundling: the bundle `npm run build` records is the one bundling the
 * sources afresh gives, and it cannot end its own script element.
 */
import { describe, expect, it } from "vitest";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./helpers.ts";
import { filterAndSort, matchesFilters, nextSortDir, searchText, selectValues, NO_FILTERS, UNKNOWN, compareBy } from "../src/page/client/list.ts";
import { compareHash, episodeHash, parseHash } from "../src/page/client/route.ts";
import { bundleClient, clientScript } from "../src/page/view/client.ts";
import type { PageEpisode, PageTurn } from "../src/page/model.ts";

const turn = (reply: string | null, reasoning: string | null = null): PageTurn =>
  ({ turn: 0, reply, reasoning } as unknown as PageTurn);
const ep = (id: string, o: Partial<PageEpisode> = {}): PageEpisode =>
  ({ id, model: "m", country: null, verdict: null, flags: [], reward: null, distanceKm: null, turnsUsed: 0, turns: [], ...o } as unknown as PageEpisode);

describe("episode list: filter and sort", () => {
  const eps = [
    ep("a", { model: "m1", country: "Chile", verdict: "close", reward: 0.5, distanceKm: 20, flags: ["clean"], turns: [turn("Santiago?")] }),
    ep("b", { model: "m2", country: null, reward: null, flags: ["mismatch", "view-error"], turns: [turn(null, "東京 maybe")] }),
    ep("c", { model: "m1", country: "Peru", verdict: "far", reward: 0.9, distanceKm: 5, flags: ["clean"] }),
    ep("d", { model: "m2", country: "Chile", reward: 0.5, distanceKm: null }),
  ];
  const hay = (e: PageEpisode) => searchText(e);
  const ids = (xs: PageEpisode[]) => xs.map((e) => e.id);

  it("keeps input order without filters, and each filter narrows by its field", () => {
    expect(ids(filterAndSort(eps, NO_FILTERS, null, hay))).toEqual(["a", "b", "c", "d"]);
    expect(ids(filterAndSort(eps, { ...NO_FILTERS, country: "Chile" }, null, hay))).toEqual(["a", "d"]);
    expect(ids(filterAndSort(eps, { ...NO_FILTERS, country: UNKNOWN }, null, hay))).toEqual(["b"]);
    expect(ids(filterAndSort(eps, { ...NO_FILTERS, status: "mismatch" }, null, hay))).toEqual(["b"]);
    expect(ids(filterAndSort(eps, { ...NO_FILTERS, model: "m1", minReward: 0.6 }, null, hay))).toEqual(["c"]);
    // No reward never passes a minimum; NaN (a half-typed number) filters nothing.
    expect(ids(filterAndSort(eps, { ...NO_FILTERS, minReward: 0 }, null, hay))).toEqual(["a", "c", "d"]);
    expect(ids(filterAndSort(eps, { ...NO_FILTERS, minReward: NaN }, null, hay))).toEqual(["a", "b", "c", "d"]);
    // Search looks at replies and reasoning, lower-cased by the caller.
    expect(ids(filterAndSort(eps, { ...NO_FILTERS, q: "santiago" }, null, hay))).toEqual(["a"]);
    expect(ids(filterAndSort(eps, { ...NO_FILTERS, q: "東京" }, null, hay))).toEqual(["b"]);
    expect(matchesFilters(eps[0], { ...NO_FILTERS, verdict: "far" }, hay)).toBe(false);
  });

  it("sorts stably with missing values last in both directions", () => {
    expect(ids(filterAndSort(eps, NO_FILTERS, { key: "reward", dir: -1 }, hay))).toEqual(["c", "a", "d", "b"]);
    expect(ids(filterAndSort(eps, NO_FILTERS, { key: "reward", dir: 1 }, hay))).toEqual(["a", "d", "c", "b"]);
    expect(ids(filterAndSort(eps, NO_FILTERS, { key: "distanceKm", dir: 1 }, hay))).toEqual(["c", "a", "b", "d"]);
    expect(ids(filterAndSort(eps, NO_FILTERS, { key: "country", dir: 1 }, hay))).toEqual(["a", "d", "c", "b"]);
    expect([{ x: 2 }, { x: null }, { x: 1 }].sort(compareBy<{ x: number | null }>("x", -1))).toEqual([{ x: 2 }, { x: 1 }, { x: null }]);
  });

  it("starts reward descending, other columns ascending, and flips on a second click", () => {
    expect(nextSortDir(null, 1, "reward")).toBe(-1);
    expect(nextSortDir(null, 1, "id")).toBe(1);
    expect(nextSortDir("reward", -1, "reward")).toBe(1);
    expect(nextSortDir("reward", -1, "country")).toBe(1);
  });

  it("lists select values once, sorted, missing ones as (unknown)", () => {
    expect(selectValues(["b", null, "a", "b"])).toEqual(["(unknown)", "a", "b"]);
  });
});

describe("deep links", () => {
  it("parses episode and turn links", () => {
    expect(parseHash("#0ec192c0f90d/6")).toEqual({ kind: "episode", id: "0ec192c0f90d", turn: 6 });
    expect(parseHash("#0ec192c0f90d")).toEqual({ kind: "episode", id: "0ec192c0f90d", turn: null });
    expect(parseHash("#step-0-3")).toEqual({ kind: "episode", id: "step-0-3", turn: null });
    expect(parseHash("")).toBeNull();
    expect(parseHash("#a/b/c")).toBeNull();
    expect(parseHash("#%E0%A4%A")).toBeNull(); // a malformed escape opens nothing
  });

  it("round-trips any id, turn and arm names", () => {
    for (const id of ["rollouts-rank1-L2", "a b/c#d", "東京", "%41"]) {
      expect(parseHash(episodeHash(id, 3))).toEqual({ kind: "episode", id, turn: 3 });
      expect(parseHash(episodeHash(id, null))).toEqual({ kind: "episode", id, turn: null });
    }
    expect(parseHash(compareHash(17, "sonnet-5", "ckpt/200 β"))).toEqual({ kind: "compare", task: 17, a: "sonnet-5", b: "ckpt/200 β" });
    expect(compareHash(3, "a", "b")).toBe("#compare/3/a/b");
    expect(parseHash("#compare/x/a/b")).toBeNull();
  });
});

describe("client bundle", () => {
  it("bundles the client modules into one script that cannot end its element, the same bytes every time", () => {
    const a = bundleClient(ROOT);
    const b = bundleClient(ROOT);
    expect(a.script).toBe(b.script);
    expect(a.script).not.toMatch(/<\/script|<!--/i);
    expect(Object.keys(a.inputs)).toContain("src/page/client/main.ts");
    // Type-only imports from the page model leave nothing behind.
    expect(Object.keys(a.inputs).every((p) => p.startsWith("src/page/client/"))).toBe(true);
    expect(clientScript()).toBe(a.script);
  });

  it("the bundle `npm run build` records is the fresh one", () => {
    const file = join(ROOT, "dist", "src", "page", "client.bundle.json");
    expect(existsSync(file), "run npm run build").toBe(true);
    const rec = JSON.parse(readFileSync(file, "utf8"));
    const fresh = bundleClient(ROOT);
    expect(rec.inputs).toEqual(fresh.inputs);
    expect(rec.script).toBe(fresh.script);
  });
});
