/**
 * A board folder's list rows in data files (issue 51, item 11): `page -o DIR/` on a board of more
 * rows than its index.html carries keeps only the list's first rows there (the top of the list in
 * file order, what the first screen shows) and writes the others to data/rows-<k>.js, read after
 * the first screen. In Debian's Chromium the folder page's list then holds every row and sorts,
 * filters and searches exactly as the one-file page of the same board, whose index carries them all.
 */
import { describe, expect, it, beforeAll, afterAll } from "vitest";
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Browser, type Page } from "playwright-core";
import { launchChromium } from "../browser.ts";
import { MIXED, runCli } from "../helpers.ts";
import { makeFourArmBoard } from "../board-fixture.ts";
import { rowsOfDataScript } from "../../envs/geoguesser/src/page/output/run-batches.ts";

const dir = join(tmpdir(), `georeplay-page-board-rows-${process.pid}`);
const board = join(dir, "board");
const folder = join(dir, "board-page");
const oneFile = join(dir, "board.html");
const common = ["--tasks", join(MIXED, "tasks.jsonl"), "--panos", join(MIXED, "panos"), "--baseline", "base", "--no-progress"];
const PHRASE = "violet pelican tramline";
/** More episodes than a board folder's index.html lists itself (board/build.ts BOARD_FIRST_ROWS: 50). */
const EPISODES = 120;
let firstRows = 0;
const phraseIds: string[] = [];

/** Every episodes.jsonl of the board gets copies of its lines (new ids) until the board has more than `min` episodes; one copy gets PHRASE in a reply. */
function growBoard(root: string, min: number): number {
  const files: string[] = [];
  const walk = (p: string) => {
    for (const e of readdirSync(p, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (e.isDirectory()) walk(join(p, e.name));
      else if (e.name === "episodes.jsonl") files.push(join(p, e.name));
    }
  };
  walk(root);
  const lines = files.map((f) =>
    readFileSync(f, "utf8")
      .split("\n")
      .filter((l) => l.trim()),
  );
  const total = () => lines.reduce((n, l) => n + l.length, 0);
  const originals = lines.map((l) => [...l]);
  let copy = 0;
  // At least one copy: the phrase goes into the last one.
  do {
    copy++;
    originals.forEach((orig, i) => {
      for (const l of orig) {
        const e = JSON.parse(l);
        e.episode_id = `${e.episode_id}-copy${copy}`;
        lines[i].push(JSON.stringify(e));
      }
    });
  } while (total() <= min);
  // The phrase, in a reply of every episode of the last copy (some far down the list, past the rows index.html carries).
  for (const l of lines)
    l.forEach((line, j) => {
      const e = JSON.parse(line);
      const t = e.turns.find((x: { model?: unknown }) => x.model);
      if (!e.episode_id.endsWith(`-copy${copy}`) || !t) return;
      t.model.reply = `${"The kerbs and the signs agree. ".repeat(10)}${PHRASE}.`;
      phraseIds.push(e.episode_id);
      l[j] = JSON.stringify(e);
    });
  files.forEach((f, i) => writeFileSync(f, lines[i].join("\n") + "\n"));
  return total();
}

let browser: Browser;
let episodes = 0;
type Row = { id: string; arm: string; score: number };
let allRows: Row[] = [];

beforeAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  makeFourArmBoard(board);
  episodes = growBoard(board, EPISODES);
  for (const out of [`${folder}/`, oneFile]) {
    const r = runCli(["page", board, ...common, "-o", out, "--json"]);
    expect(r.code === 0 || r.code === 1, r.stderr).toBe(true); // the fixture has mismatching views
  }
  allRows = JSON.parse(/<script type="application\/json" id="gr-board-data">(.*?)<\/script>/s.exec(readFileSync(oneFile, "utf8"))![1]).episodes;
  browser = await launchChromium();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function open(file: string): Promise<{ page: Page; errors: string[]; close: () => Promise<void> }> {
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(`file://${file}`);
  await page.waitForFunction(() => document.documentElement.dataset.ready === "1", null, { timeout: 60_000 });
  return { page, errors, close: () => context.close() };
}

const listed = (page: Page) => page.$$eval("#gr-rows tr[data-id]", (trs) => trs.map((tr) => (tr as HTMLElement).dataset.id!));

/** The list after each of the reader's steps: a sort by reward, an arm, a search over every word, the search cleared. */
async function steps(page: Page): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = { plain: await listed(page) };
  const frame = () => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));
  await page.click('table.episodes th[data-sort="score"]');
  await frame();
  out.sorted = await listed(page);
  await page.selectOption("#f-model", "ckpt-a");
  await frame();
  out.arm = await listed(page);
  await page.selectOption("#f-model", "");
  await page.fill("#f-q", PHRASE);
  await page.waitForFunction(
    () => !document.querySelector("#gr-count")!.textContent!.includes("searching") && document.querySelectorAll("#gr-rows tr[data-id]").length > 0,
    null,
    { timeout: 60_000 },
  );
  out.search = await listed(page);
  return out;
}

