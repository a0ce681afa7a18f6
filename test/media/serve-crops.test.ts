/**
 * `georeplay serve` on a crops run being written: a real server process and a real Chromium page.
 * Records appended to the run's episodes.jsonl (lines of the sample's runs) reach the open tab
 * without a reload, each verified first (an altered view is flagged as `page` flags it); a reload
 * and a deep link open an episode added live, and a link to one not written yet opens it when it
 * is; a torn last line waits for its newline; a bad line is one line naming file, line and field,
 * on stderr and in the page; a file read again from its start repeats nothing; Ctrl-C removes the
 * server's folder (exit 130).
 */
import { describe, expect, it, beforeAll, afterAll } from "vitest";
import { appendFileSync, cpSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { FIXTURES, runCli } from "../helpers.ts";
import { launchChromium, startServe, type Served } from "../serve-helpers.ts";

const SAMPLE = join(FIXTURES, "crops", "sample");
const dir = join(tmpdir(), `georeplay-serve-crops-${process.pid}`);
const run = join(dir, "data", "eval");
const file = join(run, "episodes.jsonl");
const lines = (name: string) =>
  readFileSync(join(SAMPLE, name, "episodes.jsonl"), "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => l + "\n");
const EVAL = lines("eval");
const CORRUPTED = lines("eval-corrupted");
const idOf = (line: string) => (JSON.parse(line) as { episode_id: string }).episode_id;

let browser: Browser;
let served: Served;

/** The list's rows as the page shows them: key -> score's exact value. */
const listed = (page: Page) =>
  page.$$eval("#gr-rows tr[data-key]", (trs) =>
    Object.fromEntries(trs.map((tr) => [(tr as HTMLElement).dataset.key!, Number((tr.querySelector('td[data-key="score"]') as HTMLElement).dataset.value)])),
  );
const rowCount = (page: Page, n: number) =>
  page.waitForFunction((want) => document.querySelectorAll("#gr-rows tr[data-key]").length === want, n, { timeout: 60_000 });
const opened = (page: Page, id: string) => page.waitForSelector(`#gr-detail[data-episode="${id}"] article.crops-turn`, { timeout: 60_000 });
const ready = async (page: Page) => {
  await page.waitForSelector("html[data-ready='1']");
  await page.waitForFunction(() => document.getElementById("gr-live")?.dataset.state?.startsWith("live"), undefined, { timeout: 60_000 });
};

beforeAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(run, { recursive: true });
  for (const f of ["images", "tasks.jsonl", "gt.jsonl"]) cpSync(join(SAMPLE, f), join(dir, "data", f), { recursive: true });
  writeFileSync(file, EVAL.slice(0, 3).join(""));
  browser = await launchChromium();
  served = await startServe(dir, [file], [], "crops", ["--no-progress"]);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  if (served?.proc.exitCode === null) {
    served.proc.kill("SIGINT");
    await served.exit;
  }
  rmSync(dir, { recursive: true, force: true });
});

