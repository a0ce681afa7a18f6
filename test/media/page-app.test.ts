/**
 * The pages as people read them (issue 21), in Debian's Chromium with real
 * clicks and keys, on a 4-arm board the other page tests have not seen
 * (test/board-fixture.ts makeFourArmBoard: one unscored duplicate of
 * attempt 1 on base, a Markdown reply with XSS payloads), built with and
 * without --baseline (one board page either way): one number per fact
 * (every mean-of-k equals `report --json`'s), the per-task table sorted and
 * filtered, compare paired by attempt number for any two arms, Markdown,
 * prompts and config, search with
 * highlights, a filter expression, state in the address (reload, Back,
 * Forward), uncut ids, enlarged views and the filtered rows as CSV.
 */
import { describe, expect, it, beforeAll, afterAll } from "vitest";
import { mapRings, svgPath } from "../../video/map/paths.ts";
import { readMapCell } from "../../src/film/shared/map-data.ts";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createHash } from "node:crypto";
import { gunzipSync } from "node:zlib";
import { type Browser, type Page } from "playwright-core";
import { launchChromium } from "../browser.ts";
import { MIXED, runCli } from "../helpers.ts";
import { makeFourArmBoard } from "../board-fixture.ts";
import type { Report } from "../../envs/geoguesser/replay/board/report-schema.ts";
import type { TaskChunk } from "../../envs/geoguesser/src/page/board/data.ts";

const dir = mkdtempSync(join(tmpdir(), "georeplay-page-app-"));
const boardOut = join(dir, "board.html");
/** The same board without --baseline. */
const unpairedOut = join(dir, "unpaired.html");
/** A run page: one of base's episodes files. */
const runOut = join(dir, "run.html");
let browser: Browser;
let report: Report;
/** `report --json` without --baseline. */
let plainReport: Report;
let fixture: ReturnType<typeof makeFourArmBoard>;

beforeAll(async () => {
  fixture = makeFourArmBoard(join(dir, "board"));
  const r = runCli(["report", fixture.dir, "--baseline", "base", "--json"]);
  expect(r.code, r.stderr).toBe(0);
  report = JSON.parse(r.stdout);
  const plain = runCli(["report", fixture.dir, "--json"]);
  expect(plain.code, plain.stderr).toBe(0);
  plainReport = JSON.parse(plain.stdout);
  const common = ["--tasks", join(MIXED, "tasks.jsonl"), "--panos", join(MIXED, "panos"), "--no-progress"];
  // The sweep fixture has drifted views on purpose: exit 1, page written.
  expect(runCli(["page", fixture.dir, ...common, "--baseline", "base", "-o", boardOut]).code).toBe(1);
  expect(runCli(["page", fixture.dir, ...common, "-o", unpairedOut]).code).toBe(1);
  expect(runCli(["page", join(fixture.dir, "base", "pass-0", "shard-0", "episodes.jsonl"), ...common, "-o", runOut]).code).toBeLessThan(2);
  browser = await launchChromium();
}, 600_000);

afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function open(file: string, hash = "", width = 1366) {
  const context = await browser.newContext({ viewport: { width, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  const log = { requests: [] as string[], console: [] as string[], errors: [] as string[], dialogs: [] as string[] };
  page.on("request", (r) => log.requests.push(r.url()));
  page.on("console", (m) => log.console.push(`${m.type()}: ${m.text()}`));
  page.on("pageerror", (e) => log.errors.push(e.message));
  page.on("dialog", (d) => {
    log.dialogs.push(d.message());
    void d.dismiss();
  });
  await page.goto(`file://${file}${hash}`);
  await page.waitForFunction(() => document.documentElement.dataset.ready === "1");
  await page.waitForLoadState("load");
  return { page, log, close: () => context.close() };
}

/** Every record of every episodes.jsonl under a folder. */
function readEpisodes(d: string): { model_name: string; task: { index: number }; outcome?: { verdict?: string } }[] {
  return readdirSync(d, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name === "episodes.jsonl")
    .flatMap((e) =>
      readFileSync(join(e.parentPath, e.name), "utf8")
        .split("\n")
        .filter((l) => l.trim())
        .map((l) => JSON.parse(l)),
    );
}

const shownEpisode = (page: Page, id: string) => page.waitForFunction((x) => (document.getElementById("gr-detail") as HTMLElement).dataset.episode === x, id);
const listIds = (page: Page) => page.$$eval("#gr-rows tr[data-id]", (trs) => trs.map((t) => (t as HTMLElement).dataset.id!));
const statRows = (page: Page, sel: string, key: string) =>
  page.$$eval(
    sel,
    (trs, k) =>
      trs.map((tr) => ({
        key: (tr as HTMLElement).dataset[k],
        v: Object.fromEntries([...tr.querySelectorAll("td[data-stat]")].map((td) => [(td as HTMLElement).dataset.stat, (td as HTMLElement).dataset.value])),
      })),
    key,
  );

describe("one number per fact", () => {
  it("the board page with and without --baseline shows report --json's arms, behaviour and counts (the same engine object)", async () => {
    expect(report.arms.map((a) => a.arm).sort()).toEqual(["base", "ckpt-a", "ckpt-b", "sonnet-5"]);
    expect(report.dropped_by_arm).toEqual([
      { arm: "base", episodes: 1 },
      { arm: "ckpt-b", episodes: 1 },
    ]);
    for (const [file, want] of [
      [boardOut, report],
      [unpairedOut, plainReport],
    ] as const) {
      const { page, log, close } = await open(file);
      const rows = await statRows(page, "#gr-board-arms tbody tr", "arm");
      expect(rows.map((r) => r.key)).toEqual(want.arms.map((a) => a.arm));
      rows.forEach((r, i) => {
        const a = want.arms[i];
        expect(Number(r.v.mean_of_k), `${file} ${a.arm}`).toBe(a.mean_of_k);
        expect(Number(r.v.best_of_k)).toBe(a.best_of_k);
        expect(Number(r.v.k)).toBe(a.k);
        expect(Number(r.v.tasks)).toBe(a.tasks);
        expect(Number(r.v.episodes)).toBe(a.episodes);
        expect(Number(r.v.median_km)).toBe(a.median_km);
      });
      const behaviour = await statRows(page, "#gr-board-behaviour tbody tr", "arm");
      expect(behaviour.map((r) => r.key)).toEqual(want.arms.map((a) => a.arm));
      behaviour.forEach((r, i) => {
        const a = want.arms[i] as unknown as Record<string, number | null>;
        for (const [stat, v] of Object.entries(r.v)) expect(v, `${file} ${r.key} ${stat}`).toBe(a[stat] === null ? "" : String(a[stat]));
      });
      // The counts: the report's scored episodes and its dropped note; the list holds every episode, the unscored too.
      expect(await page.textContent("#gr-board-h")).toBe(
        `Board: ${want.episodes} episodes (+ ${want.dropped_unscored} unscored: not counted) over ${want.arms.length} arm(s)`,
      );
      expect(await page.textContent("#gr-board")).toContain(
        `Not counted, as geoeval's report leaves them out: ${want.dropped_unscored} unscored (by arm: base 1, ckpt-b 1)`,
      );
      expect(await page.textContent("#gr-count")).toBe(`${want.episodes} episodes (+ ${want.dropped_unscored} unscored: not counted)`);
      expect(log.errors).toEqual([]);
      await close();
    }
  });

  it("without --baseline: no paired table or forest plot, the page says how to get them", async () => {
    const { page, close } = await open(unpairedOut);
    expect(await page.locator("#gr-board-paired, svg.forest").count()).toBe(0);
    expect(await page.textContent("#gr-board-unpaired")).toMatch(/--baseline ARM for the paired deltas .* and the forest plot/);
    expect(await page.textContent("#gr-board .explain")).toContain("The numbers of georeplay report (geoeval");
    await close();
  });

  it("per task (no --baseline): each arm's report numbers beside any second arm, attempts by attempt number, the unscored duplicate marked", async () => {
    const { page, log, close } = await open(unpairedOut);
    // The top two arms by mean-of-k by default.
    expect(await page.$eval("#t-arm", (s) => (s as HTMLSelectElement).value)).toBe(plainReport.arms[0].arm);
    expect(await page.$eval("#t-vs", (s) => (s as HTMLSelectElement).value)).toBe(plainReport.arms[1].arm);
    for (const [arm, vs] of [
      ["base", "ckpt-b"],
      ["sonnet-5", "base"],
    ]) {
      await page.selectOption("#t-arm", arm);
      await page.selectOption("#t-vs", vs);
      const rows = await page.$$eval("#t-rows tr", (trs) =>
        trs.map((tr) => ({
          task: Number((tr as HTMLElement).dataset.task),
          v: Object.fromEntries([...tr.querySelectorAll("td[data-stat]")].map((td) => [(td as HTMLElement).dataset.stat, (td as HTMLElement).dataset.value])),
          link: (tr.querySelector("a.cmp-link") as HTMLAnchorElement).getAttribute("href"),
          attempts: [...tr.querySelectorAll("td.attempts")].map((td) =>
            [...td.querySelectorAll("a.ep-link")].map((a) => {
              const d = (a as HTMLElement).dataset;
              return { id: d.id!, sample: d.sample!, counted: d.counted!, title: (a as HTMLElement).title };
            }),
          ),
        })),
      );
      expect(rows.map((r) => r.task)).toEqual(plainReport.tasks.map((t) => t.index));
      for (const r of rows) {
        const t = plainReport.tasks.find((x) => x.index === r.task)!;
        const mine = t.arms.find((a) => a.arm === arm)!;
        const other = t.arms.find((a) => a.arm === vs)!;
        expect(Number(r.v.mean)).toBe(mine.mean);
        expect(Number(r.v.best)).toBe(mine.best);
        expect(Number(r.v.k)).toBe(mine.attempts);
        expect(Number(r.v.base_mean)).toBe(other.mean);
        expect(Number(r.v.delta)).toBe(mine.mean - other.mean);
        expect(r.link).toBe(`#compare/${r.task}/${arm}/${vs}`);
        expect(r.attempts[0].filter((x) => x.counted === "true")).toHaveLength(mine.attempts);
        expect(r.attempts[1].filter((x) => x.counted === "true")).toHaveLength(other.attempts);
      }
      if (arm === "base") {
        const dup = rows.flatMap((r) => r.attempts[0]).find((x) => x.id === fixture.duplicate)!;
        expect(dup).toMatchObject({ sample: "1", counted: "false" });
        expect(dup.title).toMatch(/attempt 1 .*not counted: unscored/);
      }
    }
    expect(await page.evaluate(() => location.hash)).toBe("#?tarm=sonnet-5&tvs=base");
    expect(log.errors).toEqual([]);
    await close();
  });
});

describe("the board page without --baseline", () => {
  it("opens at the top, the report's tables first, never scrolled to an episode", async () => {
    const { page, log, close } = await open(unpairedOut);
    await page.waitForTimeout(300);
    const m = await page.evaluate(() => ({
      y: scrollY,
      board: document.getElementById("gr-board")!.getBoundingClientRect().top,
      tasks: document.getElementById("gr-tasks")!.getBoundingClientRect().top,
      detail: (document.getElementById("gr-detail") as HTMLElement).dataset.episode ?? null,
      hash: location.hash,
    }));
    expect(m.y).toBe(0);
    expect(m.board).toBeLessThan(200);
    expect(m.board).toBeLessThan(m.tasks);
    expect(m.detail).toBeNull();
    expect(m.hash).toBe("");
    expect(log.errors).toEqual([]);
    await close();
  });

  it("a header click sorts the per-task table (again reverses it); country, verdict and text filter it; the address keeps it all", async () => {
    const { page, log, close } = await open(unpairedOut);
    const tasks = () => page.$$eval("#t-rows tr", (trs) => trs.map((t) => Number((t as HTMLElement).dataset.task)));
    const col = (stat: string) => page.$$eval(`#t-rows td[data-stat="${stat}"]`, (tds) => tds.map((td) => Number((td as HTMLElement).dataset.value)));
    await page.click('#gr-task-table th[data-sort="mean"]');
    const down = await col("mean");
    expect(down).toEqual([...down].sort((a, b) => b - a));
    expect(await page.getAttribute('#gr-task-table th[data-sort="mean"]', "aria-sort")).toBe("descending");
    await page.click('#gr-task-table th[data-sort="mean"]');
    expect(await col("mean")).toEqual([...down].reverse());
    await page.click('#gr-task-table th[data-sort="delta"]');
    const deltas = await col("delta");
    expect(deltas).toEqual([...deltas].sort((a, b) => b - a));
    expect(await page.evaluate(() => location.hash)).toBe("#?torder=delta%3A-1");
    // Reload keeps the order.
    await page.reload();
    await page.waitForFunction(() => document.documentElement.dataset.ready === "1");
    expect(await col("delta")).toEqual(deltas);
    await page.click('#gr-task-table th[data-sort="task"]');
    expect(await tasks()).toEqual(plainReport.tasks.map((t) => t.index));
    // Filters: country, a verdict of the arm's attempts, and text (a task, a country or an episode id).
    await page.selectOption("#t-country", "Moldova");
    expect(await tasks()).toEqual([1]);
    expect(await page.textContent("#t-count")).toBe(`1 of ${plainReport.tasks.length} tasks`);
    await page.selectOption("#t-country", "");
    await page.fill("#t-q", "belgium");
    expect(await tasks()).toEqual([2]);
    await page.selectOption("#t-arm", "base");
    await page.fill("#t-q", fixture.duplicate);
    expect(await tasks()).toEqual([1]);
    await page.fill("#t-q", "");
    await page.selectOption("#t-arm", "ckpt-b");
    await page.selectOption("#t-verdict", "Wrong region");
    const wrong = await tasks();
    const raw = readEpisodes(fixture.dir).filter((e) => e.model_name === "ckpt-b" && e.outcome?.verdict === "Wrong region");
    expect(wrong).toEqual([...new Set(raw.map((e) => e.task.index))].sort((a, b) => a - b));
    expect(wrong.length).toBeGreaterThan(0);
    expect(wrong.length).toBeLessThan(plainReport.tasks.length);
    expect(await page.evaluate(() => location.hash)).toBe("#?tarm=ckpt-b&tverdict=Wrong+region");
    await page.reload();
    await page.waitForFunction(() => document.documentElement.dataset.ready === "1");
    expect(await tasks()).toEqual(wrong);
    expect(await page.$eval("#t-verdict", (s) => (s as HTMLSelectElement).value)).toBe("Wrong region");
    expect(log.errors).toEqual([]);
    await close();
  });

  it("the report's tables sort by a header click too (the same cells reordered), and the first column goes back to the report's rank", async () => {
    const { page, log, close } = await open(unpairedOut);
    const arms = (sel: string) => page.$$eval(`${sel} tbody tr`, (trs) => trs.map((t) => (t as HTMLElement).dataset.arm!));
    const rank = plainReport.arms.map((a) => a.arm);
    expect(await arms("#gr-board-arms")).toEqual(rank);
    await page.click('#gr-board-arms th[data-col="median_km"]');
    const byKm = [...plainReport.arms].sort((a, b) => (b.median_km ?? 0) - (a.median_km ?? 0)).map((a) => a.arm);
    expect(await arms("#gr-board-arms")).toEqual(byKm);
    await page.click('#gr-board-arms th[data-col="median_km"]');
    expect(await arms("#gr-board-arms")).toEqual([...byKm].reverse());
    await page.click('#gr-board-behaviour th[data-col="within_750km_pct"]');
    const within = await page.$$eval('#gr-board-behaviour td[data-stat="within_750km_pct"]', (tds) =>
      tds.map((td) => Number((td as HTMLElement).dataset.value)),
    );
    expect(within).toEqual([...within].sort((a, b) => b - a));
    expect(await page.evaluate(() => location.hash)).toBe("#?asort=median_km%3A1&bsort=within_750km_pct%3A-1");
    await page.reload();
    await page.waitForFunction(() => document.documentElement.dataset.ready === "1");
    expect(await arms("#gr-board-arms")).toEqual([...byKm].reverse());
    await page.click('#gr-board-arms th[data-col="#"]');
    expect(await arms("#gr-board-arms")).toEqual(rank);
    expect(log.errors).toEqual([]);
    await close();
  });

  it("#compare/1/sonnet-5/base shows both arms' attempts side by side, the unscored duplicate apart", async () => {
    const { page, log, close } = await open(unpairedOut, "#compare/1/sonnet-5/base");
    await page.waitForFunction(() => document.querySelectorAll("#gr-compare .cmp-attempt").length > 0);
    const blocks = await page.$$eval("#gr-compare .cmp-attempt", (bs) =>
      bs.map((b) =>
        [...b.querySelectorAll(":scope > .cmp-grid:not(.cmp-turn) > .cmp-col")].map(
          (c) => `${(c as HTMLElement).dataset.arm} ${(c as HTMLElement).dataset.episode}`,
        ),
      ),
    );
    expect(blocks.length).toBe(6);
    for (const [a, b] of blocks) {
      expect(a).toMatch(/^sonnet-5 sonnet-5-/);
      expect(b).toMatch(/^base base-/);
      expect(a.replace(/.* sonnet-5-/, "")).toBe(b.replace(/.* base-/, ""));
    }
    expect(await page.$$eval("#gr-compare .cmp-uncounted li", (lis) => lis.map((li) => (li as HTMLElement).dataset.episode))).toEqual([fixture.duplicate]);
    // No baseline: the header gives each arm's report numbers, no delta against an arm the page does not pair.
    const stats = await page.textContent("#gr-compare .cmp-stats");
    const base = plainReport.tasks.find((t) => t.index === 1)!.arms.find((a) => a.arm === "base")!;
    expect(stats).toContain(`base: mean ${base.mean.toFixed(4)} over ${base.attempts} counted attempts`);
    expect(stats).not.toContain("delta");
    expect(log.errors).toEqual([]);
    await close();
  });

  it("picks any two arms: the per-task link opens them, the compare selects change them; an unknown arm names the board's arms", async () => {
    const { page, log, close } = await open(unpairedOut);
    await page.selectOption("#t-arm", "ckpt-b");
    await page.selectOption("#t-vs", "ckpt-a");
    await page.click('#t-rows tr[data-task="3"] a.cmp-link');
    await page.waitForFunction(() => document.querySelectorAll("#gr-compare .cmp-attempt").length > 0);
    expect(await page.evaluate(() => location.hash)).toMatch(/^#compare\/3\/ckpt-b\/ckpt-a\b/);
    const arms = () =>
      page.$$eval("#gr-compare .cmp-attempt > .cmp-grid:not(.cmp-turn) > .cmp-col", (cs) => [...new Set(cs.map((c) => (c as HTMLElement).dataset.arm))]);
    expect(await arms()).toEqual(["ckpt-b", "ckpt-a"]);
    await page.selectOption('#gr-compare select[data-side="a"]', "sonnet-5");
    await page.waitForFunction(() => (document.getElementById("gr-compare") as HTMLElement).dataset.a === "sonnet-5");
    await page.waitForFunction(() => document.querySelectorAll("#gr-compare .cmp-attempt").length > 0);
    expect(await arms()).toEqual(["sonnet-5", "ckpt-a"]);
    expect(await page.evaluate(() => location.hash)).toMatch(/^#compare\/3\/sonnet-5\/ckpt-a\b/);
    await page.evaluate(() => (location.hash = "#compare/2/sonnet-5/bsae"));
    await page.waitForSelector("#gr-compare .cmp-unknown");
    expect(await page.textContent("#gr-compare .cmp-unknown")).toBe(
      `No arm named “bsae” on this board. Its arms are: ${plainReport.arms.map((a) => a.arm).join(", ")}. Pick two above.`,
    );
    expect(log.errors).toEqual([]);
    await close();
  });
});

describe("compare view", () => {
  it("pairs attempts by attempt number; the unscored duplicate is listed apart, saying why; the header counts what it lists", async () => {
    const { page, log, close } = await open(boardOut, "#compare/1/sonnet-5/base");
    await page.waitForFunction(() => document.querySelectorAll("#gr-compare .cmp-attempt").length > 0);
    const blocks = await page.$$eval("#gr-compare .cmp-attempt", (bs) =>
      bs.map((b) => ({
        attempt: (b as HTMLElement).dataset.attempt,
        label: b.querySelector(".cmp-label")!.textContent,
        cols: [...b.querySelectorAll(":scope > .cmp-grid:not(.cmp-turn) > .cmp-col")].map((c) => (c as HTMLElement).dataset.episode ?? null),
      })),
    );
    // Both arms' records of attempt n share a row; every row has both sides; no row pairs different numbers.
    expect(blocks.length).toBe(6);
    for (const b of blocks) {
      expect(b.cols.every((c) => c !== null)).toBe(true);
      const samples = b.cols.map((id) => id!.replace(/^(sonnet-5|base)-/, ""));
      expect(samples[0]).toBe(samples[1]); // same source record: same task.sample
      expect(b.label).toMatch(new RegExp(`^attempt ${b.attempt}\\b`));
    }
    expect(blocks.map((b) => b.attempt)).toEqual(["0", "0", "1", "1", "2", "2"]);
    expect(blocks.flatMap((b) => b.cols)).not.toContain(fixture.duplicate);
    const uncounted = await page.$$eval("#gr-compare .cmp-uncounted li", (lis) =>
      lis.map((li) => ({ id: (li as HTMLElement).dataset.episode, text: li.textContent })),
    );
    expect(uncounted).toHaveLength(1);
    expect(uncounted[0].id).toBe(fixture.duplicate);
    expect(uncounted[0].text).toMatch(/attempt 1 .*unscored \(no env reward\).*duplicate of attempt 1/);
    const base = report.tasks.find((t) => t.index === 1)!.arms.find((a) => a.arm === "base")!;
    const stats = await page.textContent("#gr-compare .cmp-stats");
    expect(stats).toContain(`base: mean ${base.mean.toFixed(4)} over ${base.attempts} counted attempts (${base.attempts} listed)`);
    expect(stats).toContain("1 not counted, listed below");
    expect(log.errors).toEqual([]);
    expect(log.requests).toEqual([`file://${boardOut}${"#compare/1/sonnet-5/base"}`.replace(/#.*/, "")]);
    await close();
  });

  it("draws every map of a task's compare rows in one frame (same land, same scale bar), closer frames staying in each episode's detail", async () => {
    const { page, log, close } = await open(boardOut, "#compare/1/sonnet-5/base");
    await page.waitForFunction(() => document.querySelectorAll("#gr-compare .cmp-attempt").length > 0);
    const maps = await page.$$eval("#gr-compare .cmp-attempt > .cmp-grid:not(.cmp-turn) svg.map", (ss) =>
      ss.map((s) => ({
        land: s.querySelector(":scope > path")!.getAttribute("d"),
        scale: [...s.querySelectorAll(":scope > text")].map((t) => t.textContent).find((t) => /^\d[\d.,]* (k?m)$/.test(t ?? "")) ?? null,
      })),
    );
    const rows = await page.$$eval("#gr-compare .cmp-attempt", (bs) => bs.length);
    expect(maps).toHaveLength(2 * rows);
    expect(new Set(maps.map((m) => m.land)).size).toBe(1);
    expect(maps[0].scale).not.toBeNull();
    expect(new Set(maps.map((m) => m.scale)).size).toBe(1);
    // Each episode's own detail keeps its own frame: here at least one attempt is framed closer than the task's.
    const ids = await page.$$eval("#gr-compare .cmp-attempt > .cmp-grid:not(.cmp-turn) > .cmp-col", (cs) => cs.map((c) => (c as HTMLElement).dataset.episode!));
    const own = new Set<string | null>();
    for (const id of ids) {
      await page.evaluate((x) => (location.hash = `#${x}`), id);
      await shownEpisode(page, id);
      own.add(await page.$eval("#gr-detail .outcome svg.map > path", (p) => p.getAttribute("d")));
    }
    expect([...own].some((d) => d !== maps[0].land)).toBe(true);
    expect(log.errors).toEqual([]);
    await close();
  });

  it("compares any two arms with the picker; an unknown arm names the arms there are; keys step tasks and Esc closes", async () => {
    const { page, log, close } = await open(boardOut, "#compare/2/sonnet-5/bsae");
    await page.waitForSelector("#gr-compare .cmp-unknown");
    expect(await page.textContent("#gr-compare .cmp-unknown")).toBe(
      `No arm named “bsae” on this board. Its arms are: ${report.arms.map((a) => a.arm).join(", ")}. Pick two above.`,
    );
    await page.selectOption('#gr-compare select[data-side="b"]', "ckpt-b");
    await page.waitForFunction(() => document.querySelectorAll("#gr-compare .cmp-attempt").length > 0);
    expect(await page.evaluate(() => location.hash)).toBe("#compare/2/sonnet-5/ckpt-b");
    expect(
      await page.$$eval("#gr-compare .cmp-attempt > .cmp-grid:not(.cmp-turn) > .cmp-col", (cs) => [...new Set(cs.map((c) => (c as HTMLElement).dataset.arm))]),
    ).toEqual(["sonnet-5", "ckpt-b"]);
    // Keys act inside the view: n/p next/previous task, j an attempt, Escape closes; the hidden episode panel is never moved to.
    await page.locator("body").click({ position: { x: 2, y: 2 } });
    await page.keyboard.press("n");
    await page.waitForFunction(() => (document.getElementById("gr-compare") as HTMLElement).dataset.task === "3");
    expect(await page.evaluate(() => location.hash)).toBe("#compare/3/sonnet-5/ckpt-b");
    await page.keyboard.press("p");
    await page.waitForFunction(() => (document.getElementById("gr-compare") as HTMLElement).dataset.task === "2");
    await page.keyboard.press("j");
    expect(await page.$$eval("#gr-compare .cmp-attempt.current", (b) => b.length)).toBe(1);
    expect(await page.$eval("#gr-detail", (d) => (d as HTMLElement).dataset.episode ?? null)).toBeNull();
    await page.keyboard.press("Escape");
    await page.waitForFunction(() => (document.getElementById("gr-compare") as HTMLElement).hidden);
    // Back reopens the last compared task.
    await page.goBack();
    await page.waitForFunction(() => !(document.getElementById("gr-compare") as HTMLElement).hidden);
    expect(await page.evaluate(() => location.hash)).toBe("#compare/2/sonnet-5/ckpt-b");
    expect(log.errors).toEqual([]);
    await close();
  });
});

describe("transcripts", () => {
  it("renders replies as Markdown (bold, lists, code) with a raw toggle; HTML, links and images stay inert text", async () => {
    const { page, log, close } = await open(boardOut, `#${fixture.markdownEpisode}/1`);
    await shownEpisode(page, fixture.markdownEpisode);
    const reply = page.locator(`[id="t-${fixture.markdownEpisode}-1"] .reply`);
    expect(await reply.locator(".md strong").first().textContent()).toBe("Architecture");
    expect(await reply.locator(".md").textContent()).not.toContain("**");
    expect(await reply.locator(".md li em").textContent()).toBe("Cyrillic");
    expect(await reply.locator('.md pre[data-lang="json"] code').textContent()).toBe('{"action": "look"}\n');
    // Each paragraph takes its direction from its own text: the Arabic one reads right to left.
    const direction = (sel: string) => reply.locator(sel).evaluate((e) => getComputedStyle(e).direction);
    expect(await direction(".md p >> nth=0")).toBe("ltr");
    expect(await direction(".md p >> nth=-1")).toBe("rtl");
    // Inert: the payloads are text; no element they name exists; the link does not navigate; the image is not fetched.
    expect(await reply.locator(".md").textContent()).toContain('<img src=x onerror="window.__xss=1">');
    expect(await reply.locator(".md").textContent()).toContain("<script>window.__xss=2</script>");
    expect(await reply.locator(".md img, .md script, .md a, .md [onerror]").count()).toBe(0);
    expect(await reply.locator(".md .md-link").textContent()).toBe("map");
    expect(await reply.locator(".md .md-image").textContent()).toBe("[image: pic]");
    await reply.locator(".md .md-link").click();
    await page.waitForTimeout(200);
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss ?? 0)).toBe(0);
    // Raw toggle: the reply as recorded.
    await reply.locator("button.raw-toggle").click();
    expect(await reply.locator("pre.raw").isVisible()).toBe(true);
    expect(await reply.locator("pre.raw").textContent()).toContain("**Architecture**");
    expect(log.requests.every((u) => u.startsWith(`file://${boardOut}`))).toBe(true);
    expect(log.dialogs).toEqual([]);
    expect(log.errors).toEqual([]);
    await close();
  });

  it("clamps a long reply to its first lines with a button to show all; expand all and a search match inside it show it whole", async () => {
    // base's copy of the sweep fixture's first episode (a run page): turn 2's reply is 2,349 chars.
    const id = "base-cf6f80ba15e6";
    const { page, log, close } = await open(runOut, `#${id}/2`);
    await shownEpisode(page, id);
    const reply = page.locator(`[id="t-${id}-2"] .reply`);
    const md = reply.locator(".md");
    const more = reply.locator("button.clamp-toggle");
    const height = () => md.evaluate((e) => e.getBoundingClientRect().height);
    expect(await md.getAttribute("data-clamp")).toBe("on");
    const clamped = await height();
    expect(clamped).toBeLessThan(300);
    await more.click();
    expect(await md.getAttribute("data-clamp")).toBe("off");
    expect(await more.textContent()).toBe("show less");
    expect(await height()).toBeGreaterThan(2 * clamped);
    await more.click();
    expect(await height()).toBe(clamped);
    // A short reply has no button.
    expect(await page.locator(`[id="t-${id}-0"] .reply button.clamp-toggle, [id="t-${id}-1"] .reply button.clamp-toggle`).count()).toBe(0);
    await page.click("#gr-detail button.expand-all");
    expect(await md.getAttribute("data-clamp")).toBe("off");
    await page.click("#gr-detail button.expand-all");
    expect(await md.getAttribute("data-clamp")).toBe("on");
    // A search match at the reply's end: the reply is shown whole, the mark in view of the reader.
    await page.fill("#f-q", "-95.55021552616438");
    await page.waitForFunction((x) => document.querySelector(`[id="t-${x}-2"] .md mark.hit`) !== null, id);
    expect(await md.getAttribute("data-clamp")).toBe("off");
    expect(await more.textContent()).toBe("show less");
    expect(log.errors).toEqual([]);
    await close();
  });

  it("shows each turn's prompt and the episode's config, collapsed, with one expand all; the episode names its file by its path in the board and holds every word", async () => {
    const raw = JSON.parse(readFileSync(join(fixture.dir, "sonnet-5", "pass-0", "shard-1", "episodes.jsonl"), "utf8").split("\n")[0]);
    const { page, close } = await open(boardOut, `#${fixture.markdownEpisode}`);
    await shownEpisode(page, fixture.markdownEpisode);
    const prompts = page.locator("#gr-detail details.prompt");
    expect(await prompts.count()).toBe(raw.turns.filter((t: { prompt?: string }) => t.prompt).length);
    expect(await prompts.first().evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
    const config = page.locator("#gr-detail details.config");
    expect(await config.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
    await page.click("#gr-detail button.expand-all");
    expect(await prompts.first().evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
    expect(await config.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
    expect(await page.textContent(`[id="t-${fixture.markdownEpisode}-1"] details.prompt pre`)).toBe(raw.turns[1].prompt);
    for (const [k, v] of Object.entries(raw.config as Record<string, unknown>)) expect(await config.textContent()).toContain(`${k}${String(v)}`);
    // The episode names its file by its path in the board, not "episodes.jsonl"; its reply is whole (nothing is cut).
    expect(await page.textContent("#gr-detail .ep-head .meta")).toMatch(/sonnet-5\/pass-0\/shard-1\/episodes\.jsonl:1/);
    expect(await page.textContent("#gr-detail")).not.toMatch(/full text at|first [\d,]+ of/);
    expect(await page.textContent(`[id="t-${fixture.markdownEpisode}-1"] pre.raw`)).toBe(raw.turns[1].model.reply);
    await close();
  });
});

describe("search, filters and the address", () => {
  it("searches ids, countries and feedback, marks the matches, and says when nothing matches", async () => {
    const { page, log, close } = await open(boardOut);
    const rows = JSON.parse(await page.$eval("#gr-board-data", (s) => s.textContent!)).episodes as { country: string | null }[];
    const moldova = rows.filter((r) => r.country === "Moldova").length;
    await page.fill("#f-q", "dup-7eb6");
    await page.waitForFunction(() => document.querySelectorAll("#gr-rows tr[data-id]").length === 1);
    expect(await listIds(page)).toEqual([fixture.duplicate]);
    expect(await page.textContent("#gr-rows mark.hit")).toBe("dup-7eb6");
    await page.fill("#f-q", "Moldova");
    await page.waitForFunction((n) => (document.querySelector("#gr-count") as HTMLElement).dataset.rows === String(n), moldova);
    expect(await page.$$eval("#gr-rows mark.hit", (ms) => [...new Set(ms.map((m) => m.textContent))])).toEqual(["Moldova"]);
    // A task by its id (task 1 is fixture-01, in Moldova).
    await page.fill("#f-q", "fixture-01");
    await page.waitForFunction((n) => (document.querySelector("#gr-count") as HTMLElement).dataset.rows === String(n), moldova);
    // A feedback phrase: found in the episodes' text (read from their chunks), marked in the opened episode.
    await page.fill("#f-q", "captured road ends here");
    await page.waitForFunction(
      () => !document.querySelector("#gr-count")!.textContent!.includes("searching") && document.querySelectorAll("#gr-rows tr[data-id]").length > 0,
    );
    const hits = await listIds(page);
    await page.click(`#gr-rows tr[data-id="${hits[0]}"]`);
    await shownEpisode(page, hits[0]);
    expect(await page.$$eval("#gr-detail mark.hit", (ms) => ms.map((m) => m.textContent!.toLowerCase()))).toContain("captured road ends here");
    await page.fill("#f-q", "no such thing anywhere");
    await page.waitForSelector("#gr-rows tr.no-results");
    expect(await page.textContent("#gr-rows tr.no-results")).toContain("No episode matches “no such thing anywhere”");
    expect(log.errors).toEqual([]);
    await close();
  });

  it("filters by an expression over the episode's fields, shows its error where it is typed, and downloads the filtered rows as CSV", async () => {
    const { page, close } = await open(boardOut);
    const all = JSON.parse(await page.$eval("#gr-board-data", (s) => s.textContent!)).episodes as {
      id: string;
      arm: string;
      km: number | null;
      turns: number;
    }[];
    await page.fill("#f-expr", 'km > 750 and turns >= 8 and model == "base"');
    const want = all.filter((e) => e.km !== null && e.km > 750 && e.turns >= 8 && e.arm === "base").map((e) => e.id);
    expect(want.length).toBeGreaterThan(0);
    await page.waitForFunction((n) => document.querySelectorAll("#gr-rows tr[data-id]").length === n, want.length);
    expect((await listIds(page)).sort()).toEqual([...want].sort());
    const download = page.waitForEvent("download");
    await page.click("#f-csv");
    const csv = readFileSync(await (await download).path(), "utf8")
      .trim()
      .split("\r\n");
    expect(csv[0]).toBe(
      "episode_id,arm,split,task,attempt,country,verdict,reward,env_reward,km,turns,flags,tokens_in,tokens_out,tokens,cost,latency_s,temperature,max_tokens,source",
    );
    expect(
      csv
        .slice(1)
        .map((l) => l.split(",")[0])
        .sort(),
    ).toEqual([...want].sort());
    // An error is shown under the field, naming where and what was expected.
    await page.fill("#f-expr", "km >> 3");
    await page.waitForSelector("#f-expr-error:not([hidden])");
    expect(await page.textContent("#f-expr-error")).toMatch(/expected a value .*at character 5/);
    expect(await page.getAttribute("#f-expr", "aria-invalid")).toBe("true");
    await page.fill("#f-expr", "kms > 3");
    expect(await page.textContent("#f-expr-error")).toMatch(/unknown field "kms": the fields are id, model, arm/);
    await close();
  });

  it("keeps filters, sort, search and the selection in the address: reload restores them, Back and Forward step through what was viewed", async () => {
    const { page, close } = await open(boardOut);
    await page.selectOption("#f-model", "ckpt-a");
    await page.selectOption("#f-task", "2");
    await page.click('table.episodes th[data-sort="score"]');
    const ids = await listIds(page);
    expect(ids.length).toBe(3); // ckpt-a's three attempts at task 2
    await page.click(`#gr-rows tr[data-id="${ids[0]}"]`);
    await shownEpisode(page, ids[0]);
    await page.click(`#gr-rows tr[data-id="${ids[1]}"]`);
    await shownEpisode(page, ids[1]);
    const hash = await page.evaluate(() => location.hash);
    expect(hash).toBe(`#${ids[1]}?arm=ckpt-a&sort=score%3A-1&task=2`);
    await page.reload();
    await page.waitForFunction(() => document.documentElement.dataset.ready === "1");
    await shownEpisode(page, ids[1]);
    expect(await page.$eval("#f-model", (s) => (s as HTMLSelectElement).value)).toBe("ckpt-a");
    expect(await page.$eval("#f-task", (s) => (s as HTMLSelectElement).value)).toBe("2");
    expect(await page.getAttribute('table.episodes th[data-sort="score"]', "aria-sort")).toBe("descending");
    expect(await listIds(page)).toEqual(ids);
    expect(await page.getAttribute(`#gr-rows tr[data-id="${ids[1]}"]`, "aria-selected")).toBe("true");
    await page.goBack();
    await shownEpisode(page, ids[0]);
    await page.goForward();
    await shownEpisode(page, ids[1]);
    await close();
  });
});

describe("layout and views", () => {
  it("board pages store each distinct turn map once per task chunk, and every map turn still shows its map", async () => {
    const html = readFileSync(boardOut, "utf8");
    const chunks = (JSON.parse(/<script type="application\/json" id="gr-chunks">([\s\S]*?)<\/script>/.exec(html)![1]) as string[]).map(
      (b) => JSON.parse(gunzipSync(Buffer.from(b, "base64")).toString("utf8")) as TaskChunk,
    );
    const mapTurns = chunks.flatMap((c) => c.episodes.flatMap((e) => e.turns.filter((t) => t.mapRef != null).map((t) => ({ e, t, c }))));
    expect(mapTurns.length).toBeGreaterThan(0);
    // Turn objects carry no map of their own; the tables hold fewer maps than there are map turns.
    expect(mapTurns.every(({ t }) => t.map === null)).toBe(true);
    expect(chunks.reduce((n, c) => n + (c.maps?.length ?? 0), 0)).toBeLessThan(mapTurns.length);
    const { e, t, c } = mapTurns[0];
    const { page, log, close } = await open(boardOut, `#${e.id}/${t.turn}`);
    await shownEpisode(page, e.id);
    const land = await page.waitForSelector(`[id="t-${e.id}-${t.turn}"] svg.map > path`);
    // The chunk's map is its frame and pins; the client cut its land from the page's cells, as Node would.
    const m = c.maps![t.mapRef!];
    expect(m.landPath).toBeUndefined();
    expect(await land.getAttribute("d")).toBe(svgPath(mapRings(m.frame, m.size, m.size, readMapCell).land, m.size, m.size, true));
    expect(log.errors).toEqual([]);
    await close();
  });

  it("board pages embed the exact verified bytes of views (zooms first within --max-mb), once per digest; views without them are reprojections, said once per episode", async () => {
    type Turn = { turn: number; image_sha256?: string; camera_after?: { fov_deg: number } | null; image_kind?: string };
    const raw = readFileSync(join(fixture.dir, "sonnet-5", "pass-0", "shard-0", "episodes.jsonl"), "utf8")
      .split("\n")
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as { episode_id: string; turns: Turn[] });
    const html = readFileSync(boardOut, "utf8");
    const table = (JSON.parse(/<script type="application\/json" id="gr-images">([\s\S]*?)<\/script>/.exec(html)![1]) as (string | null)[]).filter(
      (u): u is string => u !== null,
    );
    const digests = table.map((u) =>
      createHash("sha256")
        .update(Buffer.from(u.split(",")[1], "base64"))
        .digest("hex"),
    );
    expect(new Set(digests).size).toBe(digests.length);
    const ep = raw.find((e) =>
      e.turns.some((t) => t.image_kind === "view" && t.camera_after && t.camera_after.fov_deg <= 45 && digests.includes(t.image_sha256!)),
    )!;
    expect(ep).toBeDefined();
    const zoom = ep.turns.find((t) => t.image_kind === "view" && t.camera_after!.fov_deg <= 45 && digests.includes(t.image_sha256!))!;
    const { page, log, close } = await open(boardOut, `#${ep.episode_id}/${zoom.turn}`);
    await shownEpisode(page, ep.episode_id);
    const img = page.locator(`[id="t-${ep.episode_id}-${zoom.turn}"] .media img`);
    await page.waitForFunction(
      (sel) => (document.querySelector(sel) as HTMLImageElement | null)?.naturalWidth === 640,
      `[id="t-${ep.episode_id}-${zoom.turn}"] .media img`,
    );
    const src = await img.getAttribute("src");
    expect(
      createHash("sha256")
        .update(Buffer.from(src!.split(",")[1], "base64"))
        .digest("hex"),
    ).toBe(zoom.image_sha256);
    // Views with their exact bytes in the page are images; only the others (here: mismatches) are reprojections, said once.
    const canvases = await page.locator("#gr-detail .media canvas.view").count();
    const exact = ep.turns.filter((t) => t.image_kind === "view" && digests.includes(t.image_sha256!)).length;
    expect(await page.locator("#gr-detail .media img").count()).toBe(exact);
    expect(await page.locator("#gr-detail .reproj-note").count()).toBe(canvases ? 1 : 0);
    if (canvases) expect(await page.textContent("#gr-detail .reproj-note")).toMatch(/the other \d+ view\(s\) \(turns [\d, ]+\) are the exact verified bytes/);
    expect(log.errors).toEqual([]);
    await close();
  });

  it.each([1280, 1920])("at %i px no id is cut and the verdict column shows", async (width) => {
    const { page, close } = await open(boardOut, "", width);
    const m = await page.evaluate(() => {
      const cells = [...document.querySelectorAll("#gr-rows td.id")] as HTMLElement[];
      return {
        cut: cells.filter((c) => c.scrollWidth > c.clientWidth + 0.5).map((c) => c.textContent),
        verdict: getComputedStyle(document.querySelector("table.episodes th.wide")!).display,
        title: document.title,
      };
    });
    expect(m.cut).toEqual([]);
    expect(m.verdict).toBe("table-cell");
    expect(m.title).toBe(`board · board of 4 arms: ${report.arms.map((a) => a.arm).join(", ")} · georeplay`);
    await close();
  });

  it("enlarges a view by click and by key, and Escape closes it", async () => {
    const { page, log, close } = await open(runOut);
    const id = (await listIds(page))[0];
    await page.click(`#gr-rows tr[data-id="${id}"]`);
    await shownEpisode(page, id);
    const view = page.locator("#gr-detail .turn img.zoomable").first();
    await view.scrollIntoViewIfNeeded();
    await page.waitForFunction(() => (document.querySelector("#gr-detail .turn img.zoomable") as HTMLImageElement).complete);
    await view.click();
    await page.waitForSelector("#gr-lightbox[open]");
    expect(await page.$eval("#gr-lightbox img", (i) => (i as HTMLImageElement).getBoundingClientRect().width)).toBe(640);
    await page.keyboard.press("Escape");
    await page.waitForFunction(() => !(document.getElementById("gr-lightbox") as HTMLDialogElement).open);
    await page.keyboard.press("j");
    await page.keyboard.press("v");
    await page.waitForSelector("#gr-lightbox[open]");
    const shown = await page.$eval("#gr-lightbox", (d) => (d as HTMLElement).dataset.view);
    expect(shown).toBe(await page.$eval("#gr-detail .turn.current", (c) => c.id));
    await page.keyboard.press("Escape");
    expect(log.errors).toEqual([]);
    await close();
  });
});
