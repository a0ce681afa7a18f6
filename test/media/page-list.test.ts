/**
 * The episode list as an analyst uses it (issue 39, items 5 and 6), in
 * Debian's Chromium on a run page (the mixed sample run, its token counts,
 * settings and one env reward varied so that filters have something to
 * tell apart) and on the four-arm board (test/board-fixture.ts, tokens
 * varied by task and attempt): the filtered rows' means and medians against
 * numbers computed here from the source JSONL, `tokens > 1000` and `≥`,
 * the CSV's file name and columns, the detail following a search, a deep
 * link scrolling the list to its row (past the first 300 rows too), and the
 * model's settings beside the config.
 */
import { describe, expect, it, beforeAll, afterAll } from "vitest";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { type Browser, type Page } from "playwright-core";
import { launchChromium } from "../browser.ts";
import { MIXED, runCli } from "../helpers.ts";
import { makeFourArmBoard } from "../board-fixture.ts";
import { geoevalReward } from "../../envs/geoguesser/replay/rules/reward.ts";
import { CSV_COLUMNS } from "../../envs/geoguesser/src/page/client/state/rows.ts";

const dir = mkdtempSync(join(tmpdir(), "georeplay-page-list-"));
const runFile = join(dir, "run", "episodes.jsonl");
const manyFile = join(dir, "many", "episodes.jsonl");
const runOut = join(dir, "run.html");
const manyOut = join(dir, "many.html");
const farFile = join(dir, "far", "episodes.jsonl");
const farOut = join(dir, "far-page");
const boardOut = join(dir, "board.html");
const common = ["--tasks", join(MIXED, "tasks.jsonl"), "--panos", join(MIXED, "panos"), "--no-progress"];
let browser: Browser;
let boardDir: string;

/** One record as the tests compute from it: what the list's numbers must equal. */
interface Source {
  id: string;
  arm: string;
  line: number;
  file: string;
  sample: number | null;
  score: number;
  env: number | null;
  km: number | null;
  tokens: number | null;
  cost: number | null;
}

function readSource(file: string, root: string): Source[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .flatMap((l, i) => {
      if (!l.trim()) return [];
      const e = JSON.parse(l);
      if (!Array.isArray(e.turns)) return [];
      const o = e.outcome ?? {};
      return [
        {
          id: e.episode_id,
          arm: e.model_name,
          line: i + 1,
          file: relative(root, file),
          sample: e.task.sample ?? null,
          score: geoevalReward(o),
          env: o.reward ?? null,
          km: o.distance_km ?? null,
          tokens: o.tokens_in == null && o.tokens_out == null ? null : (o.tokens_in ?? 0) + (o.tokens_out ?? 0),
          cost: o.action_cost ?? null,
        },
      ];
    });
}

