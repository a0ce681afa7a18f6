/**
 * One click plays: a press of a "▶ Play" button loads the player and starts
 * it, with no second press on its own play button. In Chromium from
 * file://: an episode of a training run (the one-file page, and the folder
 * form that plans its video in the browser), a GRPO group's siblings on one
 * clock, a board's episode and its compare view's two-up. (A served page's
 * live episode: serve-player.test.ts.) Playing means the clock advances and
 * the canvas is painted anew.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { launchChromium } from "../browser.ts";
import { FIXTURES, MIXED } from "../helpers.ts";
import { makeFourArmBoard } from "../board-fixture.ts";
import { buildPage } from "../../envs/geoguesser/src/page/build.ts";

const dir = mkdtempSync(join(tmpdir(), "georeplay-one-click-"));
const trainFile = join(dir, "train.html");
const trainFolder = join(dir, "train-folder") + "/";
const boardFile = join(dir, "board.html");
const inputs = { tasks: join(MIXED, "tasks.jsonl"), panos: join(MIXED, "panos"), jobs: 1 };
let browser: Browser;

beforeAll(async () => {
  mkdirSync(join(dir, "train"), { recursive: true });
  const rollouts = join(dir, "train", "rollouts-rank0.jsonl");
  writeFileSync(rollouts, readFileSync(join(FIXTURES, "train-rollouts.jsonl")));
  await buildPage({ ...inputs, episodes: [rollouts], out: trainFile });
  await buildPage({ ...inputs, episodes: [rollouts], out: trainFolder });
  const board = makeFourArmBoard(join(dir, "board"));
  await buildPage({ ...inputs, episodes: [board.dir], baseline: "base", partial: true, out: boardFile });
  browser = await launchChromium({ webgl: true });
}, 600_000);

afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function open(file: string, hash: string): Promise<{ page: Page; errors: string[]; close: () => Promise<void> }> {
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(`file://${file}${hash}`);
  await page.waitForFunction(() => document.documentElement.dataset.ready === "1");
  return { page, errors, close: () => context.close() };
}

/**
 * Every video canvas of the player, as PNG data URLs (what has been painted on them), null where the page may not read
 * it. A group's score card has a canvas of its own, painted when the clock reaches it: not one of these.
 */
const pictures = (page: Page, player: string) =>
  page.$$eval(`${player} canvas:not(.score-card)`, (cs) =>
    cs.map((c) => {
      try {
        return (c as HTMLCanvasElement).toDataURL("image/png");
      } catch {
        return null; // a folder page over file:// paints view files, which taint it: not readable
      }
    }),
  );

/**
 * Presses `start` once, then touches nothing: the player loads, its clock runs (data-frame grows
 * by 90 frames, three seconds of video: past an opening hold) and its canvases are painted anew. Returns how many it could read.
 */
async function playsAfterOneClick(page: Page, start: string, player: string): Promise<number> {
  await page.click(start);
  await page.waitForSelector(`${player}[data-ready]`, { timeout: 120_000 });
  const frame = () => page.$eval(player, (p) => Number((p as HTMLElement).dataset.frame));
  const at = await frame();
  const before = await pictures(page, player);
  await page
    .waitForFunction(([sel, f]) => Number((document.querySelector(sel as string) as HTMLElement).dataset.frame) >= (f as number) + 90, [player, at] as const, {
      timeout: 30_000,
    })
    .catch(async () => {
      const p = await page.$eval(player, (e) => ({ ...(e as HTMLElement).dataset }));
      throw new Error(`one click did not play: the player stays at frame ${p.frame} (playing: ${p.playing ?? "no"})`);
    });
  expect(await page.$eval(player, (p) => (p as HTMLElement).dataset.playing)).toBe("1");
  expect(await page.$eval(`${player} button.play`, (b) => b.textContent)).toMatch(/pause/);
  const after = await pictures(page, player);
  expect(after.length).toBe(before.length);
  after.forEach((png, i) => png === null || expect(png, `canvas ${i} painted anew`).not.toBe(before[i]));
  return after.filter((png) => png !== null).length;
}

describe("one click plays", () => {
  it("an episode of a training run: one-file page and folder form", async () => {
    const ids = JSON.parse(/<script type="application\/json" id="gr-player-ids">(.*?)<\/script>/s.exec(readFileSync(trainFile, "utf8"))![1]) as string[];
    expect(ids.length).toBeGreaterThan(0);
    for (const file of [trainFile, join(trainFolder, "index.html")]) {
      const { page, errors, close } = await open(file, `#${ids[0]}`);
      try {
        await page.waitForSelector("#gr-detail .player-slot button.start", { timeout: 20_000 });
        const read = await playsAfterOneClick(page, "#gr-detail .player-slot button.start", "#gr-detail .player");
        // The one-file page's canvas reads back (its views are data: URLs); the folder's, from view files, does not.
        expect(read).toBe(file === trainFile ? 1 : 0);
        expect(errors).toEqual([]);
      } finally {
        await close();
      }
    }
  }, 300_000);

  it("a GRPO group's siblings on one clock", async () => {
    const { page, errors, close } = await open(trainFile, "#group/1/eval/1");
    try {
      await page.waitForSelector("#gr-train-view .tiles-slot button.start");
      const read = await playsAfterOneClick(page, "#gr-train-view .tiles-slot button.start", "#gr-train-view .tiles-player");
      expect(read).toBeGreaterThan(1);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  }, 300_000);

  it("a board's episode and its compare view's two-up", async () => {
    const id = JSON.parse(/<script type="application\/json" id="gr-board-data">(.*?)<\/script>/s.exec(readFileSync(boardFile, "utf8"))![1]).episodes[0]
      .id as string;
    for (const [hash, start, player] of [
      [`#${encodeURIComponent(id)}`, "#gr-detail .player-slot button.start", "#gr-detail .player"],
      ["#compare/1/sonnet-5/base", ".cmp-attempt .player-slot button.start", ".cmp-attempt .player"],
    ]) {
      const { page, errors, close } = await open(boardFile, hash);
      try {
        await page.waitForSelector(start, { timeout: 20_000 });
        expect(await playsAfterOneClick(page, start, player)).toBe(1);
        expect(errors).toEqual([]);
      } finally {
        await close();
      }
    }
  }, 300_000);
});
