/**
 * `georeplay page`: the data layer's maths and escaping in Node, then the
 * real page in Debian's Chromium (playwright-core, file://, no network):
 * summary numbers against values computed here from the raw JSONL, deep
 * links, keyboard navigation, filters, dark mode, zero requests, lazy
 * images, and the hostile replies of the mixed fixture shown verbatim with
 * nothing executed.
 */
import { describe, expect, it, beforeAll, afterAll } from "vitest";
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync, rmSync, cpSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createHash } from "node:crypto";
import sharp from "sharp";
import { type Browser, type Page } from "playwright-core";
import { launchChromium } from "../browser.ts";
import { spawnSync } from "node:child_process";
import { MIXED, TRIESTE, ROOT, FIXTURES, runCli } from "../helpers.ts";
import { buildPage } from "../../envs/geoguesser/src/page/build.ts";
import { scriptJson, escapeHtml } from "../../src/page/escape.ts";
import { revealFrame, pinsFrame, haversineKm, mapSpec } from "../../src/page/geo.ts";
import { median, summariseRun } from "../../envs/geoguesser/src/page/stats.ts";
import { toolCall } from "../../envs/geoguesser/src/page/model.ts";
import { summaryTable } from "../../envs/geoguesser/src/page/view/template.ts";
import { summariseSweep } from "../../envs/geoguesser/src/page/sweep.ts";
import { geoevalReward } from "../../envs/geoguesser/replay/rules/reward.ts";
import { readBoard, boardReport } from "../../envs/geoguesser/replay/board/index.ts";
import { stepChart } from "../../src/page/charts.ts";

type RawEpisode = {
  episode_id: string;
  model_name: string;
  task: { country?: string };
  outcome: { reward: number; distance_km: number | null; turns_used: number };
  turns: { turn: number; status: string; image_kind: string; image_sha256: string | null; model?: { reply?: string | null; reasoning?: string | null } }[];
};
const readRaw = (file: string): RawEpisode[] =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));

const dir = mkdtempSync(join(tmpdir(), "georeplay-page-"));
const mixedOut = join(dir, "mixed.html");
const bothOut = join(dir, "both.html");
const mixedRaw = readRaw(join(MIXED, "episodes.jsonl"));
const triesteRaw = readRaw(join(TRIESTE, "episodes.jsonl"));
const corrupted: { episode_id: string; turn: number }[] = JSON.parse(readFileSync(join(MIXED, "corrupted.json"), "utf8"));

let browser: Browser;
let mixedResult: Awaited<ReturnType<typeof buildPage>>;

