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
import { stepIndex } from "../src/page/client/keys.ts";
import { bundleClient, clientScript } from "../src/page/view/client.ts";
import type { PageEpisode, PageTurn } from "../src/page/model.ts";
import type { BoardData, BoardEpisodeRow } from "../src/page/board/data.ts";
import { reprojectRgba } from "../src/page/client/reproject.ts";
import { episodesByTask, filterRows, taskRows } from "../src/page/client/tasks.ts";
import { indexMapExact } from "../replay/render/reproject.ts";

const turn = (reply: string | null, reasoning: string | null = null): PageTurn => ({ turn: 0, reply, reasoning }) as unknown as PageTurn;
const ep = (id: string, o: Partial<PageEpisode> = {}): PageEpisode =>
  ({ id, model: "m", country: null, verdict: null, flags: [], reward: null, distanceKm: null, turnsUsed: 0, turns: [], ...o }) as unknown as PageEpisode;

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
    // Type-only imports from the page model leave nothing behind; of the player, only its play-button hook and clock (its own bundle is separate).
    expect(Object.keys(a.inputs).every((p) => p.startsWith("src/page/client/") || p === "src/page/player/hook.ts" || p === "src/page/player/clock.ts")).toBe(
      true,
    );
    expect(a.script).not.toMatch(/url\(/); // the page test forbids url( outside data: in the file
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

describe("board client: reprojection and per-task rows", () => {
  it("reprojects with the environment's own projection: on the full panorama it samples exactly the verified view's pixels", () => {
    const sw = 512,
      sh = 256,
      W = 64,
      H = 64;
    const src = new Uint8ClampedArray(sw * sh * 4);
    for (let i = 0; i < sw * sh; i++) {
      src[i * 4] = (i * 7) & 255;
      src[i * 4 + 1] = (i >> 8) & 255;
      src[i * 4 + 2] = (i * 13 + 5) & 255;
      src[i * 4 + 3] = 255;
    }
    for (const v of [
      { heading: 264.44978, pitch: 0, fov: 90 },
      { heading: 45, pitch: 20, fov: 100 },
      { heading: -170.5, pitch: -35, fov: 30 },
    ]) {
      const out = new Uint8ClampedArray(W * H * 4);
      reprojectRgba(src, sw, sh, out, W, H, v);
      const map = indexMapExact({ headingDeg: v.heading, pitchDeg: v.pitch, fovDeg: v.fov, width: W, height: H }, sw, sh);
      for (let i = 0; i < W * H; i++) {
        expect([out[i * 4], out[i * 4 + 1], out[i * 4 + 2]]).toEqual([src[map[i] * 4], src[map[i] * 4 + 1], src[map[i] * 4 + 2]]);
      }
    }
  });

  const row = (id: string, arm: string, task: number, sample: number, verdict: string | null, country: string | null = null): BoardEpisodeRow => ({
    id,
    arm,
    task,
    sample,
    country,
    verdict,
    score: 0.5,
    env: 0.5,
    km: 1,
    turns: 3,
    flags: [],
    chunk: 0,
    at: 0,
  });
  const data = {
    baseline: "base",
    arms: ["a", "base"],
    tasks: [
      {
        index: 1,
        arms: [
          { arm: "a", attempts: 2, mean: 0.6, best: 0.7, delta: 0.1 },
          { arm: "base", attempts: 1, mean: 0.5, best: 0.5, delta: null },
        ],
      },
      {
        index: 2,
        arms: [
          { arm: "a", attempts: 1, mean: 0.2, best: 0.2, delta: -0.3 },
          { arm: "base", attempts: 1, mean: 0.5, best: 0.5, delta: null },
        ],
      },
      { index: 3, arms: [{ arm: "base", attempts: 1, mean: 0.4, best: 0.4, delta: null }] },
      {
        index: 4,
        arms: [
          { arm: "a", attempts: 1, mean: 0.9, best: 0.9, delta: 0.4 },
          { arm: "base", attempts: 1, mean: 0.5, best: 0.5, delta: null },
        ],
      },
    ],
    countries: { "1": "Chile", "2": "Peru", "3": "Chile", "4": null },
    episodes: [
      row("a1b", "a", 1, 1, "far"),
      row("a1a", "a", 1, 0, "close"),
      row("b1", "base", 1, 0, "far"),
      row("a2", "a", 2, 0, "far"),
      row("b2", "base", 2, 0, null),
      row("b3", "base", 3, 0, null),
      row("a4", "a", 4, 0, null),
      row("b4", "base", 4, 0, null),
    ],
    textCap: 240,
    pano: { width: 1024, height: 512 },
  } satisfies BoardData;
  const byTask = episodesByTask(data.episodes);
  const f = { country: "", verdict: "", order: "task" as const };

  it("lists each task with the report's means and delta, attempts in attempt order", () => {
    const rows = taskRows(data, byTask, "a", f);
    expect(rows.map((r) => [r.index, r.baseMean, r.mean, r.delta])).toEqual([
      [1, 0.5, 0.6, 0.1],
      [2, 0.5, 0.2, -0.3],
      [3, 0.4, null, null],
      [4, 0.5, 0.9, 0.4],
    ]);
    expect(rows[0].armEpisodes.map((e) => e.id)).toEqual(["a1a", "a1b"]);
    expect(rows[0].baseEpisodes.map((e) => e.id)).toEqual(["b1"]);
  });

  it("sorts by delta (most improved / most regressed, tasks without a delta last) and filters by country and verdict", () => {
    expect(taskRows(data, byTask, "a", { ...f, order: "improved" }).map((r) => r.index)).toEqual([4, 1, 2, 3]);
    expect(taskRows(data, byTask, "a", { ...f, order: "regressed" }).map((r) => r.index)).toEqual([2, 1, 4, 3]);
    expect(taskRows(data, byTask, "a", { ...f, country: "Chile" }).map((r) => r.index)).toEqual([1, 3]);
    expect(taskRows(data, byTask, "a", { ...f, country: "(unknown)" }).map((r) => r.index)).toEqual([4]);
    expect(taskRows(data, byTask, "a", { ...f, verdict: "far" }).map((r) => r.index)).toEqual([1, 2]);
  });

  it("filters and sorts the episode rows", () => {
    const base = { q: "", arm: "", country: "", verdict: "", status: "", minScore: null };
    expect(filterRows(data.episodes, { ...base, arm: "base" }, null).map((e) => e.id)).toEqual(["b1", "b2", "b3", "b4"]);
    expect(filterRows(data.episodes, { ...base, q: "a1" }, null).map((e) => e.id)).toEqual(["a1b", "a1a"]);
    expect(
      filterRows(data.episodes, base, { key: "id", dir: 1 })
        .map((e) => e.id)
        .slice(0, 3),
    ).toEqual(["a1a", "a1b", "a2"]);
  });
});

describe("keyboard steps (keys.ts, shared by the run and board pages)", () => {
  it("clamp at both ends and start at the first item from nowhere", () => {
    expect([stepIndex(-1, 1, 5), stepIndex(-1, -1, 5)]).toEqual([0, 0]);
    expect([stepIndex(2, 1, 5), stepIndex(2, -1, 5)]).toEqual([3, 1]);
    expect([stepIndex(4, 1, 5), stepIndex(0, -1, 5)]).toEqual([4, 0]);
  });
});
