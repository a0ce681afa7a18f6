/**
 * The folder form of a crops page at more than one detail file (issue 50's scale goal): the
 * build streams each episode's detail to data/cd-<n>.js and each view to views/, so index.html
 * holds the list and the board, not the run. In Chromium: a deep link to an episode of the last
 * file opens it, a search finds words that only the detail files hold, compare by attempt
 * loads what its cells show, and the views are the exact files.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { launchChromium } from "../browser.ts";
import { FIXTURES, runCli } from "../helpers.ts";

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
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
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