beforeAll(async () => {
  // Two runs in one page (mixed: synthetic-model, trieste: haiku-4.5) so the summary has two models.
  // Both use task index rows: trieste's and mixed's task ids do not collide (40 vs 0..6).
  const tasks = join(dir, "tasks.jsonl");
  // Identical rows once: a task index with duplicate rows is a problem, and a page of an incompletely read run is not written.
  const rows = (f: string) =>
    readFileSync(f, "utf8")
      .split("\n")
      .filter((l) => l.trim());
  writeFileSync(tasks, [...new Set([...rows(join(MIXED, "tasks.jsonl")), ...rows(join(TRIESTE, "tasks.jsonl"))])].join("\n") + "\n");
  const panos = join(dir, "panos");
  const { cpSync } = await import("node:fs");
  cpSync(join(MIXED, "panos"), panos, { recursive: true });
  cpSync(join(TRIESTE, "panos"), panos, { recursive: true });
  mixedResult = await buildPage({ episodes: [join(MIXED, "episodes.jsonl")], tasks: join(MIXED, "tasks.jsonl"), panos: join(MIXED, "panos"), out: mixedOut });
  await buildPage({ episodes: [join(MIXED, "episodes.jsonl"), join(TRIESTE, "episodes.jsonl")], tasks, panos, out: bothOut });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Opens a page from file:// and records every request, dialog, console message and page error. */
async function open(file: string, opts: { hash?: string; width?: number; height?: number; dark?: boolean } = {}) {
  const context = await browser.newContext({ viewport: { width: opts.width ?? 1366, height: opts.height ?? 900 } });
  const page = await context.newPage();
  const log = { requests: [] as string[], failed: [] as string[], dialogs: [] as string[], console: [] as string[], errors: [] as string[] };
  page.on("request", (r) => log.requests.push(r.url()));
  page.on("requestfailed", (r) => log.failed.push(`${r.url()} ${r.failure()?.errorText}`));
  page.on("dialog", (d) => {
    log.dialogs.push(d.message());
    void d.dismiss();
  });
  page.on("console", (m) => log.console.push(`${m.type()}: ${m.text()}`));
  page.on("pageerror", (e) => log.errors.push(e.message));
  if (opts.dark) await page.emulateMedia({ colorScheme: "dark" });
  await page.goto(`file://${file}${opts.hash ?? ""}`);
  await page.waitForFunction(() => document.documentElement.dataset.ready === "1");
  await page.waitForLoadState("load");
  return { page, log, close: () => context.close() };
}

const currentTurn = (page: Page) =>
  page.evaluate(() => {
    const c = document.querySelector(".turn.current") as HTMLElement | null;
    return c ? { episode: (document.getElementById("gr-detail") as HTMLElement).dataset.episode, turn: Number(c.dataset.turn), hash: location.hash } : null;
  });

describe("page data layer", () => {
  it("scriptJson keeps the value and cannot close a script element", () => {
    const hostile = { s: "</script><script>alert(1)</script><!-- & \u2028\u2029 🚗" };
    const text = scriptJson(hostile);
    expect(text).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(text)).toEqual(hostile);
    expect(escapeHtml(`<img src=x onerror="a">&'`)).toBe("&lt;img src=x onerror=&quot;a&quot;&gt;&amp;&#39;");
  });

  it("frames the reveal map by the environment's rule", () => {
    // > 25 degrees apart: centred on the truth, 12 degree half-width.
    expect(revealFrame([10, 10], [50, 60])).toEqual({ center: [50, 60], halfWidthDeg: 12 });
    // Closer: the midpoint and max(0.05, 0.75*sep + 0.4).
    const f = revealFrame([51.8637, 7.1841], [50.833786641671, 4.3278289927624]);
    const sep = (haversineKm([51.8637, 7.1841], [50.833786641671, 4.3278289927624]) / 6371.0088) * (180 / Math.PI);
    expect(f.center[0]).toBeCloseTo((51.8637 + 50.833786641671) / 2, 9);
    expect(f.center[1]).toBeCloseTo((7.1841 + 4.3278289927624) / 2, 9);
    expect(f.halfWidthDeg).toBeCloseTo(0.75 * sep + 0.4, 9);
    expect(revealFrame([1, 1], [1, 1]).halfWidthDeg).toBeCloseTo(0.4, 9);
    // Across the antimeridian the midpoint is the near one, not lon 0.
    expect(Math.abs(revealFrame([0, 179], [0, -179]).center[1])).toBeCloseTo(180, 6);
    // The map keeps both pins inside it even across the antimeridian (the map module's primitives: pins are the large circles).
    const m = mapSpec(revealFrame([0, 179], [0, -179]), [], [0, 179], [0, -179]);
    const pins = m.prims.filter((p) => p.t === "circle" && p.r > 5);
    expect(pins).toHaveLength(2);
    for (const p of pins) {
      expect(p.t === "circle" && p.x > 0 && p.x < m.size).toBe(true);
    }
    expect(pinsFrame([])).toBeNull();
  });

  it("summarises per model: median, shares within 1/25/200/750 km, verification", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 2, 3])).toBe(2.5);
    expect(median([])).toBeNull();
    const base = { turns: 4, tokensIn: 10, tokensOut: 5, latencyS: 1, errors: 0, match: 3, resolved: 1, mismatch: 1, viewErrors: 0 };
    const rows = summariseRun([
      { ...base, model: "b", reward: 0.5, score: 0.25, distanceKm: 0.5 },
      { ...base, model: "b", reward: null, score: 0, distanceKm: null },
      { ...base, model: "a", reward: 1, score: 0.9, distanceKm: 300 },
    ]);
    expect(rows.map((r) => r.model)).toEqual(["a", "b", "all models"]);
    // The unscored episode (no env reward) is counted apart, as geoeval's report does; views count for every episode.
    expect(rows[1]).toMatchObject({
      episodes: 1,
      unscored: 1,
      errored: 0,
      meanReward: 0.25,
      meanEnvReward: 0.5,
      medianDistanceKm: 0.5,
      within: [100, 100, 100, 100],
      checked: 8,
      match: 6,
      mismatch: 2,
    });
    expect(rows[0].within).toEqual([0, 0, 0, 100]);
    // Errored episodes (no turns) are counted apart under their model.
    const withErrored = summariseRun([{ ...base, model: "a", reward: 1, score: 1, distanceKm: 300 }], ["a", null]);
    expect(withErrored.map((r) => [r.model, r.episodes, r.errored])).toEqual([
      ["?", 0, 1],
      ["a", 1, 1],
      ["all models", 1, 2],
    ]);
    expect(withErrored[0].meanReward).toBeNull();
  });

  it("escapes trace strings in the server-rendered summary", () => {
    const row = summariseRun([
      {
        model: '<img src=x onerror="alert(1)">',
        reward: 1,
        score: 1,
        distanceKm: 1,
        turns: 1,
        tokensIn: 1,
        tokensOut: 1,
        latencyS: 1,
        errors: 0,
        match: 1,
        resolved: 0,
        mismatch: 0,
        viewErrors: 0,
      },
    ]);
    const html = summaryTable(row);
    expect(html).not.toContain("<img");
    expect(html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
  });

  it("writes actions as tool calls", () => {
    expect(toolCall({ action: "look", heading_deg: 90, fov_deg: 90 })).toBe("look(heading_deg=90, fov_deg=90)");
    expect(toolCall({ op: "move", direction: "forward" })).toBe('move(direction="forward")');
    expect(toolCall(null)).toBeNull();
    // Rounded for people: angles to 0.1 degree, coordinates to 4 decimals, other numbers to 2 (raw views keep the reply as recorded).
    expect(toolCall({ action: "look", heading_deg: -220.19516240133282, pitch_deg: 0.04, fov_deg: 90 })).toBe(
      "look(heading_deg=-220.2, pitch_deg=0, fov_deg=90)",
    );
    expect(toolCall({ action: "submit_guess", lat: 45.649512345, lon: 13.77681 })).toBe("submit_guess(lat=45.6495, lon=13.7768)");
    expect(toolCall({ action: "move", meters: 5.273740913385023, steps: 2 })).toBe("move(meters=5.27, steps=2)");
  });
});