describe("a board folder's list rows in data files", () => {
  it("keeps the list's first rows in index.html and the others, in order, in data/rows-<k>.js", () => {
    expect(allRows.length).toBe(episodes);
    expect(phraseIds.length).toBeGreaterThan(0);
    const html = readFileSync(join(folder, "index.html"), "utf8");
    expect(html).toMatch(/<html [^>]*data-row-files="1"/);
    const first = JSON.parse(/<script type="application\/json" id="gr-board-data">(.*?)<\/script>/s.exec(html)![1]).episodes as Row[];
    firstRows = first.length;
    expect(firstRows).toBeGreaterThan(20); // a first screen's worth of rows
    expect(firstRows).toBeLessThan(episodes / 2);
    expect(first).toEqual(allRows.slice(0, firstRows));
    const files = readdirSync(join(folder, "data")).filter((f) => /^rows-\d+\.js$/.test(f));
    expect(files).toEqual(["rows-0.js"]);
    expect(rowsOfDataScript(readFileSync(join(folder, "data", "rows-0.js"), "utf8"))).toEqual(allRows.slice(firstRows));
    // The one-file page carries every row itself.
    expect(readFileSync(oneFile, "utf8")).not.toContain("data-row-files");
  });

  it("marks its first screen before the rows are read, then lists every row, and sorts, filters and searches as the one-file page does", async () => {
    const f = await open(join(folder, "index.html"));
    const marks = await f.page.evaluate(() => ({
      first: (window as unknown as { grFirstScreenAt: number }).grFirstScreenAt,
      ready: (window as unknown as { grReadyAt: number }).grReadyAt,
      flag: document.documentElement.dataset.firstScreen,
    }));
    expect(marks.flag).toBe("1");
    expect(marks.first).toBeLessThanOrEqual(marks.ready);
    expect(await listed(f.page)).toEqual(allRows.map((r) => r.id));
    expect(await f.page.textContent("#gr-count")).not.toContain("reading the list");
    const folderSteps = await steps(f.page);
    const o = await open(oneFile);
    const oneSteps = await steps(o.page);
    expect(folderSteps).toEqual(oneSteps);
    // The search found every episode whose reply holds the phrase, some far below the rows index.html carries.
    expect([...folderSteps.search].sort()).toEqual([...phraseIds].sort());
    expect(Math.max(...folderSteps.search.map((id) => allRows.findIndex((r) => r.id === id)))).toBeGreaterThanOrEqual(firstRows);
    expect(folderSteps.arm.length).toBe(allRows.filter((r) => r.arm === "ckpt-a").length);
    expect(f.errors).toEqual([]);
    expect(o.errors).toEqual([]);
    await f.close();
    await o.close();
  }, 120_000);

  it("opens a deep link to an episode that only a row file lists", async () => {
    const id = allRows[allRows.length - 1].id;
    const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    const page = await context.newPage();
    await page.goto(`file://${join(folder, "index.html")}#${encodeURIComponent(id)}`);
    await page.waitForFunction(() => document.documentElement.dataset.ready === "1", null, { timeout: 60_000 });
    await page.waitForSelector(`#gr-detail [id^="t-${id}-"]`, { timeout: 20_000 });
    await context.close();
  }, 60_000);
});
