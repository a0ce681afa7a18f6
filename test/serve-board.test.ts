/**
 * `georeplay serve` on a board (a sweep folder, with --baseline): a real
 * server process and a real Chromium page. Lines appended to an arm's
 * episodes file, and a new shard file, change the report's tables in the
 * open page without a reload: the numbers are `georeplay report --json`'s
 * over the same files, the reader's sort stays, a line that is not JSON is
 * skipped as the report skips it.
 */
import { describe, expect, it, beforeAll, afterAll } from "vitest";
import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { FIXTURES, runCli } from "./helpers.ts";
import { startServe, type Served, stopServe, launchChromium } from "./serve-helpers.ts";

const dir = join(tmpdir(), `georeplay-serve-board-${process.pid}`);
const sweep = join(dir, "arms");
const lines = (arm: string) =>
  readFileSync(join(FIXTURES, "arms", arm, "episodes.jsonl"), "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => l + "\n");

let browser: Browser;
let served: Served;

/** The arms table as the page shows it: arm -> mean-of-k's exact value, in the page's row order. */
const armsTable = (page: Page) =>
  page.$$eval("#gr-board-arms tbody tr", (trs) =>
    trs.map((tr) => ({
      arm: (tr as HTMLElement).dataset.arm!,
      mean: Number((tr.querySelector('[data-stat="mean_of_k"]') as HTMLElement | null)?.dataset.value),
    })),
  );

/** `georeplay report --baseline base --json` over the sweep as it is now. */
const report = () => {
  const r = runCli(["report", sweep, "--baseline", "base", "--json"]);
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as {
    episodes: number;
    arms: { arm: string; mean_of_k: number }[];
    paired: { comparisons: { arm: string; n: number; delta: number }[] };
  };
};

beforeAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  for (const arm of ["base", "ckpt200"]) {
    mkdirSync(join(sweep, arm), { recursive: true });
    writeFileSync(join(sweep, arm, "episodes.jsonl"), lines(arm).slice(0, 2).join(""));
  }
  browser = await launchChromium();
  served = await startServe(dir, [sweep], ["--baseline", "base"], "board");
});

afterAll(() => stopServe(browser, served, dir));

describe("georeplay serve: a board follows its sweep", () => {
  it("updates the report's tables in place as arms' files grow and new shards appear, with the report's numbers", async () => {
    const page = await browser.newPage();
    await page.goto(served.url);
    await page.waitForFunction(() => document.documentElement.dataset.ready === "1");
    await page.waitForFunction(() => document.getElementById("gr-live")?.dataset.state?.startsWith("live"));
    expect(await page.$eval("#gr-board-h", (h) => h.textContent)).toMatch(/^Board: 4 episodes/);
    // The reader sorts the arms table by mean-of-k, ascending, and keeps a marker: neither is lost.
    await page.click('#gr-board-arms th[data-col="mean_of_k"]');
    await page.click('#gr-board-arms th[data-col="mean_of_k"]');
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
    const sortBefore = await page.evaluate(() => location.search);

    appendFileSync(join(sweep, "ckpt200", "episodes.jsonl"), lines("ckpt200").slice(2).join("") + "{not json\n");
    await page.waitForFunction(() => document.getElementById("gr-board-h")?.textContent?.startsWith("Board: 6 episodes"), undefined, { timeout: 3000 });
    let want = report();
    expect(want.episodes).toBe(6);
    const shown = await armsTable(page);
    expect(Object.fromEntries(shown.map((r) => [r.arm, r.mean]))).toEqual(Object.fromEntries(want.arms.map((a) => [a.arm, a.mean_of_k])));
    // Still in the reader's order (mean-of-k ascending), not the report's.
    expect(shown.map((r) => r.mean)).toEqual([...shown.map((r) => r.mean)].sort((a, b) => a - b));
    expect(await page.$eval('#gr-board-arms th[data-col="mean_of_k"]', (th) => th.getAttribute("aria-sort"))).toBe("ascending");
    const paired = await page.$$eval("#gr-board-paired tbody tr", (trs) =>
      trs.map((tr) => ({ arm: (tr as HTMLElement).dataset.arm, delta: Number((tr.querySelector('[data-stat="delta"]') as HTMLElement).dataset.value) })),
    );
    expect(paired).toEqual(want.paired.comparisons.map((c) => ({ arm: c.arm, delta: c.delta })));

    // A new shard (a third arm starts writing): followed from its first line.
    mkdirSync(join(sweep, "late"), { recursive: true });
    const late = lines("base").map((l) => l.replace('"model_name":"base"', '"model_name":"late"').replace(/"episode_id":"([^"]+)"/, '"episode_id":"$1-late"'));
    writeFileSync(join(sweep, "late", "episodes.jsonl"), late.slice(0, 2).join(""));
    await page.waitForFunction(() => document.querySelector('#gr-board-arms tr[data-arm="late"]') !== null, undefined, { timeout: 3000 });
    want = report();
    await page.waitForFunction((n) => document.getElementById("gr-board-h")?.textContent?.startsWith(`Board: ${n} episodes`), want.episodes, { timeout: 3000 });
    expect((await armsTable(page)).map((r) => r.arm).sort()).toEqual(want.arms.map((a) => a.arm).sort());
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
    expect(await page.evaluate(() => location.search)).toBe(sortBefore);
    expect(await page.$eval("#gr-live", (e) => e.textContent)).toMatch(new RegExp(`live · ${want.episodes} episodes counted · last at \\d\\d:\\d\\d:\\d\\d`));
    // The line that is not JSON: skipped as the report skips it (a torn write), said once on stderr.
    expect(served.stderr()).not.toMatch(/\bat .*\.js:\d+/);
    await page.close();
  });
});