describe("sweep maths and charts", () => {
  it("groups a sweep's attempts by arm and task with the report's numbers; attempts by number; the spread of counted ones", async () => {
    const report = boardReport(await readBoard([join(FIXTURES, "sweep")]));
    const a = (id: string, index: number, sample: number | null, score: number, env: number | null) => ({
      id,
      model: "synthetic-model",
      split: "eval",
      index,
      sample,
      score,
      env,
    });
    const s = summariseSweep(report, [
      a("x2", 1, 2, 0.2, 0.1),
      a("x0", 1, 0, 0.6, 0.5),
      a("x1", 1, 1, 0.4, 0.3),
      a("u", 1, 1, 0.9, null),
      a("y0", 2, 0, 0.9, 0.8),
    ]);
    expect(s.tasks.map((t) => [t.model, t.index, t.attempts.map((x) => x.id)])).toEqual([
      ["synthetic-model", 1, ["x0", "x1", "u", "x2"]],
      ["synthetic-model", 2, ["y0"]],
    ]);
    // k, mean and best are the report's (its own reading of the files), never recomputed here.
    const t1 = report.tasks.find((t) => t.index === 1)!.arms[0];
    expect(s.tasks[0]).toMatchObject({ k: t1.attempts, mean: t1.mean, best: t1.best });
    // The spread is over the counted attempts (the unscored one is left out): 0.2, 0.4, 0.6.
    expect(s.tasks[0].std).toBeCloseTo(Math.sqrt(0.08 / 3), 12);
    expect(s.tasks[0].range).toBeCloseTo(0.4, 12);
    expect(s.tasks[1]).toMatchObject({ std: null, range: null });
    expect(s.models[0].arm).toBe(report.arms[0]);
    expect(s.models[0].unscored).toBe(1);
    expect(s.models[0].meanStd).toBeCloseTo(s.tasks[0].std!, 12);
  });

  it("draws charts as plain SVG markup with escaped text and linked points", () => {
    const svgText = stepChart(
      [
        {
          name: "<r>",
          points: [
            { x: 0, y: 0.5, title: "<b>t</b>", href: "#step/0" },
            { x: 2, y: 1, title: "u" },
          ],
        },
      ],
      { key: "k", title: "a<b", yRange: [0, 1] },
    );
    expect(svgText).toMatch(/^<svg class="chart dyn" data-chart="k"/);
    expect(svgText).not.toMatch(/<b>|style=|<script/);
    expect(svgText).toContain("a&lt;b");
    expect(svgText).toContain('<a href="#step/0"><circle');
    expect(svgText.match(/<circle/g)).toHaveLength(2);
  });
});

describe("page file", () => {
  let html: string;
  beforeAll(() => {
    html = readFileSync(mixedOut, "utf8");
  });

  it("is one file with a strict CSP pinning its one inline script and stylesheet by hash", () => {
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)![1].replace(/&#39;/g, "'");
    expect(csp).toMatch(/^default-src 'none'; img-src data:; font-src data:; style-src 'sha256-[^']+'; script-src 'sha256-[^']+'/);
    expect(csp).not.toContain("unsafe");
    const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)];
    expect(scripts).toHaveLength(1);
    const sha = (s: string) => createHash("sha256").update(s, "utf8").digest("base64");
    expect(csp).toContain(`script-src 'sha256-${sha(scripts[0][1])}'`);
    const styles = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)];
    expect(styles).toHaveLength(1);
    expect(csp).toContain(`style-src 'sha256-${sha(styles[0][1])}'`);
    // Every <script ...> element is either the pinned one or inert JSON.
    const tags = html.match(/<script[^>]*>/g)!;
    const player = ["gr-player", "gr-player-ids", "gr-player-panos"].map((id) => `<script type="application/json" id="${id}">`);
    expect(tags.sort()).toEqual(
      ['<script type="application/json" id="gr-episodes">', '<script type="application/json" id="gr-images">', ...player, "<script>"].sort(),
    );
    // The hostile replies are in the file, but never as markup.
    expect(html).not.toContain("<img src=x");
    expect(html).not.toContain("<script>alert");
    expect(html).toContain("\\u003cscript\\u003ealert");
    // Nothing points outside the file.
    expect(html).not.toMatch(/(src|href)=["']?(https?:|\/\/)/i);
    expect(html).not.toMatch(/url\((?!data:)/);
  });

  it("stores each distinct view once, as WebP at the chosen size, verified against its recorded hash", async () => {
    const m = /<script type="application\/json" id="gr-images">([\s\S]*?)<\/script>/.exec(html)!;
    const images: string[] = JSON.parse(m[1]);
    // Distinct recorded view hashes, minus the two corrupted turns whose re-render is new.
    const recorded = new Set<string>();
    for (const e of mixedRaw) for (const t of e.turns) if (t.image_kind === "view" && t.image_sha256) recorded.add(t.image_sha256);
    expect(mixedResult.views).toBe(76);
    expect(images.length).toBe(mixedResult.images);
    expect(images.length).toBeLessThanOrEqual(recorded.size + corrupted.length);
    expect(images.length).toBeGreaterThanOrEqual(recorded.size - corrupted.length);
    const first = Buffer.from(images[0].replace(/^data:image\/webp;base64,/, ""), "base64");
    const meta = await sharp(first).metadata();
    expect(meta).toMatchObject({ format: "webp", width: 320, height: 320 });

    const eps = JSON.parse(/<script type="application\/json" id="gr-episodes">([\s\S]*?)<\/script>/.exec(html)![1]);
    // Unparseable turns repeat the previous view: same image index, one copy.
    const ep = eps.find((e: { id: string }) => e.id === "b9b50c59f425");
    const byTurn = new Map(ep.turns.map((t: { turn: number }) => [t.turn, t]));
    const t1 = byTurn.get(1) as { status: string; image: number };
    expect(t1.status).toBe("unparseable");
    expect(t1.image).toBe((byTurn.get(0) as { image: number }).image);
    // "clean" means nothing flagged: an episode with an unparseable turn is not clean.
    expect(ep.flags).toContain("unparseable");
    expect(ep.flags).not.toContain("clean");
    for (const e of eps as { flags: string[] }[]) expect(e.flags.includes("clean")).toBe(e.flags.every((f) => f === "clean"));
    // The corrupted turns carry a mismatch badge; everything else matches.
    for (const c of corrupted) {
      const t = eps.find((e: { id: string }) => e.id === c.episode_id).turns.find((x: { turn: number }) => x.turn === c.turn);
      expect(t.check).toBe("mismatch");
    }
    const checks = eps.flatMap((e: { turns: { check: string | null }[] }) => e.turns.map((t) => t.check)).filter(Boolean);
    expect(checks.filter((c: string) => c === "match" || c === "resolved")).toHaveLength(74);
    expect(checks).toContain("resolved");
  });

  it("gives the same bytes for the same inputs", async () => {
    const again = join(dir, "again.html");
    await buildPage({ episodes: [join(MIXED, "episodes.jsonl")], tasks: join(MIXED, "tasks.jsonl"), panos: join(MIXED, "panos"), out: again });
    expect(readFileSync(again).equals(readFileSync(mixedOut))).toBe(true);
    expect(readdirSync(dir).filter((f) => f.includes(".tmp-"))).toEqual([]);
  });
});

