/**
 * A crops GRPO run's page (issue 50, items 4 and 5) in Debian's Chromium, on the bundled sample's
 * `train` run (3 steps, 6 groups of 6): every step's groups and their siblings, in rank order,
 * carry the numbers of `georeplay groups --json` (advantages: `--scale-rewards none`, the gym's
 * r - mean, as the rollouts record them); the dynamics charts are the steps' numbers; the list's
 * GRPO columns are the groups'. And an episode's Play, one click, plays the video in the page:
 * the frame advances and the canvas's pixels change over time.
 */
import { describe, expect, it, beforeAll, afterAll } from "vitest";
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Browser, type Page } from "playwright-core";
import { launchChromium } from "../browser.ts";
import { FIXTURES, runCli } from "../helpers.ts";

const TRAIN = join(FIXTURES, "crops", "sample", "train");
const ROLLOUTS = join(TRAIN, "rollouts.jsonl");
const dir = mkdtempSync(join(tmpdir(), "georeplay-page-crops-train-"));
const out = join(dir, "train.html");
const folderOut = join(dir, "train") + "/";
let browser: Browser;

type Rec = Record<string, any>;
const records: Rec[] = readFileSync(ROLLOUTS, "utf8")
  .split("\n")
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l));
/** A `file:line` of groups --json to the rollout's episode id (the page's key). */
const idOf = (fileLine: string) => records[Number(fileLine.split(":").at(-1)) - 1].episode_id;

let groups: Rec;
let groupsNone: Rec;

async function open(url: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(url);
  await page.waitForSelector("html[data-ready='1']");
  expect(errors).toEqual([]);
  return page;
}

beforeAll(async () => {
  const built = runCli(["page", TRAIN, "--no-progress", "-o", out]);
  expect(built.code, built.stderr).toBe(0);
  const folder = runCli(["page", TRAIN, "--no-progress", "-o", folderOut]);
  expect(folder.code, folder.stderr).toBe(0);
  groups = JSON.parse(runCli(["groups", TRAIN, "--json"]).stdout);
  groupsNone = JSON.parse(runCli(["groups", TRAIN, "--json", "--scale-rewards", "none"]).stdout);
  browser = await launchChromium();
}, 600_000);

afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("georeplay page on a crops GRPO run", () => {
  it("shows every step's groups, six siblings side by side ranked by advantage, with the numbers of groups --json", async () => {
    expect(groups.groups).toHaveLength(6);
    const page = await open("file://" + out);
    const steps = [...new Set(groups.groups.map((g: Rec) => g.step))] as number[];
    expect(steps).toEqual([0, 1, 2]);
    for (const step of steps) {
      await page.evaluate((s) => (location.hash = `step/${s}`), step);
      await page.waitForSelector(`#gr-crops-groups[data-step="${step}"]`);
      const shown = await page.$$eval("#gr-crops-groups section.group", (ss) =>
        ss.map((s) => ({
          data: { ...(s as HTMLElement).dataset } as Record<string, string>,
          siblings: Array.from(s.querySelectorAll<HTMLElement>("article.sibling")).map((a) => ({
            data: { ...a.dataset } as Record<string, string>,
            boxes: a.querySelectorAll("svg rect.pred").length,
            gt: a.querySelectorAll("svg rect.gt").length,
          })),
        })),
      );
      const want = groups.groups.filter((g: Rec) => g.step === step);
      const none = groupsNone.groups.filter((g: Rec) => g.step === step);
      expect(shown.map((g) => g.data.group)).toEqual(want.map((g: Rec) => g.group_id));
      shown.forEach((g, k) => {
        const w = want[k];
        expect(Number(g.data.mean)).toBe(w.mean);
        expect(Number(g.data.std)).toBe(w.std);
        expect(g.data.zero).toBe(String(w.zero_std));
        // Siblings in rank order (highest advantage first): the rank groups --json gives each.
        const order = w.ranks.map((r: number, i: number) => [r, i]).sort((a: number[], b: number[]) => a[0] - b[0]);
        expect(g.siblings.map((s) => s.data.key)).toEqual(order.map(([, i]: number[]) => idOf(w.rollouts[i])));
        expect(g.siblings.map((s) => Number(s.data.rank))).toEqual([1, 2, 3, 4, 5, 6]);
        g.siblings.forEach((s, j) => {
          const i = order[j][1];
          const rec = records.find((r) => r.episode_id === s.data.key)!;
          expect(Number(s.data.reward)).toBe(w.rewards[i]);
          expect(Number(s.data.advantage)).toBe(none[k].advantages[i]);
          // The gym's advantage, as recorded.
          expect(Number(s.data.advantage)).toBe(rec.outcome.advantage);
          // Its final boxes on the image, over every ground-truth object.
          expect(s.boxes).toBe(rec.turns.at(-1).boxes.length);
          expect(s.gt).toBeGreaterThan(0);
        });
      });
    }
    // A sibling opens its episode.
    const first = await page.getAttribute("#gr-crops-groups article.sibling", "data-key");
    await page.click("#gr-crops-groups article.sibling .nums");
    await page.waitForSelector(`#gr-detail[data-episode="${first}"]`);
    await page.close();
  }, 120_000);

  it("draws the dynamics charts from the steps' numbers, and the list's GRPO columns are the groups'", async () => {
    const page = await open("file://" + out);
    const points = (key: string) =>
      page.$$eval(`svg.chart[data-chart="${key}"] circle.dot`, (cs) => cs.map((c) => [Number(c.getAttribute("data-x")), Number(c.getAttribute("data-y"))]));
    for (const key of ["mean_reward", "median_group_std", "mean_group_std", "frac_reward_zero_std"])
      expect(await points(key), key).toEqual(groups.steps.map((s: Rec) => [s.step, s[key]]));
    expect(await page.$$eval("svg.chart[data-chart]", (cs) => cs.map((c) => c.getAttribute("data-chart")))).toEqual([
      "mean_reward",
      "median_group_std",
      "mean_group_std",
      "frac_reward_zero_std",
      "turns",
      "tools",
    ]);
    const turns = await points("turns");
    for (const [step, y] of turns) {
      const recs = records.filter((r) => r.step === step);
      expect(y).toBeCloseTo(recs.reduce((n, r) => n + r.turns.filter((t: Rec) => t.turn > 0).length, 0) / recs.length, 12);
    }
    const rows = await page.$$eval("#gr-rows tr[data-key]", (trs) =>
      trs.map((tr) => Object.fromEntries(Array.from(tr.querySelectorAll("td")).map((td) => [td.dataset.key!, td.dataset.value ?? ""]))),
    );
    expect(rows).toHaveLength(36);
    for (const g of groups.groups as Rec[])
      g.rollouts.forEach((fl: string, i: number) => {
        const row = rows.find((r) => r.id === idOf(fl))!;
        expect(Number(row.step)).toBe(g.step);
        expect(Number(row.groupMean)).toBe(g.mean);
        expect(Number(row.groupStd)).toBe(g.std);
        expect(Number(row.advantage)).toBe(groupsNone.groups.find((x: Rec) => x.group_id === g.group_id).advantages[i]);
        expect(row.zeroSpread).toBe(String(g.zero_std));
      });
    // The filter expression reads the GRPO fields.
    await page.fill("#f-expr", "advantage > 0 and step == 1");
    await page.press("#f-expr", "Enter");
    await page.waitForFunction(() => document.querySelector<HTMLElement>("#gr-count")?.dataset.rows !== "36");
    const want = records.filter((r) => r.step === 1 && r.outcome.advantage > 0).length;
    expect(Number(await page.getAttribute("#gr-count", "data-rows"))).toBe(want);
    await page.close();
  });

  it("plays an episode in the page with one click: the frame advances and the canvas's pixels change", async () => {
    const page = await open("file://" + out + "#" + records[2].episode_id);
    await page.click("#gr-play");
    await page.waitForSelector(".crops-player[data-ready='1']", { timeout: 30_000 });
    const samples: { frame: number; pixels: string }[] = [];
    for (let i = 0; i < 4; i++) {
      await page.waitForTimeout(700);
      samples.push(
        await page.$eval(".crops-player", (root) => ({
          frame: Number((root as HTMLElement).dataset.frame),
          pixels: (root.querySelector("canvas") as HTMLCanvasElement).toDataURL("image/png"),
        })),
      );
    }
    const frames = samples.map((s) => s.frame);
    for (let i = 1; i < frames.length; i++) expect(frames[i]).toBeGreaterThan(frames[i - 1]);
    const hashes = new Set(samples.map((s) => createHash("sha256").update(s.pixels).digest("hex")));
    expect(hashes.size).toBe(samples.length);
    expect(Number(await page.getAttribute(".crops-player", "data-frames"))).toBeGreaterThan(frames.at(-1)!);
    await page.close();
  }, 120_000);

  it("plays in the folder form too, its videos read from the page's data files on the first Play", async () => {
    expect(readdirSync(join(folderOut, "data"))).toContain("play-0.js");
    expect(readFileSync(join(folderOut, "index.html"), "utf8")).not.toContain(records[0].episode_id + '":"H4sI');
    const page = await open("file://" + join(folderOut, "index.html") + "#" + records[5].episode_id);
    await page.click("#gr-play");
    await page.waitForSelector(".crops-player[data-ready='1']", { timeout: 30_000 });
    const frames: number[] = [];
    for (let i = 0; i < 3; i++) {
      await page.waitForTimeout(700);
      frames.push(Number(await page.getAttribute(".crops-player", "data-frame")));
    }
    for (let i = 1; i < frames.length; i++) expect(frames[i]).toBeGreaterThan(frames[i - 1]);
    await page.close();
  }, 120_000);
});
