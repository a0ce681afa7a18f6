/**
 * The list's analysis as pure functions in Node (issue 39, items 5 and 6):
 * every numeric field in filter expressions (with ≥ ≤ ≠ as pasted), the
 * filtered rows' means and medians (unscored rows and missing values left
 * out), the CSV's columns and its file name, and the row a page episode
 * makes (tokens, cost, latency, settings, file:line).
 */
import { describe, expect, it } from "vitest";
import { compileExpr, ExprError, FIELDS } from "../../envs/geoguesser/src/page/client/state/expr.ts";
import { stat, summarise } from "../../envs/geoguesser/src/page/client/state/summary.ts";
import {
  append,
  CSV_COLUMNS,
  csvFileName,
  filterAndSort,
  NO_FILTERS,
  parseSort,
  toCsv,
  type ListRow,
} from "../../envs/geoguesser/src/page/client/state/rows.ts";
import { listRowOf } from "../../envs/geoguesser/src/page/list-row.ts";
import type { PageEpisode } from "../../envs/geoguesser/src/page/model.ts";

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

const rows = [
  row("a", { score: 0.5, env: 0.4, km: 100, turns: 4, sample: 0, tokensIn: 800, tokensOut: 300, cost: 0.05, latency: 3.5, temperature: 1, maxTokens: 4000 }),
  row("b", { score: 0.2, env: 0.1, km: 900, turns: 9, sample: 1, tokensIn: 600, tokensOut: 100, cost: 0.1, latency: 1.25, temperature: 0.7, maxTokens: 2000 }),
  row("c", { score: 0.9, env: null, km: 5, turns: 2, sample: 2, tokensIn: 5000, tokensOut: 10, cost: 0.02, temperature: 1, maxTokens: 4000 }),
  row("d", { score: 0.7, env: 0.7, km: null, turns: 12, sample: 3, source: "arm/pass-0/episodes.jsonl:17" }),
];
const ids = (e: string) => filterAndSort(rows, NO_FILTERS, null, () => "", compileExpr(e)).map((r) => r.id);

describe("filter expressions reach every numeric field", () => {
  it("tokens (in + out), tokens_in, tokens_out, cost, latency, temperature, max_tokens, env_reward, attempt, turns, km, reward", () => {
    expect(ids("tokens > 1000")).toEqual(["a", "c"]);
    expect(ids("tokens>1000")).toEqual(["a", "c"]);
    expect(ids("tokens == null")).toEqual(["d"]);
    expect(ids("tokens_in >= 800")).toEqual(["a", "c"]);
    expect(ids("tokens_out < 200")).toEqual(["b", "c"]);
    expect(ids("cost > 0.04")).toEqual(["a", "b"]);
    expect(ids("latency > 2")).toEqual(["a"]);
    expect(ids("temperature < 1")).toEqual(["b"]);
    expect(ids("max_tokens == 4000")).toEqual(["a", "c"]);
    expect(ids("env_reward == null")).toEqual(["c"]);
    expect(ids("env_reward > 0.3")).toEqual(["a", "d"]);
    expect(ids("attempt >= 2")).toEqual(["c", "d"]);
    expect(ids("turns > 8")).toEqual(["b", "d"]);
    expect(ids("km <= 100")).toEqual(["a", "c"]);
    expect(ids("reward >= 0.7")).toEqual(["c", "d"]);
    expect(ids("source ~ pass-0")).toEqual(["d"]);
    for (const f of ["tokens", "tokens_in", "tokens_out", "cost", "latency", "temperature", "max_tokens", "env_reward", "attempt", "turns", "km", "reward"])
      expect(FIELDS.find((x) => x.name === f)?.type, f).toBe("number");
  });

  it("≥ ≤ ≠ typed or pasted mean >= <= !=, with or without spaces", () => {
    expect(ids("tokens ≥ 1100")).toEqual(ids("tokens >= 1100"));
    expect(ids("tokens ≥ 1100")).toEqual(["a", "c"]);
    expect(ids("km≤100")).toEqual(["a", "c"]);
    expect(ids("attempt ≠ 0 and turns ≥ 9")).toEqual(["b", "d"]);
    expect(ids("tokens ≠ null")).toEqual(["a", "b", "c"]);
  });

  it("errors name the field list with the new fields and the position", () => {
    try {
      compileExpr("tokenz ≥ 3");
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ExprError);
      expect((e as ExprError).message).toMatch(
        /unknown field "tokenz": the fields are .*tokens, tokens_in, tokens_out, cost, latency, temperature, max_tokens/,
      );
      expect((e as ExprError).at).toBe(0);
    }
    expect(() => compileExpr("tokens ≥ many")).toThrow(/tokens is a number/);
  });
});