describe("page in Chromium", () => {
  it("shows the summary numbers computed independently from the JSONL", async () => {
    const { page, log, close } = await open(bothOut);
    const rows = await page.$$eval("#gr-summary tbody tr", (trs) =>
      trs.map((tr) => ({
        model: (tr as HTMLElement).dataset.model,
        cells: Object.fromEntries(
          [...tr.querySelectorAll("td[data-stat]")].map((td) => [
            (td as HTMLElement).dataset.stat,
            { value: (td as HTMLElement).dataset.value, text: td.textContent },
          ]),
        ),
        verified: (tr.querySelector('td[data-stat="verified"]') as HTMLElement).dataset,
      })),
    );
    expect(rows.map((r) => r.model)).toEqual(["haiku-4.5", "synthetic-model", "all models"]);
    const expectFor = (raw: RawEpisode[], row: (typeof rows)[number], match: number, mismatch: number) => {
      const rewards = raw.map((e) => e.outcome.reward);
      const dists = raw.map((e) => e.outcome.distance_km!).sort((a, b) => a - b);
      const mid = dists.length % 2 ? dists[(dists.length - 1) / 2] : (dists[dists.length / 2 - 1] + dists[dists.length / 2]) / 2;
      expect(Number(row.cells.episodes.value)).toBe(raw.length);
      // "reward" is geoeval's recomputed one; the stored one is "env reward", each named in its own column.
      const scores = raw.map((e) => geoevalReward(e.outcome));
      expect(Number(row.cells.mean_reward.value)).toBeCloseTo(scores.reduce((a, b) => a + b, 0) / raw.length, 12);
      expect(row.cells.mean_reward.text).toBe((scores.reduce((a, b) => a + b, 0) / raw.length).toFixed(4));
      expect(Number(row.cells.mean_env_reward.value)).toBeCloseTo(rewards.reduce((a, b) => a + b, 0) / raw.length, 12);
      expect(row.cells.not_counted.text).toBe("0");
      expect(Number(row.cells.median_distance_km.value)).toBeCloseTo(mid, 9);
      for (const k of [1, 25, 200, 750]) {
        // geoeval's rule: percent of the distances at most k km.
        expect(Number(row.cells[`within_${k}km_pct`].value)).toBeCloseTo((100 * dists.filter((d) => d <= k).length) / dists.length, 12);
      }
      expect(Number(row.cells.mean_turns.value)).toBeCloseTo(raw.reduce((a, e) => a + e.outcome.turns_used, 0) / raw.length, 12);
      expect(Number(row.verified.match)).toBe(match);
      expect(Number(row.verified.mismatch)).toBe(mismatch);
    };
    expectFor(triesteRaw, rows[0], 8, 0);
    expectFor(mixedRaw, rows[1], 74, 2);
    expectFor([...mixedRaw, ...triesteRaw], rows[2], 82, 2);
    expect(log.errors).toEqual([]);
    await close();
  });

  it("lands a deep link on the right turn, and moves with j/k and n/p", async () => {
    const { page, log, close } = await open(mixedOut, { hash: "#0ec192c0f90d/6" });
    expect(await currentTurn(page)).toMatchObject({ episode: "0ec192c0f90d", turn: 6 });
    const inView = await page.$eval("#t-0ec192c0f90d-6", (n) => {
      const r = n.getBoundingClientRect();
      return r.top >= -1 && r.top < innerHeight;
    });
    expect(inView).toBe(true);
    await page.keyboard.press("j");
    expect(await currentTurn(page)).toEqual({ episode: "0ec192c0f90d", turn: 7, hash: "#0ec192c0f90d/7" });
    await page.keyboard.press("k");
    await page.keyboard.press("k");
    expect(await currentTurn(page)).toMatchObject({ turn: 5 });
    // n: the next episode in list order (input order here), at its first turn.
    const order = mixedRaw.map((e) => e.episode_id);
    await page.keyboard.press("n");
    const next = order[order.indexOf("0ec192c0f90d") + 1];
    expect(await currentTurn(page)).toEqual({ episode: next, turn: 0, hash: `#${next}/0` });
    await page.keyboard.press("p");
    expect(await currentTurn(page)).toMatchObject({ episode: "0ec192c0f90d", turn: 0 });
    // Changing the address later also navigates.
    await page.evaluate(() => (location.hash = "#4b86cb1e4dca/9"));
    await page.waitForFunction(() => document.querySelector(".turn.current")?.id === "t-4b86cb1e4dca-9");
    // An id that is not in the page says so instead of showing the wrong episode.
    await page.evaluate(() => (location.hash = "#000000000000/3"));
    await page.waitForFunction(() => /Episode 000000000000 is not in this page/.test(document.getElementById("gr-detail")!.textContent!));
    expect(log.errors).toEqual([]);
    await close();
  });

  it("filters by country, status, reward and reply text, and sorts", async () => {
    const { page, close } = await open(mixedOut);
    const ids = () => page.$$eval("#gr-rows tr", (trs) => trs.map((t) => (t as HTMLElement).dataset.id));
    expect(await ids()).toEqual(mixedRaw.map((e) => e.episode_id));

    await page.selectOption("#f-country", "Moldova");
    expect(await ids()).toEqual(mixedRaw.filter((e) => e.task.country === "Moldova").map((e) => e.episode_id));
    await page.selectOption("#f-country", "");

    await page.selectOption("#f-status", "mismatch");
    expect((await ids()).sort()).toEqual([...new Set(corrupted.map((c) => c.episode_id))].sort());
    await page.selectOption("#f-status", "");

    // The minimum is on geoeval's recomputed reward (the "reward" column), not the stored env reward.
    await page.fill("#f-reward", "0.5");
    expect(await ids()).toEqual(mixedRaw.filter((e) => geoevalReward(e.outcome) >= 0.5).map((e) => e.episode_id));
    await page.fill("#f-reward", "");

    await page.fill("#f-q", "東京");
    const withText = mixedRaw.filter((e) => e.turns.some((t) => (t.model?.reply ?? "").includes("東京") || (t.model?.reasoning ?? "").includes("東京")));
    expect(withText.length).toBeGreaterThan(0);
    expect(withText.length).toBeLessThan(mixedRaw.length);
    expect(await ids()).toEqual(withText.map((e) => e.episode_id));
    await page.fill("#f-q", "");

    await page.click('th[data-sort="score"]');
    expect(await ids()).toEqual([...mixedRaw].sort((a, b) => geoevalReward(b.outcome) - geoevalReward(a.outcome)).map((e) => e.episode_id));
    await page.click('th[data-sort="score"]');
    expect(await ids()).toEqual([...mixedRaw].sort((a, b) => geoevalReward(a.outcome) - geoevalReward(b.outcome)).map((e) => e.episode_id));
    await page.click('th[data-sort="env"]');
    expect(await ids()).toEqual([...mixedRaw].sort((a, b) => b.outcome.reward - a.outcome.reward).map((e) => e.episode_id));
    expect(await page.textContent("#gr-count")).toBe(`${mixedRaw.length} episodes`);
    await close();
  });

  it("follows the system's dark mode", async () => {
    const light = await open(mixedOut);
    const dark = await open(mixedOut, { dark: true });
    const bg = (p: Page) => p.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
    expect(await bg(light.page)).toBe("rgb(246, 245, 241)");
    expect(await bg(dark.page)).toBe("rgb(21, 23, 26)");
    await light.close();
    await dark.close();
  });

  it("decodes images only as they scroll into view, and makes no request of any kind", async () => {
    const { page, log, close } = await open(mixedOut, { hash: "#b9b50c59f425" });
    const state = () => page.$$eval("img[data-img]", (imgs) => imgs.map((i) => (i as HTMLImageElement).getAttribute("src") !== null));
    const before = await state();
    expect(before.length).toBeGreaterThan(8);
    expect(before[0]).toBe(true);
    expect(before[before.length - 1]).toBe(false);
    await page.$eval("#t-b9b50c59f425-10", (n) => n.scrollIntoView());
    await page.waitForFunction(() => {
      const img = document.querySelector("#t-b9b50c59f425-10 img") as HTMLImageElement;
      return img.complete && img.naturalWidth === 320;
    });
    // Visit every episode and open every collapsed text: still nothing fetched.
    for (const e of mixedRaw) {
      await page.evaluate((id) => (location.hash = `#${id}/0`), e.episode_id);
      await page.waitForFunction((id) => (document.getElementById("gr-detail") as HTMLElement).dataset.episode === id, e.episode_id);
    }
    expect(log.requests).toEqual([`file://${mixedOut}`]);
    expect(log.console.filter((c) => /Content Security Policy|Refused/i.test(c))).toEqual([]);
    await close();
  });

  it("shows hostile replies verbatim and runs nothing from them", async () => {
    const { page, log, close } = await open(mixedOut);
    await page.exposeFunction("__unused", () => undefined); // bindings are the only way in from outside
    let checked = 0;
    for (const e of mixedRaw) {
      await page.evaluate((id) => (location.hash = `#${id}/0`), e.episode_id);
      await page.waitForFunction((id) => (document.getElementById("gr-detail") as HTMLElement).dataset.episode === id, e.episode_id);
      await page.$$eval("details", (ds) => ds.forEach((d) => ((d as HTMLDetailsElement).open = true)));
      const shown = await page.$$eval("#gr-detail .turn", (cards) =>
        cards.map((c) => ({
          turn: Number((c as HTMLElement).dataset.turn),
          texts: [...c.querySelectorAll(".reply pre.raw, details.reasoning pre.text")].map((p) => p.textContent),
        })),
      );
      for (const t of e.turns) {
        const card = shown.find((s) => s.turn === t.turn)!;
        const expected = [t.model?.reply, t.model?.reasoning].filter((x): x is string => typeof x === "string" && (x.length > 0 || x === t.model?.reply));
        expect(card.texts).toEqual(expected);
        checked += expected.length;
      }
    }
    expect(checked).toBeGreaterThan(80);
    const injected = await page.evaluate(() => ({
      scripts: document.scripts.length,
      imgX: document.querySelectorAll('img[src="x"], img:not([data-img])').length,
      handlers: [...document.querySelectorAll("*")].filter((n) => [...n.attributes].some((a) => a.name.startsWith("on"))).length,
    }));
    // The page's script and its JSON tables: episodes, images and the player's three.
    expect(injected).toEqual({ scripts: 6, imgX: 0, handlers: 0 });
    expect(log.dialogs).toEqual([]);
    expect(log.errors).toEqual([]);
    await close();
  });

  it("its CSP stops even markup that slipped past escaping", async () => {
    const { page, log, close } = await open(mixedOut);
    const ran = await page.evaluate(async () => {
      const w = window as unknown as { __ran?: number };
      const s = document.createElement("script");
      s.textContent = "window.__ran = 1";
      document.body.appendChild(s);
      const div = document.createElement("div");
      div.innerHTML = '<img src="x" onerror="window.__ran = 2"><svg><image href="https://example.com/a.png"/></svg>';
      document.body.appendChild(div);
      await new Promise((r) => setTimeout(r, 300));
      return w.__ran ?? 0;
    });
    expect(ran).toBe(0);
    // Chromium announces the two attempts, and the policy refuses both before anything is fetched.
    const attempts = log.requests.filter((u) => u !== `file://${mixedOut}`);
    expect(attempts).toHaveLength(2);
    expect(log.failed.sort()).toEqual(attempts.map((u) => `${u} csp`).sort());
    expect(log.console.some((c) => /Content Security Policy/.test(c))).toBe(true);
    await close();
  });

  it("is readable on a phone: one column, no sideways scrolling", async () => {
    const { page, close } = await open(mixedOut, { width: 390, height: 844, hash: "#1ae5a0c90017/6" });
    const m = await page.evaluate(() => ({
      overflow: document.documentElement.scrollWidth - innerWidth,
      card: (document.querySelector(".turn.current") as HTMLElement).getBoundingClientRect().width,
    }));
    expect(m.overflow).toBeLessThanOrEqual(0);
    expect(m.card).toBeLessThanOrEqual(390);
    expect(m.card).toBeGreaterThan(300);
    await close();
  });
});

