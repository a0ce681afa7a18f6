/**
 * The page client's pure parts in Node (filtering, sorting, deep links), and
 * its bundling: the bundle `npm run build` records is the one bundling the
 * sources afresh gives, and it cannot end its own script element.
 */
import { describe, expect, it } from "vitest";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../helpers.ts";
import {
  filterAndSort,
  matchesFilters,
  nextSortDir,
  detailText,
  rowText,
  selectValues,
  toCsv,
  parseSort,
  formatSort,
  NO_FILTERS,
  UNKNOWN,
  compareBy,
  type ListRow,
} from "../../envs/geoguesser/src/page/client/state/rows.ts";
import { compareHash, episodeHash, parseHash, parseAddress, formatAddress } from "../../envs/geoguesser/src/page/client/state/route.ts";
import { compileExpr, ExprError } from "../../envs/geoguesser/src/page/client/state/expr.ts";
import { pairAttempts } from "../../envs/geoguesser/src/page/client/app/compare/pair.ts";
import { stepIndex } from "../../envs/geoguesser/src/page/client/keys.ts";
import { CLIENT_BUNDLE, clientScript } from "../../envs/geoguesser/src/page/view/client.ts";
import { bundleScript } from "../../src/page/script-bundle.ts";
import type { PageEpisode, PageTurn } from "../../envs/geoguesser/src/page/model.ts";
import type { BoardData, BoardEpisodeRow } from "../../envs/geoguesser/src/page/board/data.ts";
import { reprojectRgba } from "../../src/page/reproject.ts";
import { sortedOrder, parseTableSort } from "../../envs/geoguesser/src/page/client/app/report/sort.ts";
import {
  episodesByTask,
  formatTaskOrder,
  nextTaskOrder,
  parseTaskOrder,
  taskRows,
  type TaskFilters,
} from "../../envs/geoguesser/src/page/client/app/tasks/rows.ts";
import { indexMapExact } from "../../envs/geoguesser/replay/render/reproject.ts";

const turn = (reply: string | null, reasoning: string | null = null, extra: Partial<PageTurn> = {}): PageTurn =>
  ({ turn: 0, reply, reasoning, prompt: null, feedback: null, call: null, errors: [], ...extra }) as unknown as PageTurn;
const row = (id: string, o: Partial<ListRow> = {}): ListRow => ({
  id,
  arm: "m",
  split: "eval",
  task: 0,
  taskId: null,
  sample: 0,
  country: null,
  verdict: null,
  score: 0,
  env: 0,
  km: null,
  turns: 0,
  flags: [],
  tokensIn: null,
  tokensOut: null,
  cost: null,
  latency: null,
  temperature: null,
  maxTokens: null,
  source: "episodes.jsonl:1",
  ...o,
});