function jsonlFiles(d: string): string[] {
  return readdirSync(d, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((e) => (e.isDirectory() ? jsonlFiles(join(d, e.name)) : e.name === "episodes.jsonl" ? [join(d, e.name)] : []));
}

/** Mean and median as a reader would compute them, nulls and unscored records left out. */
function expected(rows: Source[], f: (s: Source) => number | null): { n: number; mean: number | null; median: number | null } {
  const xs = rows
    .filter((r) => r.env !== null)
    .map(f)
    .filter((x): x is number => x !== null)
    .sort((a, b) => a - b);
  if (!xs.length) return { n: 0, mean: null, median: null };
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const m = xs.length >> 1;
  return { n: xs.length, mean, median: xs.length % 2 ? xs[m] : (xs[m - 1] + xs[m]) / 2 };
}

beforeAll(async () => {
  // The sample run, tokens 220..2200 by line, one episode at temperature 0.2 and max_tokens 1024, the last unscored.
  const src = readFileSync(join(MIXED, "episodes.jsonl"), "utf8")
    .split("\n")
    .filter((l) => l.trim());
  const lines = src.map((l, i) => {
    const e = JSON.parse(l);
    e.outcome.tokens_in = 200 * (i + 1);
    e.outcome.tokens_out = 20 * (i + 1);
    if (i === 2) e.model = { ...e.model, temperature: 0.2, max_tokens: 1024 };
    if (i === src.length - 1) e.outcome.reward = null;
    return JSON.stringify(e);
  });
  mkdirSync(join(dir, "run"));
  writeFileSync(runFile, lines.join("\n") + "\n");
  // One-turn episodes (no view to re-render), ids <name>-<i>.
  const oneTurn = (file: string, name: string, n: number, digits: number) => {
    mkdirSync(dirname(file));
    const line = (i: number) => {
      const e = JSON.parse(src[i % src.length]);
      e.episode_id = `${name}-${String(i).padStart(digits, "0")}`;
      e.turns = [{ ...e.turns[0], image_kind: "none", image_sha256: null }];
      return JSON.stringify(e);
    };
    writeFileSync(file, Array.from({ length: n }, (_, i) => line(i)).join("\n") + "\n");
  };
  // 420: a list longer than its first 300 rows.
  oneTurn(manyFile, "many", 420, 3);
  // 2,450, in the folder form: two rows files, and rows past the list's far window (2,000).
  oneTurn(farFile, "far", 2450, 4);
  // The four-arm board, tokens varied by task and attempt.
  boardDir = makeFourArmBoard(join(dir, "board")).dir;
  for (const f of jsonlFiles(boardDir)) {
    const out = readFileSync(f, "utf8")
      .split("\n")
      .filter((l) => l.trim())
      .map((l) => {
        const e = JSON.parse(l);
        if (e.outcome) {
          e.outcome.tokens_in = 150 * (e.task.index + 1) + 37 * (e.task.sample ?? 0);
          e.outcome.tokens_out = 11 * e.task.index;
        }
        return JSON.stringify(e);
      });
    writeFileSync(f, out.join("\n") + "\n");
  }
  const run = runCli(["page", runFile, ...common, "--title", "held-out run", "-o", runOut]);
  expect(existsSync(runOut), run.stderr).toBe(true);
  const many = runCli(["page", manyFile, ...common, "-o", manyOut]);
  expect(many.code, many.stderr).toBe(0);
  const far = runCli(["page", farFile, ...common, "-o", `${farOut}/`]);
  expect(far.code, far.stderr).toBe(0);
  const board = runCli(["page", boardDir, ...common, "--baseline", "base", "-o", boardOut]);
  expect(existsSync(boardOut), board.stderr).toBe(true);
  browser = await launchChromium();
}, 600_000);

afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function open(file: string, hash = "", height = 900) {
  const context = await browser.newContext({ viewport: { width: 1366, height }, acceptDownloads: true });
  const page = await context.newPage();
  const errors: string[] = [];
  const requests: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("request", (r) => requests.push(r.url()));
  await page.goto(`file://${file}${hash}`);
  await page.waitForFunction(() => document.documentElement.dataset.ready === "1");
  return { page, errors, requests, close: () => context.close() };
}

const listIds = (page: Page) => page.$$eval("#gr-rows tr[data-id]", (trs) => trs.map((t) => (t as HTMLElement).dataset.id!));
const shownEpisode = (page: Page) => page.$eval("#gr-detail", (d) => (d as HTMLElement).dataset.episode ?? null);
const summary = (page: Page) =>
  page.$eval("#gr-list-summary", (p) => {
    const out: Record<string, { n: number; mean: number | null; median: number | null; text: string }> = {};
    p.querySelectorAll<HTMLElement>("[data-stat]").forEach((s) => {
      const num = (v: string | undefined) => (v === undefined || v === "" ? null : Number(v));
      out[s.dataset.stat!] = {
        n: Number(s.dataset.n ?? s.dataset.counted),
        mean: num(s.dataset.mean),
        median: num(s.dataset.median),
        text: s.textContent ?? "",
      };
    });
    const rows = p.querySelector<HTMLElement>('[data-stat="rows"]')!;
    return { stats: out, rows: Number(rows.dataset.rows), counted: Number(rows.dataset.counted), text: p.textContent ?? "" };
  });
async function setExpr(page: Page, expr: string) {
  await page.fill("#f-expr", expr);
  await page.waitForFunction((x) => new URLSearchParams(location.hash.split("?")[1] ?? "").get("expr") === x, expr);
}

function checkSummary(s: Awaited<ReturnType<typeof summary>>, rows: Source[]) {
  expect(s.rows).toBe(rows.length);
  expect(s.counted).toBe(rows.filter((r) => r.env !== null).length);
  for (const [key, f, digits] of [
    ["reward", (r: Source) => r.score, 3],
    ["km", (r: Source) => r.km, 0],
    ["tokens", (r: Source) => r.tokens, 0],
    ["cost", (r: Source) => r.cost, 2],
  ] as const) {
    const want = expected(rows, f);
    const got = s.stats[key];
    expect(got.n, key).toBe(want.n);
    expect(got.mean!, key).toBeCloseTo(want.mean!, 9);
    expect(got.median!, key).toBeCloseTo(want.median!, 9);
    // What the reader sees: the mean and the median rounded as the list rounds.
    const shown = (x: number) => x.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
    expect(got.text, key).toContain(shown(want.mean!));
    expect(got.text, key).toContain(shown(want.median!));
  }
}

describe("run page: the filtered rows' numbers, fields, CSV", () => {
  it("shows count, mean and median of reward, distance, tokens and cost for the rows shown, as computed from the JSONL; `tokens > 1000` and `≥` filter", async () => {
    const rows = readSource(runFile, join(dir, "run"));
    const { page, errors, requests, close } = await open(runOut);
    checkSummary(await summary(page), rows);
    expect(await page.textContent("#gr-list-summary")).toMatch(/9 episodes \(\+ 1 unscored: not counted\).*reward .* mean, .* median.*distance.*tokens.*cost/);

    await setExpr(page, "tokens > 1000");
    const big = rows.filter((r) => r.tokens! > 1000);
    expect(big.length).toBe(6);
    expect((await listIds(page)).sort()).toEqual(big.map((r) => r.id).sort());
    checkSummary(await summary(page), big);

    await setExpr(page, "tokens ≥ 1100 and cost <= 0.1");
    const ge = rows.filter((r) => r.tokens! >= 1100 && r.cost! <= 0.1);
    expect((await listIds(page)).sort()).toEqual(ge.map((r) => r.id).sort());
    expect(await page.getAttribute("#f-expr", "aria-invalid")).toBeNull();
    checkSummary(await summary(page), ge);

    // The fields are listed under the box.
    const fields = await page.textContent("#f-fields");
    for (const f of ["tokens", "tokens_in", "tokens_out", "cost", "latency", "temperature", "max_tokens", "env_reward", "attempt", "turns", "km", "reward"])
      expect(fields).toContain(`${f} (`);
    expect(errors).toEqual([]);
    expect(requests.filter((u) => !u.startsWith("file:") && !u.startsWith("data:"))).toEqual([]);
    await close();
  });

  it("downloads the filtered rows as <title>-<filter>.csv with tokens, cost, latency, settings and file:line", async () => {
    const rows = readSource(runFile, join(dir, "run"));
    const { page, close } = await open(runOut);
    await setExpr(page, "tokens > 1000");
    const [download] = await Promise.all([page.waitForEvent("download"), page.click("#f-csv")]);
    expect(download.suggestedFilename()).toBe("held-out-run-tokens-gt-1000.csv");
    const csv = readFileSync((await download.path())!, "utf8")
      .trimEnd()
      .split("\r\n");
    expect(csv[0].split(",")).toEqual(CSV_COLUMNS);
    for (const c of ["tokens_in", "tokens_out", "tokens", "cost", "latency_s", "temperature", "max_tokens", "source"]) expect(csv[0].split(",")).toContain(c);
    expect(csv.length - 1).toBe(6);
    const col = (name: string) => CSV_COLUMNS.indexOf(name);
    for (const line of csv.slice(1)) {
      const cells = line.split(",");
      const src = rows.find((r) => r.id === cells[col("episode_id")])!;
      expect(Number(cells[col("tokens")])).toBe(src.tokens);
      expect(Number(cells[col("cost")])).toBe(src.cost);
      expect(Number(cells[col("latency_s")])).toBe(8);
      expect(cells[col("source")]).toBe(`episodes.jsonl:${src.line}`);
    }
    await close();
  });

  it("shows the model's settings beside the config, and filters by temperature and max_tokens", async () => {
    const rows = readSource(runFile, join(dir, "run"));
    const cold = rows[2].id;
    const { page, close } = await open(runOut, `#${cold}`);
    await page.waitForFunction((x) => (document.getElementById("gr-detail") as HTMLElement).dataset.episode === x, cold);
    const settings = await page.$$eval("#gr-detail .settings [data-setting]", (ss) =>
      Object.fromEntries(ss.map((s) => [(s as HTMLElement).dataset.setting, s.querySelector("b")!.textContent])),
    );
    expect(settings).toMatchObject({ provider: "openai", temperature: "0.2", max_tokens: "1024", thinking: "off" });
    expect(await page.isVisible("#gr-detail .settings")).toBe(true);
    expect(await page.textContent("#gr-detail .settings")).toMatch(/temperature 0\.2.*max tokens 1024/);
    // Beside the config (the same header).
    expect(await page.$eval("#gr-detail .settings", (s) => Boolean(s.parentElement!.querySelector("details.config")))).toBe(true);
    await setExpr(page, "temperature < 0.5");
    expect(await listIds(page)).toEqual([cold]);
    await setExpr(page, "max_tokens == 4000");
    expect((await listIds(page)).length).toBe(9);
    await close();
  });

  it("the detail follows a search: an episode the list no longer shows gives way to the first one shown, or to a note that none matches", async () => {
    const rows = readSource(runFile, join(dir, "run"));
    const { page, errors, close } = await open(runOut, `#${rows[0].id}/1`);
    expect(await shownEpisode(page)).toBe(rows[0].id);
    await page.fill("#f-q", rows[4].id);
    await page.waitForFunction((x) => (document.getElementById("gr-detail") as HTMLElement).dataset.episode === x, rows[4].id);
    expect(await listIds(page)).toEqual([rows[4].id]);
    expect(await page.getAttribute(`#gr-rows tr[data-id="${rows[4].id}"]`, "aria-selected")).toBe("true");
    expect(decodeURIComponent(await page.evaluate(() => location.hash))).toContain(rows[4].id);
    // Nothing matches: the detail says so.
    await page.fill("#f-q", "no such episode anywhere");
    await page.waitForFunction(() => !(document.getElementById("gr-detail") as HTMLElement).dataset.episode);
    expect(await page.textContent("#gr-detail")).toContain("No episode matches");
    // Matches again: the first row opens.
    await setExpr(page, "tokens > 2000");
    await page.fill("#f-q", "");
    await page.waitForFunction((x) => (document.getElementById("gr-detail") as HTMLElement).dataset.episode === x, rows[9].id);
    expect(errors).toEqual([]);
    await close();
  });

  it("a deep link scrolls the list to its row, past the first 300 rows too", async () => {
    const id = "many-377";
    const { page, close } = await open(manyOut, `#${id}/0`, 600);
    const seen = await page.$eval(`#gr-rows tr[data-id="${id}"]`, (tr) => {
      const box = tr.closest("aside")!.getBoundingClientRect();
      const r = tr.getBoundingClientRect();
      return { inBox: r.top >= box.top && r.bottom <= box.bottom, selected: tr.getAttribute("aria-selected"), scrolled: tr.closest("aside")!.scrollTop };
    });
    expect(seen).toMatchObject({ inBox: true, selected: "true" });
    expect(seen.scrolled).toBeGreaterThan(1000);
    expect((await listIds(page)).length).toBe(420); // shown up to the page of rows that holds it
    // Following a link to another row scrolls there too (hashchange).
    await page.evaluate(() => (location.hash = "#many-005"));
    await page.waitForFunction(() => {
      const tr = document.querySelector('#gr-rows tr[data-id="many-005"]')!;
      const box = tr.closest("aside")!.getBoundingClientRect();
      const r = tr.getBoundingClientRect();
      return tr.getAttribute("aria-selected") === "true" && r.top >= box.top && r.bottom <= box.bottom;
    });
    await close();
  });
});

describe("a deep link far down a long list (folder form, 2,450 rows in two files)", () => {
  it("renders the page of rows around it with 'show earlier' above, not every row before it; earlier rows come a page at a time", async () => {
    const { page, errors, requests, close } = await open(join(farOut, "index.html"), "#far-2134/0", 600);
    expect(requests.filter((u) => /\/data\/rows-\d+\.js$/.test(u)).map((u) => u.split("/").pop())).toEqual(["rows-0.js", "rows-1.js"]);
    const seen = () =>
      page.$eval(`#gr-rows tr[data-id="far-2134"]`, (tr) => {
        const box = tr.closest("aside")!.getBoundingClientRect();
        const r = tr.getBoundingClientRect();
        return { inBox: r.top >= box.top && r.bottom <= box.bottom, selected: tr.getAttribute("aria-selected") };
      });
    expect(await seen()).toEqual({ inBox: true, selected: "true" });
    expect(await shownEpisode(page)).toBe("far-2134");
    // The page of 300 rows that holds it (2,100..2,399), under a row offering the 2,100 before it.
    const ids = await listIds(page);
    expect(ids.length).toBe(300);
    expect([ids[0], ids.at(-1)]).toEqual(["far-2100", "far-2399"]);
    expect(await page.textContent("#gr-rows tr.more.earlier")).toBe("show 300 earlier of 2,100");
    // Clicking it adds the 300 before (the open episode stays selected).
    await page.click("#gr-rows tr.more.earlier");
    await page.waitForFunction(() => document.querySelectorAll("#gr-rows tr[data-id]").length === 600);
    expect((await listIds(page))[0]).toBe("far-1800");
    expect(await page.textContent("#gr-rows tr.more.earlier")).toBe("show 300 earlier of 1,800");
    expect((await seen()).selected).toBe("true");
    // A link to a row near the top renders from the first row again, no 'earlier' row.
    await page.evaluate(() => (location.hash = "#far-0005"));
    await page.waitForFunction(() => document.querySelector('#gr-rows tr[data-id="far-0005"]')?.getAttribute("aria-selected") === "true");
    expect((await listIds(page))[0]).toBe("far-0000");
    expect(await page.$("#gr-rows tr.more.earlier")).toBeNull();
    expect(errors).toEqual([]);
    await close();
  });
});

describe("board page (four arms): the same list", () => {
  it("attempt and turns columns, sortable; filtered-row means equal the JSONL's; `tokens > 1000` filters", async () => {
    const rows = jsonlFiles(boardDir).flatMap((f) => readSource(f, boardDir));
    const { page, errors, close } = await open(boardOut);
    const heads = await page.$$eval("table.episodes thead th", (ths) => ths.map((t) => [t.textContent, (t as HTMLElement).dataset.sort ?? null]));
    expect(heads).toContainEqual(["attempt", "sample"]);
    expect(heads).toContainEqual(["turns", "turns"]);
    checkSummary(await summary(page), rows);
    // At 1280 px both new columns show and nothing is cut.
    await page.setViewportSize({ width: 1280, height: 800 });
    const fit = await page.evaluate(() => {
      const aside = document.querySelector("aside.list") as HTMLElement;
      const shown = [...aside.querySelectorAll("table.episodes thead th")].filter((th) => getComputedStyle(th).display !== "none");
      return { heads: shown.map((th) => th.textContent), overflow: aside.scrollWidth - aside.clientWidth };
    });
    expect(fit.heads).toEqual(expect.arrayContaining(["attempt", "turns", "status"]));
    expect(fit.overflow).toBeLessThanOrEqual(0);

    await page.click('table.episodes th[data-sort="sample"]');
    const samples = await page.$$eval("#gr-rows tr[data-id]", (trs) => trs.map((tr) => Number((tr.children[3] as HTMLElement).textContent)));
    expect(samples).toEqual([...samples].sort((a, b) => a - b));
    expect(samples[samples.length - 1]).toBeGreaterThan(samples[0]);

    await page.selectOption("#f-model", "ckpt-a");
    await setExpr(page, "tokens > 1000");
    const big = rows.filter((r) => r.arm === "ckpt-a" && r.tokens! > 1000);
    expect(big.length).toBeGreaterThan(0);
    expect(big.length).toBeLessThan(rows.filter((r) => r.arm === "ckpt-a").length);
    expect((await listIds(page)).sort()).toEqual(big.map((r) => r.id).sort());
    checkSummary(await summary(page), big);

    await page.selectOption("#f-model", "");
    await setExpr(page, "attempt ≥ 1 and reward >= 0.5");
    const att = rows.filter((r) => r.sample! >= 1 && r.score >= 0.5);
    expect(att.length).toBeGreaterThan(0);
    expect((await listIds(page)).sort()).toEqual(att.map((r) => r.id).sort());
    checkSummary(await summary(page), att);

    const [download] = await Promise.all([page.waitForEvent("download"), page.click("#f-csv")]);
    expect(download.suggestedFilename()).toMatch(/^[A-Za-z0-9._-]*board-of-4-arms-[A-Za-z0-9._-]+-attempt-ge-1-and-reward-ge-0\.5\.csv$/);
    const csv = readFileSync((await download.path())!, "utf8").split("\r\n");
    expect(csv[0].split(",")).toEqual(CSV_COLUMNS);
    const src = csv[1].split(",")[CSV_COLUMNS.indexOf("source")];
    expect(src).toMatch(/^[a-z0-9-]+\/pass-\d\/shard-\d\/episodes\.jsonl:\d+$/);
    expect(errors).toEqual([]);
    await close();
  });

  it("the detail follows a search; a deep link scrolls to its row; the settings show", async () => {
    const rows = jsonlFiles(boardDir).flatMap((f) => readSource(f, boardDir));
    const last = rows[rows.length - 1].id;
    const { page, errors, close } = await open(boardOut, `#${last}/1`, 500);
    await page.waitForFunction((x) => (document.getElementById("gr-detail") as HTMLElement).dataset.episode === x, last);
    const seen = await page.$eval(`#gr-rows tr[data-id="${last}"]`, (tr) => {
      const box = tr.closest("aside")!.getBoundingClientRect();
      const r = tr.getBoundingClientRect();
      return { inBox: r.top >= box.top && r.bottom <= box.bottom, selected: tr.getAttribute("aria-selected") };
    });
    expect(seen).toEqual({ inBox: true, selected: "true" });
    expect(await page.textContent("#gr-detail .settings")).toMatch(/provider openai.*temperature 1.*max tokens 4000.*thinking off/);

    const other = rows.find((r) => r.arm === "sonnet-5")!.id;
    await page.fill("#f-q", other);
    await page.waitForFunction((x) => (document.getElementById("gr-detail") as HTMLElement).dataset.episode === x, other);
    expect(await listIds(page)).toEqual([other]);
    expect(errors).toEqual([]);
    await close();
  });
});