describe("the episode list fits its panel", () => {
  // Two models (so the model column shows) and mismatch badges (the widest last cell), at the
  // widths around the breakpoint where the verdict column joins (1500 px).
  it.each([1280, 1400, 1500, 1920])("at a %i px window no column is cut", async (width) => {
    const { page, close } = await open(bothOut, { width });
    const m = await page.evaluate(() => {
      const aside = document.querySelector("aside.list") as HTMLElement;
      const heads = [...aside.querySelectorAll("table.episodes thead th")].filter((th) => getComputedStyle(th).display !== "none");
      const badges = [...aside.querySelectorAll("table.episodes tbody .badge")].map((b) => b.getBoundingClientRect().right);
      return {
        heads: heads.map((th) => th.textContent),
        lastRight: heads[heads.length - 1].getBoundingClientRect().right,
        badgeRight: Math.max(...badges),
        panelRight: aside.getBoundingClientRect().left + aside.clientWidth,
        overflow: aside.scrollWidth - aside.clientWidth,
      };
    });
    await page.locator("aside.list").screenshot({ path: join(dir, `list-${width}.png`) });
    expect(m.heads).toContain("model");
    expect(m.heads.at(-1)).toBe("status");
    expect(m.overflow).toBeLessThanOrEqual(0);
    expect(m.lastRight).toBeLessThanOrEqual(m.panelRight + 0.5);
    expect(m.badgeRight).toBeLessThanOrEqual(m.panelRight + 0.5);
    await close();
  });
});