describe("episode list: search, filter and sort (state/rows.ts, both pages)", () => {
  const rows = [
    row("a", { arm: "m1", task: 3, taskId: "fixture-03", country: "Chile", verdict: "close", score: 0.5, km: 20, flags: ["clean"] }),
    row("b", { arm: "m2", task: 134, country: null, score: 0.1, env: null, flags: ["mismatch", "view-error"] }),
    row("c", { arm: "m1", task: 3, country: "Peru", verdict: "far", score: 0.9, km: 5, flags: ["clean"] }),
    row("d", { arm: "m2", task: 9, country: "Chile", score: 0.5, km: null }),
  ];
  const details: Record<string, PageEpisode> = {
    a: { turns: [turn("Santiago?", null, { prompt: "You are facing 0 degrees with a 30 degree Field of View." })], errors: [] } as unknown as PageEpisode,
    b: {
      turns: [turn(null, "東京 maybe", { feedback: "Cannot go forward - the captured road ends here.", call: 'move(direction="forward")' })],
      errors: [],
    } as unknown as PageEpisode,
  };
  const text = (r: ListRow) => rowText(r) + "\n" + (details[r.id] ? detailText(details[r.id]) : "");
  const ids = (xs: ListRow[]) => xs.map((e) => e.id);
  const q = (s: string) => ids(filterAndSort(rows, { ...NO_FILTERS, q: s }, null, text, null));

  it("keeps input order without filters, and each filter narrows by its field", () => {
    expect(ids(filterAndSort(rows, NO_FILTERS, null, text, null))).toEqual(["a", "b", "c", "d"]);
    expect(ids(filterAndSort(rows, { ...NO_FILTERS, country: "Chile" }, null, text, null))).toEqual(["a", "d"]);
    expect(ids(filterAndSort(rows, { ...NO_FILTERS, country: UNKNOWN }, null, text, null))).toEqual(["b"]);
    expect(ids(filterAndSort(rows, { ...NO_FILTERS, status: "mismatch" }, null, text, null))).toEqual(["b"]);
    expect(ids(filterAndSort(rows, { ...NO_FILTERS, task: "3" }, null, text, null))).toEqual(["a", "c"]);
    expect(ids(filterAndSort(rows, { ...NO_FILTERS, arm: "m1", minScore: 0.6 }, null, text, null))).toEqual(["c"]);
    expect(ids(filterAndSort(rows, { ...NO_FILTERS, minScore: NaN }, null, text, null))).toEqual(["a", "b", "c", "d"]);
    expect(matchesFilters(rows[0], { ...NO_FILTERS, verdict: "far" }, text, null)).toBe(false);
  });

  it("searches ids, task, country, arm, replies, reasoning, prompts, feedback and actions, case-insensitively", () => {
    expect(q("santiago")).toEqual(["a"]);
    expect(q("東京")).toEqual(["b"]);
    expect(q("field of view")).toEqual(["a"]);
    expect(q("captured road")).toEqual(["b"]);
    expect(q('direction="forward"')).toEqual(["b"]);
    expect(q("PERU")).toEqual(["c"]);
    expect(q("eval/134")).toEqual(["b"]);
    expect(q("task 3")).toEqual(["a", "c"]);
    expect(q("fixture-03")).toEqual(["a"]);
    expect(q("m2")).toEqual(["b", "d"]);
  });

  it("sorts stably with missing values last in both directions; the address form round-trips", () => {
    expect(ids(filterAndSort(rows, NO_FILTERS, { key: "score", dir: -1 }, text, null))).toEqual(["c", "a", "d", "b"]);
    expect(ids(filterAndSort(rows, NO_FILTERS, { key: "env", dir: -1 }, text, null))).toEqual(["a", "c", "d", "b"]);
    expect(ids(filterAndSort(rows, NO_FILTERS, { key: "km", dir: 1 }, text, null))).toEqual(["c", "a", "b", "d"]);
    expect(ids(filterAndSort(rows, NO_FILTERS, { key: "country", dir: 1 }, text, null))).toEqual(["a", "d", "c", "b"]);
    expect([{ x: 2 }, { x: null }, { x: 1 }].sort(compareBy<{ x: number | null }>("x", -1))).toEqual([{ x: 2 }, { x: 1 }, { x: null }]);
    expect(parseSort(formatSort({ key: "km", dir: -1 }))).toEqual({ key: "km", dir: -1 });
    expect(parseSort("bogus:1")).toBeNull();
  });

  it("starts rewards descending, other columns ascending, and flips on a second click", () => {
    expect(nextSortDir(null, 1, "score")).toBe(-1);
    expect(nextSortDir(null, 1, "id")).toBe(1);
    expect(nextSortDir("score", -1, "score")).toBe(1);
    expect(nextSortDir("score", -1, "country")).toBe(1);
  });

  it("lists select values once, sorted, missing ones as (unknown)", () => {
    expect(selectValues(["b", null, "a", "b"])).toEqual(["(unknown)", "a", "b"]);
  });

  it("filter expressions: fields, operators, and/or/not, parentheses; errors name the position", () => {
    const f = (e: string) => ids(filterAndSort(rows, NO_FILTERS, null, text, compileExpr(e)));
    expect(f('km > 10 and model == "m1"')).toEqual(["a"]);
    expect(f("km >= 5 or country == Chile")).toEqual(["a", "c", "d"]);
    expect(f("not (task == 3)")).toEqual(["b", "d"]);
    expect(f("env == null")).toEqual(["b"]);
    expect(f("counted == false")).toEqual(["b"]);
    expect(f('flags == "mismatch"')).toEqual(["b"]);
    expect(f("country ~ hil")).toEqual(["a", "d"]);
    expect(f("")).toEqual(["a", "b", "c", "d"]);
    const err = (e: string) => {
      try {
        compileExpr(e);
      } catch (x) {
        return x instanceof ExprError ? [x.message, x.at] : String(x);
      }
      return null;
    };
    expect(err("km >> 3")).toEqual(['expected a value (a number, "text", true, false or null), got ">"', 4]);
    expect(err("kms > 3")![0]).toMatch(/^unknown field "kms": the fields are id, model/);
    expect(err("km > fast")).toEqual(['km is a number: expected a number or null, got "fast"', 5]);
    expect(err('country > "A"')![0]).toMatch(/country is text: use ==, != or ~/);
    expect(err("(km > 3")).toEqual(["expected ) at the end", 7]);
    expect(err('model == "base')).toEqual(['unclosed quote: expected a closing "', 9]);
  });

  it("writes the filtered rows as CSV (RFC 4180 quoting; no formula can run)", () => {
    const csv = toCsv([row("x", { verdict: 'said "hi", left', country: "=HYPERLINK(1)", flags: ["a", "b"] })]).split("\r\n");
    expect(csv[0]).toBe(
      "episode_id,arm,split,task,attempt,country,verdict,reward,env_reward,km,turns,flags,tokens_in,tokens_out,tokens,cost,latency_s,temperature,max_tokens,source",
    );
    expect(csv[1]).toBe(`x,m,eval,0,0,'=HYPERLINK(1),"said ""hi"", left",0,0,,0,a b,,,,,,,,episodes.jsonl:1`);
  });
});

