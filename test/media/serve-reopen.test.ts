/**
 * `georeplay serve` keeps what it shows: an episode appended after the
 * server started opens, with its turns, wherever a reader meets it — a
 * reload on its address, a second tab, a deep link `#<id>` pasted into a
 * new tab, a click on its row in a tab opened later. A real server process
 * and Chromium, for an eval run, a training run and a board (a sweep).
 */
import { describe, expect, it, beforeAll, afterAll } from "vitest";
import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { FIXTURES } from "../helpers.ts";
import { episodeLine, LINES, raw, startServe, stopServe, launchChromium, type Served } from "../serve-helpers.ts";

const dir = join(tmpdir(), `georeplay-serve-reopen-${process.pid}`);
let browser: Browser;

beforeAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  browser = await launchChromium();
});

afterAll(() => stopServe(browser, undefined, dir));

/** The ids of the rows the server has sent in its events so far (a run's `episodes`, a board's `board`). */
async function sentIds(served: Served): Promise<string[]> {
  const { body } = await raw(served.port, "/events?after=0&once=1");
  const ids: string[] = [];
  for (const m of body.matchAll(/^data: (.*)$/gm)) {
    const data = JSON.parse(m[1]) as { rows?: { id: string }[] };
    for (const r of data.rows ?? []) ids.push(r.id);
  }
  return ids;
}

