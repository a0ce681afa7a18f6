/**
 * The folder form of a crops page at more than one detail file (issue 50's scale goal): the
 * build streams each episode's detail to data/cd-<n>.js and each view to views/, so index.html
 * holds the board and the top of the list, not the run: the rows are in data/cr-<k>.js as
 * columns. In Chromium: the first screen (header, board, the first rows) is up before the row
 * files are read; then every row is listed with the record's numbers, an address's filter and
 * sort apply to all of them, the CSV holds them all; a deep link to an episode of the last
 * file opens it, a search finds words that only the detail files hold, compare by attempt
 * loads what its cells show, and the views are the exact files.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { launchChromium } from "../browser.ts";
import { FIXTURES, runCli } from "../helpers.ts";
import { FIRST_ROWS } from "../../envs/crops/src/page/row-columns.ts";

const SAMPLE = join(FIXTURES, "crops", "sample");
const EVAL = join(SAMPLE, "eval", "episodes.jsonl");
const ARMS = ["arm-a", "arm-b", "arm-c", "arm-d", "arm-e"];
const dir = mkdtempSync(join(tmpdir(), "georeplay-crops-folder-"));
const board = join(dir, "board");
const out = join(dir, "page") + "/";
type Rec = Record<string, any>;
const recs: Rec[] = readFileSync(EVAL, "utf8")
  .split("\n")
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l));
let browser: Browser;

async function open(hash = ""): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 }, acceptDownloads: true });
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(`file://${join(out, "index.html")}${hash}`);
  await page.waitForSelector("html[data-ready='1']");
  expect(errors).toEqual([]);
  return page;
}

beforeAll(async () => {
  // Five arms of the sample's 24 episodes: 120 rows, more than one detail file.
  for (const arm of ARMS) {
    mkdirSync(join(board, arm), { recursive: true });
    writeFileSync(join(board, arm, "episodes.jsonl"), recs.map((r) => JSON.stringify({ ...r, model_name: arm })).join("\n") + "\n");
  }
  const r = runCli(["page", board, "--dataset", SAMPLE, "--no-progress", "-o", out]);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  browser = await launchChromium();
}, 600_000);

afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("a crops page folder past one detail file", () => {
  it("keeps the episodes' details out of index.html, in data files", () => {
    const html = readFileSync(join(out, "index.html"), "utf8");
    expect(existsSync(join(out, "data", "cd-0.js"))).toBe(true);
    expect(existsSync(join(out, "data", "cd-1.js"))).toBe(true);
    expect(existsSync(join(out, "data", "cd-2.js"))).toBe(false);
    // The recorded feedback is a detail's: none of it is inline.
    const feedback = recs.flatMap((r) => r.turns.map((t: Rec) => t.feedback as string)).filter((f) => f.length > 30);
    expect(feedback.length).toBeGreaterThan(10);
    for (const f of feedback) expect(html.includes(JSON.stringify(f).slice(1, -1))).toBe(false);
  });

  it("keeps the first rows in index.html and every row in data/cr-0.js, as columns", () => {
    const html = readFileSync(join(out, "index.html"), "utf8");
    const start = html.indexOf('id="gr-crops">') + 'id="gr-crops">'.length;
    const data = JSON.parse(html.slice(start, html.indexOf("</script>", start))) as { rows: Rec[]; rowFiles: Rec; report?: unknown };
    expect(data.rows).toHaveLength(FIRST_ROWS);
    expect(data.rowFiles).toEqual({ files: 1, rows: ARMS.length * recs.length });
    // The board is the page's HTML; its numbers are not written twice.
    expect(data.report).toBeUndefined();
    const file = readFileSync(join(out, "data", "cr-0.js"), "utf8");
    expect(file.startsWith('georeplayData("cr",0,{"n":120,"cols":{"key":')).toBe(true);
    expect(existsSync(join(out, "data", "cr-1.js"))).toBe(false);
  });

  it("shows its first screen from index.html alone: the header, the board and the first rows", async () => {
    // A copy whose row file never hands its rows over: the page stays at its first screen.
    const held = join(dir, "held");
    cpSync(out, held, { recursive: true });
    writeFileSync(join(held, "data", "cr-0.js"), "/* rows held back */\n");
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.goto(`file://${join(held, "index.html")}`);
    await page.waitForSelector("html[data-first-screen='1']");
    await page.waitForTimeout(300);
    expect(await page.getAttribute("html", "data-ready")).toBeNull();
    expect(await page.textContent("header.top h1")).toContain("·");
    expect(await page.$$eval("#gr-arms tr[data-arm]", (trs) => trs.length)).toBe(ARMS.length);
    const ids = await page.$$eval("#gr-rows tr[data-key]", (trs) => trs.map((t) => (t as HTMLElement).dataset.id!));
    expect(ids).toEqual(ARMS.flatMap(() => recs.map((r) => r.episode_id as string)).slice(0, FIRST_ROWS));
    expect(await page.textContent("#gr-count")).toBe(`the first ${FIRST_ROWS} of ${ARMS.length * recs.length} episodes (reading the rest…)`);
    // No means of a part of the list, no "show more" of rows not yet read.
    expect(await page.textContent("#gr-list-summary")).toBe("");
    expect(await page.$("#gr-rows tr.more")).toBeNull();
    expect(await page.isVisible("#gr-rows tr[data-key]:first-child")).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("says which row file is missing from an incomplete folder", async () => {
    const broken = join(dir, "broken");
    cpSync(out, broken, { recursive: true });
    rmSync(join(broken, "data", "cr-0.js"));
    const page = await browser.newPage();
    await page.goto(`file://${join(broken, "index.html")}`);
    await page.waitForFunction(() => document.getElementById("gr-count")?.textContent?.includes("cr-0.js"));
    expect(await page.textContent("#gr-count")).toBe("data/cr-0.js could not be loaded: is the page folder complete?");
    expect(await page.$$eval("#gr-rows tr[data-key]", (trs) => trs.length)).toBe(FIRST_ROWS);
    await page.close();
  });

  it("lists every row once they are read, filters and sorts them from the address, and writes them all as CSV", async () => {
    const page = await open();
    expect(await page.getAttribute("#gr-count", "data-rows")).toBe(String(ARMS.length * recs.length));
    expect(await page.textContent("#gr-count")).toBe(`${ARMS.length * recs.length} of ${ARMS.length * recs.length} episodes`);
    const [download] = await Promise.all([page.waitForEvent("download"), page.click("#f-csv")]);
    const lines = readFileSync((await download.path())!, "utf8")
      .trim()
      .split("\n");
    expect(lines).toHaveLength(ARMS.length * recs.length + 1);
    await page.close();
    const misses = (r: Rec) => (r.outcome.parts.n_missed as number | undefined) ?? r.outcome.misses.length;
    const want = recs.filter((r) => misses(r) >= 2);
    expect(want.length).toBeGreaterThan(0);
    const filtered = await open(`#?expr=${encodeURIComponent("misses >= 2")}&sort=score:-1`);
    expect(Number(await filtered.getAttribute("#gr-count", "data-rows"))).toBe(want.length * ARMS.length);
    const scores = await filtered.$$eval("#gr-rows tr[data-key] td[data-key=score]", (tds) => tds.map((td) => Number((td as HTMLElement).dataset.value)));
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(scores).toHaveLength(want.length * ARMS.length);
    await filtered.close();
  });

  it("opens an episode of the last detail file by its address, with its exact views", async () => {
    const page = await open();
    const keys = await page.$$eval("#gr-rows tr[data-key]", (trs) => trs.map((t) => (t as HTMLElement).dataset.key!));
    expect(keys).toHaveLength(ARMS.length * recs.length);
    const key = keys[keys.length - 3];
    await page.close();
    const deep = await open(`#${encodeURIComponent(key)}`);
    await deep.waitForSelector(`#gr-detail[data-episode="${key}"]`);
    const srcs = await deep.$$eval("#gr-detail img.view", (is) => is.map((i) => (i as HTMLImageElement).getAttribute("src")!));
    expect(srcs.length).toBeGreaterThan(0);
    for (const src of srcs) {
      expect(src).toMatch(/^views\/[0-9a-f]{64}\.jpg$/);
      expect(
        createHash("sha256")
          .update(readFileSync(join(out, src)))
          .digest("hex"),
      ).toBe(src.slice(6, -4));
    }
    expect(await deep.$$eval("#gr-detail img.view", (is) => is.every((i) => (i as HTMLImageElement).naturalWidth > 0))).toBe(true);
    await deep.close();
  });

  it("searches words that only the detail files hold", async () => {
    const word = "insignia";
    const holds = (r: Rec) =>
      r.turns.some(
        (t: Rec) =>
          String(t.feedback).toLowerCase().includes(word) ||
          JSON.stringify(t.action).toLowerCase().includes(word) ||
          (t.boxes as Rec[]).some((b) => String(b.label).toLowerCase().includes(word)),
      );
    const want = recs.filter(holds).length * ARMS.length;
    expect(want).toBeGreaterThan(0);
    const page = await open();
    await page.fill("#f-q", word);
    await page.waitForFunction((n) => document.querySelectorAll("#gr-rows tr[data-key]").length === n, want, { timeout: 30_000 });
    await page.close();
  });

  it("compares one task's attempts across the five arms, each cell with its final view", async () => {
    const task = `${recs[0].task.split}/${recs[0].task.index}`;
    const page = await open(`#compare/${task}`);
    await page.waitForSelector("#gr-compare-grid");
    const cells = await page.$$eval("#gr-compare-grid a.attempt", (as) => as.map((a) => a.querySelector("img")?.getAttribute("src") ?? null));
    const per = recs.filter((r) => `${r.task.split}/${r.task.index}` === task).length;
    expect(cells).toHaveLength(per * ARMS.length);
    for (const src of cells) expect(src).toMatch(/^views\/[0-9a-f]{64}\.jpg$/);
    await page.close();
  });
});