describe("georeplay serve: a crops run being written", () => {
  it("shows appended records in the open tab without a reload, verified, with the report's numbers", async () => {
    const page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(served.url);
    await ready(page);
    await rowCount(page, 3);
    // The reader opens the second episode and marks the window: neither is lost when records come.
    const second = idOf(EVAL[1]);
    await page.click(`#gr-rows tr[data-key="${second}"]`);
    await opened(page, second);
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));

    appendFileSync(file, EVAL.slice(3, 6).join(""));
    await rowCount(page, 6);
    // The live mark counts what came after the server started: three, not the three it started with.
    await page.waitForFunction(() => document.getElementById("gr-live")?.dataset.added === "3");
    expect(await page.$eval("#gr-live", (e) => e.textContent)).toMatch(/^● live · 3 new episode\(s\) · last at \d\d:\d\d:\d\d$/);
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
    expect(await page.$eval("#gr-detail", (d) => d.dataset.episode)).toBe(second);
    // Every row's score is its record's; every one verified clean.
    const want = Object.fromEntries(EVAL.slice(0, 6).map((l) => [idOf(l), (JSON.parse(l) as { outcome: { score: number } }).outcome.score]));
    expect(await listed(page)).toEqual(want);
    expect(await page.$$eval('#gr-rows td[data-key="flags"]', (tds) => tds.map((td) => td.textContent))).toEqual(Array(6).fill("clean"));
    // The board: `georeplay report --json` over the same file, number for number.
    const r = runCli(["report", file, "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const arm = (JSON.parse(r.stdout) as { arms: { arm: string; episodes: number; mean_of_k: number }[] }).arms[0];
    await page.waitForFunction(
      (a) => document.querySelector(`#gr-arms tr[data-arm="${a.arm}"] td[data-stat="episodes"]`)?.getAttribute("data-value") === String(a.episodes),
      arm,
      { timeout: 30_000 },
    );
    expect(Number(await page.$eval(`#gr-arms tr[data-arm="${arm.arm}"] td[data-stat="mean_of_k"]`, (td) => (td as HTMLElement).dataset.value))).toBe(
      arm.mean_of_k,
    );
    await page.waitForFunction(() => document.getElementById("gr-episode-count")?.textContent?.startsWith("6 episodes"), undefined, { timeout: 30_000 });
    expect(await page.$eval("#gr-facts", (p) => p.textContent)).toMatch(/all \d+ recorded views reproduce byte for byte/);

    // A record whose view was altered (the sample's corrupted run): listed with its finding, as `page` flags it.
    const altered = CORRUPTED.find((l) => idOf(l) === "42d863f6a923")!;
    appendFileSync(file, altered);
    await rowCount(page, 7);
    expect(await page.$eval('#gr-rows tr[data-key="42d863f6a923"] td[data-key="flags"]', (td) => td.textContent)).toBe("view");
    await page.click('#gr-rows tr[data-key="42d863f6a923"]');
    await page.waitForSelector('#gr-detail[data-episode="42d863f6a923"] #gr-episode-drift .finding[data-kind=view][data-turn="4"]');
    const hashes = await page.$$eval("#gr-episode-drift .finding[data-kind=view] code.hash", (c) => c.map((x) => x.textContent));
    expect(hashes).toHaveLength(2);
    expect(hashes[0]).toMatch(/^[0-9a-f]{64}$/);
    expect(hashes[0]).not.toBe(hashes[1]);
    await page.waitForFunction(() => document.getElementById("gr-drift")?.textContent?.includes("1 of"), undefined, { timeout: 30_000 });
    // The re-rendered views are the page's own files.
    const src = await page.$eval("#gr-detail article.crops-turn img.view", (i) => (i as HTMLImageElement).getAttribute("src"));
    expect(src).toMatch(/^views\/[0-9a-f]{64}\.jpg$/);
    expect(await page.$eval("#gr-detail article.crops-turn img.view", (i) => (i as HTMLImageElement).naturalWidth)).toBeGreaterThan(300);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("opens an episode added live on a reload and from a deep link, and one not written yet when it is", async () => {
    const added = idOf(EVAL[4]);
    const page = await browser.newPage();
    await page.goto(`${served.url}#${added}`);
    await ready(page);
    await opened(page, added);
    await page.reload();
    await ready(page);
    await opened(page, added);
    expect(await page.$$eval("#gr-rows tr[data-key]", (t) => t.length)).toBe(7);

    // A link to an episode the writer has not written yet: said so, then opened when it comes.
    const later = idOf(EVAL[6]);
    const tab = await browser.newPage();
    await tab.goto(`${served.url}#${later}`);
    await ready(tab);
    await tab.waitForFunction((id) => document.getElementById("gr-detail")?.textContent?.includes(`Episode ${id} is not in this page yet`), later);
    appendFileSync(file, EVAL[6]);
    await opened(tab, later);
    await page.close();
    await tab.close();
  });

  it("waits for a torn last line's newline, names a bad line in one line, and repeats nothing when the file is read again", async () => {
    const page = await browser.newPage();
    await page.goto(served.url);
    await ready(page);
    await rowCount(page, 8);
    // Half a record: the writer's, not an error. Three polls later it is still nobody's problem.
    const half = Math.floor(EVAL[7].length / 2);
    appendFileSync(file, EVAL[7].slice(0, half));
    await new Promise((r) => setTimeout(r, 1600));
    expect(served.stderr()).not.toMatch(/warning/);
    appendFileSync(file, EVAL[7].slice(half));
    await rowCount(page, 9);

    // Lines 10 and 11: not JSON, and a crops record without its fields; line 12 a good record still shows.
    appendFileSync(file, '{"env": "crops", "episode_id": \n' + '{"env": "crops", "episode_id": "nothing-else"}\n' + EVAL[8]);
    await rowCount(page, 10);
    await page.waitForFunction(() => document.querySelectorAll("#gr-live-problems li").length === 2, undefined, { timeout: 30_000 });
    const problems = await page.$$eval("#gr-live-problems li", (li) => li.map((x) => x.textContent));
    expect(problems[0]).toMatch(/episodes\.jsonl:10: not valid JSON: /);
    expect(problems[1]).toMatch(/episodes\.jsonl:11: schema_version: expected 1/);
    const said = served
      .stderr()
      .split("\n")
      .filter((l) => l.startsWith("warning: "));
    expect(said).toHaveLength(2);
    expect(said[0]).toBe(`warning: ${problems[0]}`);
    expect(said[0]).not.toMatch(/truncated/);
    expect(served.stderr()).not.toMatch(/\bat .*\.js:\d+/);

    // The file replaced by a fresh copy of its first lines (a resumed run): read again, nothing listed twice.
    writeFileSync(`${file}.new`, EVAL.slice(0, 2).join(""));
    renameSync(`${file}.new`, file);
    await new Promise<void>((resolve, reject) => {
      const end = Date.now() + 30_000;
      const check = () =>
        /truncated or replaced/.test(served.stderr()) ? resolve() : Date.now() > end ? reject(new Error(served.stderr())) : setTimeout(check, 100);
      check();
    });
    appendFileSync(file, EVAL[9]);
    await rowCount(page, 11);
    const keys = Object.keys(await listed(page));
    expect(new Set(keys).size).toBe(11);
    expect(keys.some((k) => k.includes("~"))).toBe(false);
    await page.close();
  });

  it("follows a GRPO training run: appended rollouts listed with their step and advantage, verified clean", async () => {
    const train = join(dir, "data", "train", "rollouts.jsonl");
    mkdirSync(join(dir, "data", "train"), { recursive: true });
    const rollouts = readFileSync(join(SAMPLE, "train", "rollouts.jsonl"), "utf8")
      .split("\n")
      .filter((l) => l.trim())
      .map((l) => l + "\n");
    // Half a group at start (the trainer is writing it): no finding for the siblings not written yet.
    writeFileSync(train, rollouts.slice(0, 3).join(""));
    const trained = await startServe(dir, [train], [], "crops-train", ["--no-progress"]);
    try {
      const page = await browser.newPage();
      await page.goto(trained.url);
      await ready(page);
      await rowCount(page, 3);
      appendFileSync(train, rollouts.slice(3, 18).join(""));
      await rowCount(page, 18);
      const recs = rollouts.slice(0, 18).map((l) => JSON.parse(l) as { episode_id: string; step: number; outcome: { advantage: number } });
      expect(await page.$$eval("#gr-rows tr[data-key]", (trs) => trs.map((tr) => (tr as HTMLElement).dataset.key))).toEqual(recs.map((r) => r.episode_id));
      expect(await page.$$eval('#gr-rows td[data-key="flags"]', (tds) => tds.map((td) => td.textContent))).toEqual(Array(18).fill("clean"));
      expect(await page.$eval("#gr-facts", (p) => p.textContent)).not.toMatch(/finding/);
      // The rows carry their step and advantage: the filter expression reads them.
      for (const [expr, want] of [
        ["step == 1", recs.filter((r) => r.step === 1)],
        ["advantage > 0", recs.filter((r) => r.outcome.advantage > 0)],
      ] as const) {
        await page.fill("#f-expr", expr);
        await page.press("#f-expr", "Enter");
        await page.waitForFunction((n) => document.getElementById("gr-count")?.dataset.rows === String(n), want.length);
        expect(await page.$$eval("#gr-rows tr[data-key]", (trs) => trs.map((tr) => (tr as HTMLElement).dataset.key))).toEqual(want.map((r) => r.episode_id));
      }
      await page.close();
    } finally {
      trained.proc.kill("SIGINT");
      expect(await trained.exit).toBe(130);
    }
  });

  it("stops on Ctrl-C, removing its folder (exit 130)", async () => {
    served.proc.kill("SIGINT");
    expect(await served.exit).toBe(130);
    expect(readdirSync(served.tmp).filter((n) => n.startsWith("georeplay-serve-"))).toEqual([]);
  });
});