describe("compare pairing (app/compare/pair.ts)", () => {
  type R = { id: string; sample: number | null; env: number | null };
  const r = (id: string, sample: number | null, env: number | null = 0.5): R => ({ id, sample, env });
  it("pairs equal attempt numbers, one row per counted record, and lists the unscored apart with the reason", () => {
    const a = [r("a0", 0), r("a1", 1), r("a2", 2), r("a3", 3)];
    const b = [r("b0", 0), r("b1", 1), r("b1-dup", 1, null), r("b2", 2)];
    const p = pairAttempts(a, b);
    expect(p.rows.map((x) => [x.sample, x.a?.id ?? null, x.b?.id ?? null])).toEqual([
      [0, "a0", "b0"],
      [1, "a1", "b1"],
      [2, "a2", "b2"],
      [3, "a3", null],
    ]);
    expect(p.uncounted).toEqual([
      { side: "b", row: b[2], why: "unscored (no env reward): geoeval's report leaves it out; a duplicate of attempt 1, which is counted" },
    ]);
    expect(p.counted).toEqual({ a: 4, b: 3 });
    const twice = pairAttempts([r("x", 1), r("y", 1)], [r("z", 1)]);
    expect(twice.rows.map((x) => [x.sample, x.record, x.records, x.a?.id, x.b?.id ?? null])).toEqual([
      [1, 0, 2, "x", "z"],
      [1, 1, 2, "y", null],
    ]);
  });
});