describe("georeplay page (CLI)", () => {
  it("writes the page, reports it, and exits 1 because two views mismatch", () => {
    const out = join(dir, "cli", "run.html");
    const r = runCli([
      "page",
      join(MIXED, "episodes.jsonl"),
      "--tasks",
      join(MIXED, "tasks.jsonl"),
      "--panos",
      join(MIXED, "panos"),
      "-o",
      out,
      "--image-size",
      "200",
    ]);
    expect(r.stdout).toMatch(/^wrote .*run\.html · 10 episodes · 76 views \(\d+ distinct images stored\) · [\d.]+ MB\n$/);
    expect(r.stderr).toContain("2 view(s) do not match their recorded hash");
    expect(r.code).toBe(1);
    expect(existsSync(out)).toBe(true);
  });

  it("also works when built from the TypeScript sources through tsx (esbuild-transformed client)", async () => {
    const out = join(dir, "tsx.html");
    const script = join(dir, "build.mts");
    writeFileSync(
      script,
      `import { buildPage } from ${JSON.stringify(join(ROOT, "envs", "geoguesser", "src", "page", "build.ts"))};\n` +
        `await buildPage({ episodes: [${JSON.stringify(join(TRIESTE, "episodes.jsonl"))}], tasks: ${JSON.stringify(join(TRIESTE, "tasks.jsonl"))}, panos: ${JSON.stringify(join(TRIESTE, "panos"))}, out: ${JSON.stringify(out)} });\n`,
    );
    const r = spawnSync(process.execPath, ["--import", "tsx", script], { cwd: ROOT, encoding: "utf8" });
    expect(r.stderr).toBe("");
    const { page, log, close } = await open(out, { hash: "#90a9d3eba5ce/4" });
    expect(await currentTurn(page)).toMatchObject({ episode: "90a9d3eba5ce", turn: 4 });
    expect(log.errors).toEqual([]);
    await close();
  });

  it("trieste: every view verified, exit 0", () => {
    const out = join(dir, "trieste.html");
    const r = runCli(["page", join(TRIESTE, "episodes.jsonl"), "--tasks", join(TRIESTE, "tasks.jsonl"), "--panos", join(TRIESTE, "panos"), "-o", out]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(readFileSync(out, "utf8")).toContain("all 8 recorded views reproduce byte for byte");
  });

  it("rejects bad input with a specific message, no stack, and leaves an existing page alone", () => {
    const out = join(dir, "keep.html");
    writeFileSync(out, "previous");
    const base = [join(MIXED, "episodes.jsonl"), "--tasks", join(MIXED, "tasks.jsonl"), "--panos", join(MIXED, "panos"), "-o", out];
    const cases: [string[], RegExp][] = [
      [["page", ...base.slice(0, 3), "--panos", join(dir, "nope"), "-o", out], /--panos .*nope: no such file/],
      [["page", join(dir, "missing.jsonl"), ...base.slice(1)], /missing\.jsonl: no such file/],
      [["page", ...base, "--image-size", "2000"], /--image-size 2000: expected a whole number of pixels from 32 to 640/],
      [["page", ...base, "--image-size", "big"], /expected a whole number >= 1, got "big"/],
    ];
    for (const [args, msg] of cases) {
      const r = runCli(args);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(msg);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
    expect(readFileSync(out, "utf8")).toBe("previous");
    expect(readdirSync(dir).filter((f) => f.includes(".tmp-"))).toEqual([]);
  });
});

/** Every line of a JSONL file as parsed JSON. */
const jsonLines = (file: string): any[] =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
const meanOf = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const rowCells = (page: Page, selector: string) =>
  page.$$eval(selector, (trs) =>
    trs.map((tr) => ({
      data: { ...(tr as HTMLElement).dataset },
      cells: Object.fromEntries(
        [...tr.querySelectorAll("td[data-stat]")].map((td) => [(td as HTMLElement).dataset.stat, (td as HTMLElement).dataset.value]),
      ) as Record<string, string>,
      links: [...tr.querySelectorAll("a.ep-link")].map((a) => ({
        id: (a as HTMLElement).dataset.id!,
        sample: (a as HTMLElement).dataset.sample ?? (a.parentElement as HTMLElement).dataset.sample ?? null,
      })),
    })),
  );

describe("page of every recording format (training runs: page-training.test.ts)", () => {
  const sweepDir = join(FIXTURES, "sweep");
  const sweepOut = join(dir, "sweep.html");
  const exampleDir = join(FIXTURES, "example-rollout");
  const exampleOut = join(dir, "example.html");

  beforeAll(async () => {
    await buildPage({ episodes: [sweepDir], tasks: join(MIXED, "tasks.jsonl"), panos: join(MIXED, "panos"), out: sweepOut });
    await buildPage({ episodes: [exampleDir], out: exampleOut });
  });

  it("sweep (one arm, no --baseline): a board page with mean-of-k, best-of-k and the attempts of each task side by side, as computed from the JSONL files (geoeval's reward)", async () => {
    // Independently: every episodes.jsonl under the sweep; a task's attempts share model_name x task.index;
    // each is scored with geoeval's recomputed reward (the numbers of `georeplay report`).
    const files: string[] = [];
    const walk = (d: string) => {
      for (const e of readdirSync(d, { withFileTypes: true })) {
        if (e.isDirectory()) walk(join(d, e.name));
        else if (e.name === "episodes.jsonl") files.push(join(d, e.name));
      }
    };
    walk(sweepDir);
    expect(files).toHaveLength(6);
    const eps = files.flatMap(jsonLines).filter((e) => Array.isArray(e.turns));
    const tasks = new Map<string, any[]>();
    for (const e of eps) {
      const key = `${e.model_name}\u0000${e.task.index}`;
      tasks.set(key, [...(tasks.get(key) ?? []), e]);
    }
    const models = [...new Set(eps.map((e) => e.model_name as string))];
    expect(models).toHaveLength(1);
    const { page, log, close } = await open(sweepOut);
    // A board page that opens at its tables, even with one arm.
    expect(await page.evaluate(() => scrollY)).toBe(0);
    const modelRows = await rowCells(page, "#gr-board-arms tbody tr");
    expect(modelRows.map((r) => r.data.arm)).toEqual(models);
    for (const row of modelRows) {
      const mine = [...tasks.entries()].filter(([k]) => k.startsWith(`${row.data.arm}\u0000`)).map(([, v]) => v.map((e) => geoevalReward(e.outcome)));
      expect(Number(row.cells.tasks)).toBe(mine.length);
      expect(Number(row.cells.episodes)).toBe(mine.flat().length);
      expect(Number(row.cells.k)).toBeCloseTo(meanOf(mine.map((r) => r.length)), 12);
      expect(Number(row.cells.mean_of_k)).toBeCloseTo(meanOf(mine.map(meanOf)), 12);
      expect(Number(row.cells.best_of_k)).toBeCloseTo(meanOf(mine.map((r) => Math.max(...r))), 12);
    }
    // One arm: no second arm to pick, no compare link; the attempts of each task in attempt order.
    expect(await page.locator("#t-vs, #t-rows a.cmp-link").count()).toBe(0);
    const taskRows = await rowCells(page, "#t-rows tr");
    expect(taskRows).toHaveLength(tasks.size);
    for (const row of taskRows) {
      const attempts = tasks.get(`${row.data.arm}\u0000${row.data.task}`)!;
      expect(row.links.map((l) => l.id).sort()).toEqual(attempts.map((e) => e.episode_id).sort());
      expect(row.links.map((l) => Number(l.sample))).toEqual(attempts.map((e) => e.task.sample).sort((a: number, b: number) => a - b));
      const rewards = attempts.map((e) => geoevalReward(e.outcome));
      expect(Number(row.cells.best)).toBe(Math.max(...rewards));
      expect(Number(row.cells.mean)).toBeCloseTo(meanOf(rewards), 12);
      expect(Number(row.cells.k)).toBe(attempts.length);
    }
    // One click opens an attempt, shown where it can be seen.
    const target = taskRows[0].links[2].id;
    await page.click(`#t-rows a[data-id="${target}"]`);
    await page.waitForFunction((id) => (document.getElementById("gr-detail") as HTMLElement).dataset.episode === id, target);
    expect(await page.textContent("#gr-detail .meta")).toMatch(/attempt \d/);
    expect(await page.$eval("#gr-detail", (d) => d.getBoundingClientRect().top < innerHeight)).toBe(true);
    expect(log.errors).toEqual([]);
    expect(log.requests).toEqual([`file://${sweepOut}`]);
    await close();
  });

  it("example-rollout folders: the recorded images as they are, badged as recorded, overwritten ones flagged", async () => {
    const trace = jsonLines(join(exampleDir, "trace.jsonl"));
    const lastLine = new Map<number, number>();
    trace.forEach((e, i) => lastLine.set(e.task_index, i));
    const { page, log, close } = await open(exampleOut);
    const listBadges = await page.$$eval("#gr-rows tr", (trs) => trs.map((t) => t.querySelector(".badge")!.textContent));
    expect(listBadges).toEqual(trace.map((e, i) => (lastLine.get(e.task_index) === i ? "recorded" : "overwritten")));
    for (const [i, e] of trace.entries()) {
      const id = `example-rollout-t${String(e.task_index).padStart(3, "0")}-L${i + 1}`;
      await page.evaluate((x) => (location.hash = `#${x}/0`), id);
      await page.waitForFunction((x) => (document.getElementById("gr-detail") as HTMLElement).dataset.episode === x, id);
      const badges = await page.$$eval("#gr-detail .turn .media .badge", (bs) => bs.map((b) => b.textContent));
      const withImage = e.trace.filter((t: { image_kind: string }) => t.image_kind === "view" || t.image_kind === "map").length;
      expect(badges).toHaveLength(withImage);
      const want = lastLine.get(e.task_index) === i ? "recorded image" : "recorded image · overwritten";
      expect(new Set(badges)).toEqual(new Set([want]));
      expect(badges.some((b) => /match/.test(b!))).toBe(false);
    }
    // The first image on screen decodes from the page itself.
    await page.waitForFunction(() => {
      const img = document.querySelector("#gr-detail .turn img") as HTMLImageElement | null;
      return img !== null && img.complete && img.naturalWidth > 0;
    });
    expect(await page.textContent("header.top")).toContain("recorded images");
    expect(log.errors).toEqual([]);
    expect(log.requests).toEqual([`file://${exampleOut}`]);
    await close();
  });
});

describe("georeplay page: --json and incomplete input", () => {
  const mixedArgs = (out: string, episodes = join(MIXED, "episodes.jsonl"), panos = join(MIXED, "panos")) => [
    "page",
    episodes,
    "--tasks",
    join(MIXED, "tasks.jsonl"),
    "--panos",
    panos,
    "-o",
    out,
  ];

  it("--json prints one stable JSON summary and nothing else on stdout", () => {
    const out = join(dir, "json", "run.html");
    const r = runCli([...mixedArgs(out), "--json"]);
    expect(r.code).toBe(1);
    const j = JSON.parse(r.stdout);
    expect(Object.keys(j)).toEqual([
      "out",
      "written",
      "partial",
      "bytes",
      "episodes",
      "counted",
      "unscored",
      "errored",
      "formats",
      "views",
      "images",
      "recorded_images",
      "checked",
      "match",
      "mismatch",
      "resolved",
      "problems",
      "errored_episodes",
      "warnings",
      "exit_code",
      "form",
      "files",
      "views_embedded",
      "views_left_out",
    ]);
    expect(j).toMatchObject({ out, written: true, partial: false, episodes: 10, views: 76, checked: 76, match: 74, mismatch: 2, problems: [], exit_code: 1 });
    expect(j).toMatchObject({ form: "file", files: 1, views_embedded: j.images, views_left_out: 0 });
    expect(j.formats).toEqual({ eval: 10, train: 0, example: 0 });
    expect(j.bytes).toBe(readFileSync(out).length);
    expect(r.stderr).toContain("2 view(s) do not match");
    // Same inputs, same report.
    expect(runCli([...mixedArgs(out), "--json"]).stdout).toBe(r.stdout);
  });

  it("example-rollout folders need no --tasks or --panos", () => {
    const out = join(dir, "example-cli.html");
    const r = runCli(["page", join(FIXTURES, "example-rollout"), "-o", out, "--json"]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ written: true, episodes: 10, views: 0, recorded_images: { checked: 88, ok: 88 }, formats: { example: 10 } });
  });

  it("writes nothing when the run cannot be read completely, and says how to get a partial page", () => {
    const bad = join(dir, "bad-run.jsonl");
    writeFileSync(bad, readFileSync(join(MIXED, "episodes.jsonl"), "utf8") + '{"schema_version": 2, "episode_id": "x", "turns": [\n');
    const out = join(dir, "bad.html");
    writeFileSync(out, "previous");
    const r = runCli(mixedArgs(out, bad));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/bad-run\.jsonl:11: /);
    expect(r.stderr).toContain("no page written; rerun with --partial to write a page of what could be read");
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stdout).toBe("");
    expect(readFileSync(out, "utf8")).toBe("previous");
    const fresh = join(dir, "bad-fresh.html");
    const j = runCli([...mixedArgs(fresh, bad), "--json"]);
    expect(j.code).toBe(2);
    expect(JSON.parse(j.stdout)).toMatchObject({
      written: false,
      partial: false,
      bytes: 0,
      episodes: 10,
      exit_code: 2,
      problems: [{ line: 11, episode_id: null }],
    });
    expect(existsSync(fresh)).toBe(false);
    expect(readdirSync(dir).filter((f) => f.includes(".tmp-"))).toEqual([]);
  });

  it("a missing panorama: nothing written either", () => {
    const panos = join(dir, "panos-missing");
    cpSync(join(MIXED, "panos"), panos, { recursive: true });
    rmSync(join(panos, "577722016737783.jpg"));
    const out = join(dir, "nopano.html");
    const r = runCli(mixedArgs(out, join(MIXED, "episodes.jsonl"), panos));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/577722016737783/);
    expect(r.stderr).toContain("no page written; rerun with --partial");
    expect(existsSync(out)).toBe(false);
  });

  it("--partial writes the page of what could be read, problems listed first, exit code still 2", async () => {
    const bad = join(dir, "bad-run.jsonl");
    const out = join(dir, "partial.html");
    const r = runCli([...mixedArgs(out, bad), "--partial"]);
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/^wrote .*partial\.html · 10 episodes/);
    expect(r.stderr).toContain("partial page: 1 problem(s)");
    const { page, log, close } = await open(out);
    const box = await page.$eval("#gr-incomplete", (n) => ({
      text: n.textContent!,
      role: n.getAttribute("role"),
      top: n.getBoundingClientRect().top,
      before: !!(n.compareDocumentPosition(document.getElementById("gr-summary")!) & Node.DOCUMENT_POSITION_FOLLOWING),
    }));
    expect(box.text).toContain("Partial page: 1 problem(s)");
    expect(box.text).toMatch(/bad-run\.jsonl:11: /);
    expect(box).toMatchObject({ role: "alert", before: true });
    expect(box.top).toBeLessThan(200);
    expect(await page.textContent("#gr-count")).toBe("10 episodes");
    expect(log.errors).toEqual([]);
    await close();
  });
});