/** The new rows' ids once the server has sent `n` of them. */
async function waitSent(served: Served, n: number): Promise<string[]> {
  const end = Date.now() + 30_000;
  for (;;) {
    const ids = await sentIds(served);
    if (ids.length >= n || Date.now() > end) return ids;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Waits until the open episode is `id`, shown with its turns; returns how many. */
async function turnsOf(page: Page, id: string): Promise<number> {
  await page
    .waitForFunction(
      (want) => {
        const d = document.getElementById("gr-detail");
        return d?.dataset.episode === want && d.querySelectorAll("article.turn").length > 0;
      },
      id,
      { timeout: 15_000 },
    )
    .catch(async () => {
      throw new Error(`${id} did not open: the detail says "${await page.$eval("#gr-detail", (d) => d.textContent?.slice(0, 200))}"`);
    });
  return page.$$eval("#gr-detail article.turn", (a) => a.length);
}

const ready = (page: Page) => page.waitForFunction(() => document.documentElement.dataset.ready === "1");

/**
 * Every way a reader reaches an appended episode: a deep link in a new tab (with and without another
 * tab holding the stream), its row clicked in a tab opened after it came, a reload on its address.
 */
async function reopenAll(served: Served, ids: string[]): Promise<void> {
  const ctx: BrowserContext = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  const errors: string[] = [];
  ctx.on("weberror", (e) => errors.push(e.error().message));
  try {
    const [a, b] = ids;
    // A deep link, the first tab of the server's pages in this browser.
    const first = await ctx.newPage();
    await first.goto(`${served.url}#${encodeURIComponent(a)}`);
    await ready(first);
    expect(await turnsOf(first, a)).toBeGreaterThan(0);
    expect(await first.$eval("#gr-detail", (d) => d.textContent)).not.toContain("is not in this page");
    // A second tab on another new episode's address (the first holds the stream).
    const second = await ctx.newPage();
    await second.goto(`${served.url}#${encodeURIComponent(b)}`);
    await ready(second);
    expect(await turnsOf(second, b)).toBeGreaterThan(0);
    // Its row, clicked in a tab opened at the page's top.
    const third = await ctx.newPage();
    await third.goto(served.url);
    await ready(third);
    await third.waitForSelector(`#gr-rows tr[data-id="${b}"]`, { timeout: 15_000 });
    await third.click(`#gr-rows tr[data-id="${b}"]`);
    expect(await turnsOf(third, b)).toBeGreaterThan(0);
    // Reloads: the address names the new episode.
    for (const p of [first, second, third]) {
      const id = p === first ? a : b;
      await p.reload();
      await ready(p);
      expect(await turnsOf(p, id)).toBeGreaterThan(0);
    }
    expect(errors).toEqual([]);
  } finally {
    await ctx.close();
  }
}

describe("georeplay serve: every episode listed opens, in every tab, after any reload", () => {
  it("an eval run's appended episodes", async () => {
    const run = join(dir, "eval", "episodes.jsonl");
    mkdirSync(join(dir, "eval"), { recursive: true });
    writeFileSync(run, LINES.slice(0, 2).join("\n") + "\n");
    const served = await startServe(dir, [run], [], "eval");
    try {
      appendFileSync(run, episodeLine(4, "live-x") + episodeLine(6, "live-y"));
      const ids = await waitSent(served, 2);
      expect(ids).toEqual(["live-x", "live-y"]);
      await reopenAll(served, ids);
      // A link to an episode not written yet: said to be absent once the stream caught up, opened when it comes.
      const page = await browser.newPage();
      await page.goto(`${served.url}#live-later`);
      await ready(page);
      await page.waitForFunction(() => document.getElementById("gr-detail")?.textContent === "Episode live-later is not in this page.");
      appendFileSync(run, episodeLine(7, "live-later"));
      expect(await turnsOf(page, "live-later")).toBeGreaterThan(0);
      expect(await page.$eval('#gr-rows tr[data-id="live-later"]', (tr) => tr.getAttribute("aria-selected"))).toBe("true");
      await page.close();
    } finally {
      await stopServe(undefined, served, join(dir, "none")); // the server alone: `dir` goes after every test
    }
  });

  it("a training run's appended rollouts", async () => {
    const lines = readFileSync(join(FIXTURES, "train-rollouts.jsonl"), "utf8")
      .split("\n")
      .filter((l) => l.trim())
      .map((l) => l + "\n");
    const file = join(dir, "train", "rollouts-rank0.jsonl");
    mkdirSync(join(dir, "train"), { recursive: true });
    writeFileSync(file, lines.slice(0, 4).join(""));
    const served = await startServe(dir, [file], [], "train");
    try {
      appendFileSync(file, lines.slice(4, 8).join(""));
      const ids = await waitSent(served, 4);
      expect(ids).toHaveLength(4);
      await reopenAll(served, [ids[0], ids[3]]);
      // The new step's group (step 1 is all appended), from a link and after a reload: its siblings side by side.
      const page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
      await page.goto(`${served.url}#group/1/eval/1`);
      for (const again of [false, true]) {
        if (again) await page.reload();
        await ready(page);
        await page.waitForFunction(() => document.querySelectorAll("#gr-train-view .grp-heads .grp-col").length === 2, undefined, { timeout: 15_000 });
      }
      await page.close();
    } finally {
      await stopServe(undefined, served, join(dir, "none")); // the server alone: `dir` goes after every test
    }
  });

  it("a board's appended episodes", async () => {
    const sweep = join(dir, "arms");
    const arm = (name: string) =>
      readFileSync(join(FIXTURES, "arms", name, "episodes.jsonl"), "utf8")
        .split("\n")
        .filter((l) => l.trim())
        .map((l) => l + "\n");
    for (const name of ["base", "ckpt200"]) {
      mkdirSync(join(sweep, name), { recursive: true });
      writeFileSync(join(sweep, name, "episodes.jsonl"), arm(name).slice(0, 2).join(""));
    }
    const served = await startServe(dir, [sweep], ["--baseline", "base"], "board");
    try {
      const more = arm("ckpt200").slice(2);
      appendFileSync(join(sweep, "ckpt200", "episodes.jsonl"), more.join(""));
      const ids = await waitSent(served, more.length);
      expect(ids).toHaveLength(more.length);
      await reopenAll(served, [ids[0], ids[ids.length - 1]]);
    } finally {
      await stopServe(undefined, served, join(dir, "none")); // the server alone: `dir` goes after every test
    }
  });
});