describe("the filtered rows' summary (state/summary.ts)", () => {
  it("mean and median leave nulls out; an even count's median is the middle two's mean", () => {
    expect(stat([3, null, 1, 2])).toEqual({ n: 3, mean: 2, median: 2 });
    expect(stat([4, 1, 3, 2])).toEqual({ n: 4, mean: 2.5, median: 2.5 });
    expect(stat([null, null])).toEqual({ n: 0, mean: null, median: null });
    expect(stat([])).toEqual({ n: 0, mean: null, median: null });
  });

  it("averages the counted rows only (an unscored row is left out, as geoeval's report leaves it out)", () => {
    const m = summarise(rows);
    expect(m.rows).toBe(4);
    expect(m.counted).toBe(3);
    expect(m.reward).toEqual({ n: 3, mean: (0.5 + 0.2 + 0.7) / 3, median: 0.5 });
    expect(m.km).toEqual({ n: 2, mean: 500, median: 500 });
    expect(m.tokens).toEqual({ n: 2, mean: (1100 + 700) / 2, median: 900 });
    expect(m.cost.n).toBe(2);
    expect(m.cost.mean).toBeCloseTo(0.075, 12);
    expect(summarise([])).toMatchObject({ rows: 0, counted: 0, reward: { n: 0, mean: null } });
  });
});

describe("the CSV", () => {
  it("has tokens, cost, latency, the settings and the source file:line besides the list's columns", () => {
    const [head, ...lines] = toCsv(rows).trimEnd().split("\r\n");
    expect(head.split(",")).toEqual(CSV_COLUMNS);
    expect(CSV_COLUMNS.slice(-8)).toEqual(["tokens_in", "tokens_out", "tokens", "cost", "latency_s", "temperature", "max_tokens", "source"]);
    expect(lines[0].split(",").slice(-8)).toEqual(["800", "300", "1100", "0.05", "3.5", "1", "4000", "episodes.jsonl:1"]);
    expect(lines[3].split(",").slice(-8)).toEqual(["", "", "", "", "", "", "", "arm/pass-0/episodes.jsonl:17"]);
  });

  it("is named after the run and the filter, in safe file-name characters", () => {
    expect(csvFileName("held-out haiku · georeplay", { expr: "tokens > 1000" })).toBe("held-out-haiku-tokens-gt-1000.csv");
    expect(csvFileName("episodes.jsonl · haiku-4.5 · georeplay", {})).toBe("haiku-4.5-all.csv");
    expect(csvFileName("episodes.jsonl, episodes.jsonl · board of 4 arms: base, ckpt-a · georeplay", { arm: "base", expr: "km ≥ 750" })).toBe(
      "board-of-4-arms-base-ckpt-a-base-km-ge-750.csv",
    );
    expect(csvFileName("runs/../x · georeplay", { q: '東京 "/\\:*?<>|', min: "0.5" })).toBe("runs-..-x-lt-gt-reward-ge-0.5.csv");
    expect(csvFileName("", { q: "../../etc/passwd" })).toBe("episodes-etc-passwd.csv");
    for (const n of [csvFileName("a/b\\c:d · georeplay", { q: "x\ny", expr: 'model == "a/b"' }), csvFileName("🙂", {})])
      expect(n).toMatch(/^[A-Za-z0-9._-]+\.csv$/);
  });
});

describe("a row of a page episode (list-row.ts, both pages)", () => {
  it("carries tokens, cost, latency, temperature, max_tokens and file:line; sorts by attempt", () => {
    const e = {
      id: "e1",
      model: "haiku",
      split: "eval",
      index: 4,
      taskId: null,
      sample: 2,
      country: "Italy",
      verdict: "close",
      score: 0.6,
      reward: 0.5,
      distanceKm: 12,
      turnsUsed: 5,
      flags: ["clean"],
      format: "eval",
      cost: 0.03,
      tokensIn: 1200,
      tokensOut: 90,
      latencyS: 4.5,
      settings: { provider: "openai", temperature: 0.7, max_tokens: 4000, thinking: "off" },
      source: "episodes.jsonl:3",
    } as unknown as PageEpisode;
    expect(listRowOf(e)).toMatchObject({
      sample: 2,
      tokensIn: 1200,
      tokensOut: 90,
      cost: 0.03,
      latency: 4.5,
      temperature: 0.7,
      maxTokens: 4000,
      source: "episodes.jsonl:3",
    });
    expect(listRowOf({ ...e, settings: null })).toMatchObject({ temperature: null, maxTokens: null });
    const sorted = filterAndSort(rows, NO_FILTERS, parseSort("sample:-1"), () => "", null).map((r) => r.id);
    expect(sorted).toEqual(["d", "c", "b", "a"]);
  });
});

describe("a folder page's rows join the list (state/rows.ts append)", () => {
  it("appends 200,000 rows in order, where push(...rows) overflows the call stack", () => {
    const rows = Array.from({ length: 200_000 }, (_, i) => i);
    expect(() => ([] as number[]).push(...rows)).toThrow(RangeError);
    const to = [-1];
    append(to, rows);
    expect(to.length).toBe(200_001);
    expect(to[200_000]).toBe(199_999);
  });
});