describe("the address (state/route.ts)", () => {
  it("keeps the route and the list state, in a fixed order, and reads them back", () => {
    const a = { route: { kind: "episode" as const, id: "a b", turn: 3 }, query: { sort: "score:-1", arm: "base", q: "" } };
    expect(formatAddress(a)).toBe("#a%20b/3?arm=base&sort=score%3A-1");
    expect(parseAddress(formatAddress(a))).toEqual({ route: a.route, query: { arm: "base", sort: "score:-1" } });
    expect(parseAddress("#?q=moldova")).toEqual({ route: { kind: "none" }, query: { q: "moldova" } });
    expect(parseAddress("#compare/1/a/b?q=x")).toEqual({ route: { kind: "compare", task: 1, a: "a", b: "b" }, query: { q: "x" } });
    expect(formatAddress({ route: { kind: "none" }, query: {} })).toBe("");
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

  it("a compare link may name a moment of its two-up video (#compare/<task>/<A>/<B>/t=<seconds>)", () => {
    expect(parseHash("#compare/2/sonnet-5/base/t=8.5")).toEqual({ kind: "compare", task: 2, a: "sonnet-5", b: "base", t: 8.5 });
    expect(compareHash(2, "sonnet-5", "base", 8.5)).toBe("#compare/2/sonnet-5/base/t=8.5");
    expect(compareHash(2, "a", "b", 1 / 3)).toBe("#compare/2/a/b/t=0.333");
    expect(parseHash(compareHash(17, "ckpt/200 β", "t=1", 0))).toEqual({ kind: "compare", task: 17, a: "ckpt/200 β", b: "t=1", t: 0 });
    expect(parseAddress("#compare/1/a/b/t=3?q=x")).toEqual({ route: { kind: "compare", task: 1, a: "a", b: "b", t: 3 }, query: { q: "x" } });
    // Not a moment: a time that is not a number, or a fifth part.
    expect(parseHash("#compare/1/a/b/t=x")).toBeNull();
    expect(parseHash("#compare/1/a/b/c/t=1")).toBeNull();
    // The episode moment link is unchanged.
    expect(parseHash("#ep-1/t=2")).toEqual({ kind: "moment", id: "ep-1", t: 2 });
  });
});

describe("client bundle", () => {
  it("bundles the client modules into one script that cannot end its element, the same bytes every time", () => {
    const a = bundleScript(ROOT, CLIENT_BUNDLE.entry);
    const b = bundleScript(ROOT, CLIENT_BUNDLE.entry);
    expect(a.script).toBe(b.script);
    expect(a.script).not.toMatch(/<\/script|<!--/i);
    expect(Object.keys(a.inputs)).toContain("envs/geoguesser/src/page/client/main.ts");
    // Type-only imports from the page model leave nothing behind: the client, the one attempt rule, the one search text, the views' reprojection
    // (shared with the player), markdown-it, the video's font names and map geometry (the page's maps are the video's maps),
    // of the player only its play-button hook, clock and number formats (its own bundle is separate), and the one rule
    // making a list row of an episode, and the training section's facts and charts described once as data (markup.ts,
    // training-parts.ts, charts.ts: the server writes them as escaped HTML, a live page builds them as DOM), the episode
    // count's one set of words (count-words.ts), the folder form's coded search texts (search-code.ts) and its search index (search-index.ts).
    // (`includes`: a worktree's node_modules may be a link outside the checkout.)
    // GeoGuesser's client (envs/geoguesser/src/page/client/) is built on the core's (src/page/client/: the DOM helpers, the data files, the live stream).
    const outside = Object.keys(a.inputs).filter(
      (p) => !p.startsWith("envs/geoguesser/src/page/client/") && !p.startsWith("src/page/client/") && !p.includes("node_modules/"),
    );
    expect(outside.sort()).toEqual([
      "envs/geoguesser/src/page/list-row.ts",
      "envs/geoguesser/src/page/player/clock.ts",
      "envs/geoguesser/src/page/player/format.ts",
      "envs/geoguesser/src/page/player/hook.ts",
      "envs/geoguesser/src/page/search-text.ts",
      "envs/geoguesser/src/page/training-parts.ts",
      "src/page/attempts.ts",
      "src/page/charts.ts",
      "src/page/count-words.ts",
      "src/page/escape-html.ts",
      "src/page/markup.ts",
      "src/page/reproject.ts",
      "src/page/search-code.ts",
      "src/page/search-index.ts",
      "video/map/atlas.ts",
      "video/map/frame.ts",
      "video/map/paths.ts",
      "video/map/projection.ts",
      "video/text/fonts.ts",
    ]);
    expect(Object.keys(a.inputs).some((p) => p.includes("node_modules/markdown-it/"))).toBe(true);
    expect(a.script).not.toMatch(/url\(/); // the page test forbids url( outside data: in the file
    expect(clientScript()).toBe(a.script);
  });

  it("the bundle `npm run build` records is the fresh one", () => {
    const file = join(ROOT, "dist", "src", "page", "client.bundle.json");
    expect(existsSync(file), "run npm run build").toBe(true);
    const rec = JSON.parse(readFileSync(file, "utf8"));
    const fresh = bundleScript(ROOT, CLIENT_BUNDLE.entry);
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

  const brow = (id: string, arm: string, task: number, sample: number, verdict: string | null, country: string | null = null): BoardEpisodeRow => ({
    id,
    arm,
    split: "eval",
    task,
    taskId: null,
    sample,
    country,
    verdict,
    score: 0.5,
    env: 0.5,
    km: 1,
    turns: 3,
    flags: [],
    tokensIn: null,
    tokensOut: null,
    cost: null,
    latency: null,
    temperature: null,
    maxTokens: null,
    source: "episodes.jsonl:1",
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
      brow("a1b", "a", 1, 1, "far"),
      brow("a1a", "a", 1, 0, "close"),
      brow("b1", "base", 1, 0, "far"),
      brow("a2", "a", 2, 0, "far"),
      brow("b2", "base", 2, 0, null),
      brow("b3", "base", 3, 0, null),
      brow("a4", "a", 4, 0, null),
      brow("b4", "base", 4, 0, null),
    ],
    pano: { width: 1024, height: 512 },
  } satisfies BoardData;
  const byTask = episodesByTask(data.episodes);
  const f: TaskFilters = { country: "", verdict: "", q: "", order: "task" };

  it("lists each task with the report's means and delta, attempts in attempt order", () => {
    const rows = taskRows(data, byTask, "a", "base", f);
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
    expect(taskRows(data, byTask, "a", "base", { ...f, order: "improved" }).map((r) => r.index)).toEqual([4, 1, 2, 3]);
    expect(taskRows(data, byTask, "a", "base", { ...f, order: "regressed" }).map((r) => r.index)).toEqual([2, 1, 4, 3]);
    expect(taskRows(data, byTask, "a", "base", { ...f, country: "Chile" }).map((r) => r.index)).toEqual([1, 3]);
    expect(taskRows(data, byTask, "a", "base", { ...f, country: "(unknown)" }).map((r) => r.index)).toEqual([4]);
    expect(taskRows(data, byTask, "a", "base", { ...f, verdict: "far" }).map((r) => r.index)).toEqual([1, 2]);
  });

  it("sorts by any column (the address form `key:dir`), filters by text, and takes any second arm or none", () => {
    expect(taskRows(data, byTask, "a", "base", { ...f, order: { key: "mean", dir: -1 } }).map((r) => r.index)).toEqual([4, 1, 2, 3]);
    expect(taskRows(data, byTask, "a", "base", { ...f, order: { key: "base_mean", dir: 1 } }).map((r) => r.index)).toEqual([3, 1, 2, 4]);
    expect(taskRows(data, byTask, "a", "base", { ...f, order: { key: "country", dir: 1 } }).map((r) => r.index)).toEqual([1, 3, 2, 4]);
    expect(taskRows(data, byTask, "a", "base", { ...f, q: "peru" }).map((r) => r.index)).toEqual([2]);
    expect(taskRows(data, byTask, "a", "base", { ...f, q: "B4" }).map((r) => r.index)).toEqual([4]);
    expect(taskRows(data, byTask, "a", "base", { ...f, q: "task 3" }).map((r) => r.index)).toEqual([3]);
    // The baseline against an arm: the difference of the report's means (no report delta for the baseline itself).
    expect(taskRows(data, byTask, "base", "a", f).map((r) => r.delta)).toEqual([0.5 - 0.6, 0.5 - 0.2, null, 0.5 - 0.9]);
    // One arm: no second arm, no delta.
    const alone = taskRows(data, byTask, "a", null, f);
    expect(alone.map((r) => [r.index, r.mean, r.best, r.k, r.baseMean, r.delta, r.baseEpisodes.length])).toEqual([
      [1, 0.6, 0.7, 2, null, null, 0],
      [2, 0.2, 0.2, 1, null, null, 0],
      [4, 0.9, 0.9, 1, null, null, 0],
    ]);
    expect(parseTaskOrder("delta:-1")).toEqual({ key: "delta", dir: -1 });
    expect(parseTaskOrder("improved")).toBe("improved");
    expect(parseTaskOrder("nope:1")).toBe("task");
    expect(formatTaskOrder({ key: "k", dir: 1 })).toBe("k:1");
    expect(nextTaskOrder("task", "mean")).toEqual({ key: "mean", dir: -1 });
    expect(nextTaskOrder({ key: "mean", dir: -1 }, "mean")).toEqual({ key: "mean", dir: 1 });
    expect(nextTaskOrder("improved", "delta")).toEqual({ key: "delta", dir: 1 });
    expect(nextTaskOrder("task", "task")).toEqual({ key: "task", dir: -1 });
    expect(nextTaskOrder({ key: "delta", dir: -1 }, "country")).toEqual({ key: "country", dir: 1 });
  });
});

describe("report tables' order (app/report/sort.ts)", () => {
  it("orders by a column, missing values last either way, ties in the report's order; parses the address form", () => {
    expect(sortedOrder([0.5, null, 0.7, 0.5], -1)).toEqual([2, 0, 3, 1]);
    expect(sortedOrder([0.5, null, 0.7, 0.5], 1)).toEqual([0, 3, 2, 1]);
    expect(sortedOrder(["ckpt-b", "base", "ckpt-a"], 1)).toEqual([1, 2, 0]);
    expect(parseTableSort("median_km:-1")).toEqual({ col: "median_km", dir: -1 });
    expect(parseTableSort("#:1")).toEqual({ col: "#", dir: 1 });
    expect(parseTableSort("nope")).toBeNull();
  });
});

describe("keyboard steps (keys.ts, shared by the run and board pages)", () => {
  it("clamp at both ends and start at the first item from nowhere", () => {
    expect([stepIndex(-1, 1, 5), stepIndex(-1, -1, 5)]).toEqual([0, 0]);
    expect([stepIndex(2, 1, 5), stepIndex(2, -1, 5)]).toEqual([3, 1]);
    expect([stepIndex(4, 1, 5), stepIndex(0, -1, 5)]).toEqual([4, 0]);
  });
});
