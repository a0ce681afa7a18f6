/**
 * The episode list says its order (issue 51, item 8), in Debian's Chromium on
 * the four-arm board with every verdict the environment writes (Wrong
 * continent the longest): unsorted it says "in file order"; a header click
 * sorts (the sorted column marked ▲/▼, the order said in words, `sort=` in
 * the address), again reverses, Enter on a focused header sorts too; and no
 * verdict is cut at a 1280- or a 1920-px-wide window.
 */
import { describe, expect, it, beforeAll, afterAll } from "vitest";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Browser, type Page } from "playwright-core";
import { launchChromium } from "../browser.ts";
import { MIXED, runCli } from "../helpers.ts";
import { makeFourArmBoard } from "../board-fixture.ts";

const dir = mkdtempSync(join(tmpdir(), "georeplay-list-order-"));
const out = join(dir, "board.html");
/** The environment's verdicts (../shared/docs/trace-format.md, Scoring). */
const VERDICTS = ["Perfect", "Pinpoint", "Close", "Right region", "Wrong continent"];
let browser: Browser;

function jsonlFiles(d: string): string[] {
  return readdirSync(d, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? jsonlFiles(join(d, e.name)) : e.name === "episodes.jsonl" ? [join(d, e.name)] : [],
  );
}

beforeAll(async () => {
  const board = makeFourArmBoard(join(dir, "board")).dir;
  let n = 0;
  for (const f of jsonlFiles(board)) {
    const lines = readFileSync(f, "utf8")
      .split("\n")
      .filter((l) => l.trim())
      .map((l) => {
        const e = JSON.parse(l);
        if (e.outcome) e.outcome.verdict = VERDICTS[n++ % VERDICTS.length];
        return JSON.stringify(e);
      });
    writeFileSync(f, lines.join("\n") + "\n");
  }
  const r = runCli(["page", board, "--tasks", join(MIXED, "tasks.jsonl"), "--panos", join(MIXED, "panos"), "--no-progress", "-o", out]);
  expect(existsSync(out), r.stderr).toBe(true);
  browser = await launchChromium();
}, 600_000);

afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function open(width: number, hash = "") {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(`file://${out}${hash}`);
  await page.waitForFunction(() => document.documentElement.dataset.ready === "1");
  return { page, errors, close: () => context.close() };
}

/** Each sortable header: its key, aria-sort, the mark drawn after it, and whether Tab reaches it. */
const heads = (page: Page) =>
  page.$$eval("table.episodes th[data-sort]", (ths) =>
    ths.map((th) => ({
      key: (th as HTMLElement).dataset.sort!,
      sort: th.getAttribute("aria-sort"),
      mark: getComputedStyle(th, "::after").content,
      tab: (th as HTMLElement).tabIndex,
    })),
  );
const sortParam = (page: Page) => page.evaluate(() => new URLSearchParams(location.hash.split("?")[1] ?? "").get("sort"));
const order = (page: Page) => page.$eval("#gr-order", (e) => e.textContent);
describe("the episode list says its order", () => {
  it("unsorted: in file order, no column marked; every sortable header is a control Tab reaches", async () => {
    const { page, errors, close } = await open(1280);
    expect(await order(page)).toBe("in file order (click a column header to sort)");
    const hs = await heads(page);
    expect(hs.map((h) => h.key)).toEqual(["id", "arm", "task", "sample", "country", "verdict", "score", "env", "km", "turns"]);
    for (const h of hs) {
      expect(h.sort, h.key).toBeNull();
      expect(h.mark, h.key).toBe("none");
      expect(h.tab, h.key).toBe(0);
    }
    expect(errors).toEqual([]);
    await close();
  });

  it("a click sorts and marks the column, again reverses; Enter on a header sorts; the address keeps it and a reload restores it", async () => {
    const { page, errors, close } = await open(1280);
    const score = 'table.episodes th[data-sort="score"]';
    const reward = () => page.$$eval("#gr-rows tr[data-id]", (trs) => trs.map((tr) => Number((tr.children[6] as HTMLElement).textContent)));
    await page.click(score);
    expect(await sortParam(page)).toBe("score:-1");
    let h = (await heads(page)).find((x) => x.key === "score")!;
    expect([h.sort, h.mark]).toEqual(["descending", '" ▼"']);
    expect((await heads(page)).filter((x) => x.sort !== null)).toHaveLength(1);
    expect(await order(page)).toBe("sorted by reward, highest first (click again to reverse)");
    const down = await reward();
    expect(down).toEqual([...down].sort((a, b) => b - a));
    expect(down[0]).toBeGreaterThan(down[down.length - 1]);

    await page.click(score);
    expect(await sortParam(page)).toBe("score:1");
    h = (await heads(page)).find((x) => x.key === "score")!;
    expect([h.sort, h.mark]).toEqual(["ascending", '" ▲"']);
    expect(await order(page)).toBe("sorted by reward, lowest first (click again to reverse)");
    expect(await reward()).toEqual([...down].reverse().sort((a, b) => a - b));

    await page.focus('table.episodes th[data-sort="verdict"]');
    await page.keyboard.press("Enter");
    expect(await sortParam(page)).toBe("verdict:1");
    expect(await order(page)).toBe("sorted by verdict, A to Z (click again to reverse)");
    const verdicts = await page.$$eval("#gr-rows td.verdict", (tds) => tds.map((td) => td.textContent!));
    expect(verdicts).toEqual([...verdicts].sort());
    await page.keyboard.press(" ");
    expect(await sortParam(page)).toBe("verdict:-1");

    await page.reload();
    await page.waitForFunction(() => document.documentElement.dataset.ready === "1");
    h = (await heads(page)).find((x) => x.key === "verdict")!;
    expect([h.sort, h.mark]).toEqual(["descending", '" ▼"']);
    expect(await order(page)).toBe("sorted by verdict, Z to A (click again to reverse)");
    expect(errors).toEqual([]);
    await close();
  });

  for (const width of [1280, 1920]) {
    it(`at ${width} px the verdict column shows every verdict whole (a narrow list wraps it at its space), and the list does not overflow`, async () => {
      const { page, close } = await open(width);
      const fit = await page.evaluate(() => {
        const aside = document.querySelector("aside.list") as HTMLElement;
        const cells = [...document.querySelectorAll<HTMLElement>("#gr-rows td.verdict")];
        return {
          shown: cells.length > 0 && cells.every((td) => getComputedStyle(td).display !== "none"),
          verdicts: [...new Set(cells.map((td) => td.textContent))].sort(),
          cut: cells.filter((td) => td.scrollWidth > td.clientWidth).map((td) => `${td.textContent} ${td.scrollWidth}>${td.clientWidth}`),
          overflow: aside.scrollWidth - aside.clientWidth,
        };
      });
      expect(fit.shown).toBe(true);
      expect(fit.verdicts).toEqual([...VERDICTS].sort());
      expect(fit.cut).toEqual([]);
      expect(fit.overflow).toBeLessThanOrEqual(0);
      await close();
    });
  }
});
