/**
 * `georeplay serve` on a board (a sweep folder, with --baseline): a real
 * server process and a real Chromium page. Lines appended to an arm's
 * episodes file, and a new shard file, change the report's tables in the
 * open page without a reload: the numbers are `georeplay report --json`'s
 * over the same files, the reader's sort stays, a line that is not JSON is
 * skipped as the report skips it. The new episodes join the episode list and
 * open as `georeplay page` shows them: their turns and the very view files it writes.
 */
import { describe, expect, it, beforeAll, afterAll } from "vitest";
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { gunzipSync } from "node:zlib";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { FIXTURES, MIXED, runCli } from "../helpers.ts";
import { startServe, type Served, stopServe, launchChromium } from "../serve-helpers.ts";

const dir = join(tmpdir(), `georeplay-serve-board-${process.pid}`);
const sweep = join(dir, "arms");
/** An arm's fixture lines as another arm's (its own model name and episode ids). */
const renamed = (from: string, to: string) =>
  lines(from).map((l) => l.replace(`"model_name":"${from}"`, `"model_name":"${to}"`).replace(/"episode_id":"([^"]+)"/, `"episode_id":"$1-${to}"`));
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
  // A shard's half-written last line is named and makes report exit 2 (its numbers are of the other rows, as serve's).
  expect(r.code === 0 || (r.code === 2 && /not valid JSON/.test(r.stderr)), r.stderr).toBe(true);
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
    const late = renamed("base", "late");
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

/** What `georeplay page -o DIR/` shows of an episode: each turn's exact view file (null: none), from its chunk and the page's view table. */
function builtViews(folder: string, id: string): Record<number, string | null> {
  const html = readFileSync(join(folder, "index.html"), "utf8");
  // `page -o DIR/` keeps its page-wide tables (the view table among them) in data/tables-0.js, out of index.html.
  const tables = readFileSync(join(folder, "data", "tables-0.js"), "utf8");
  const inFile = JSON.parse(tables.slice(tables.indexOf("{"), tables.lastIndexOf(")"))) as Record<string, unknown>;
  const table = (name: string) =>
    name in inFile ? inFile[name] : (JSON.parse(new RegExp(`<script type="application/json" id="${name}">([\\s\\S]*?)</script>`).exec(html)![1]) as unknown);
  const row = (table("gr-board-data") as { episodes: { id: string; chunk: number; at: number }[] }).episodes.find((r) => r.id === id)!;
  const script = readFileSync(join(folder, "data", `chunk-${row.chunk}.js`), "utf8");
  const b64 = JSON.parse(/,\d+,("[^"]*")\);/.exec(script)![1]) as string;
  const chunk = JSON.parse(gunzipSync(Buffer.from(b64, "base64")).toString("utf8")) as { episodes: { turns: { turn: number; image: number | null }[] }[] };
  const images = table("gr-images") as string[];
  return Object.fromEntries(chunk.episodes[row.at].turns.map((t) => [t.turn, t.image === null ? null : images[t.image]]));
}

describe("georeplay serve: a board's episode list grows", () => {
  it("lists new episodes (an arm's appended lines, a new shard) and opens them as `georeplay page` does, the reader's place kept", async () => {
    const page = await browser.newPage({ viewport: { width: 1200, height: 420 } });
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(served.url);
    await page.waitForFunction(() => document.documentElement.dataset.ready === "1");
    await page.waitForFunction(() => document.getElementById("gr-live")?.dataset.state?.startsWith("live"));
    const listed = () => page.$$eval("#gr-rows tr[data-id]", (trs) => trs.map((tr) => (tr as HTMLElement).dataset.id!));
    // The reader sorts the list by km (descending), opens an episode and scrolls the list.
    await page.click('table.episodes th[data-sort="km"]');
    await page.click('table.episodes th[data-sort="km"]');
    const kms = () =>
      page.$$eval("#gr-rows tr[data-id]", (trs) => trs.map((tr) => Number((tr.children[8] as HTMLElement).textContent!.replace(/,/g, "")) || 0));
    expect(await kms()).toEqual([...(await kms())].sort((a, b) => b - a));
    const opened = (await listed())[1];
    await page.click(`#gr-rows tr[data-id="${opened}"]`);
    await page.waitForFunction((id) => document.querySelector("#gr-detail h2")?.textContent?.includes(id), opened);
    const scrolled = await page.$eval("aside.list", (a) => ((a as HTMLElement).scrollTop = 40));
    expect(scrolled).toBeGreaterThan(0);
    const address = await page.evaluate(() => location.href);
    const before = await listed();

    // An arm's shard grows and a new arm's shard appears (its last episode has a view that does not match: reprojected).
    const late = renamed("base", "late");
    appendFileSync(join(sweep, "late", "episodes.jsonl"), late.slice(2).join(""));
    mkdirSync(join(sweep, "later"), { recursive: true });
    const later = renamed("ckpt200", "later");
    writeFileSync(join(sweep, "later", "episodes.jsonl"), later.join(""));
    const added = [...late.slice(2), ...later].map((l) => (JSON.parse(l) as { episode_id: string }).episode_id);
    const want = report();
    await page.waitForFunction((n) => document.querySelectorAll("#gr-rows tr[data-id]").length === n, before.length + added.length, { timeout: 5000 });
    await page.waitForFunction((n) => document.getElementById("gr-board-h")?.textContent?.startsWith(`Board: ${n} episodes`), want.episodes, { timeout: 5000 });
    const after = await listed();
    expect(after.filter((id) => !before.includes(id)).sort()).toEqual([...added].sort());
    // The reader's place: the sort (still by km, descending: the new rows sorted in), the scroll, the open episode.
    expect(await page.evaluate(() => location.href)).toBe(address);
    expect(await kms()).toEqual([...(await kms())].sort((a, b) => b - a));
    expect(await page.$eval("aside.list", (a) => (a as HTMLElement).scrollTop)).toBe(scrolled);
    expect(await page.$eval("#gr-detail h2", (h) => h.textContent)).toContain(opened);

    // The new episodes are in their task's list (the task filter).
    type Line = { episode_id: string; task: { index: number }; turns: { turn: number; image_kind: string; image_sha256?: string }[] };
    const last = JSON.parse(later[3]) as Line;
    await page.selectOption("#f-task", String(last.task.index));
    await page.waitForFunction((id) => document.querySelector(`#gr-rows tr[data-id="${id}"]`) !== null, last.episode_id);
    const sameTask = [...late.slice(2), ...later].map((l) => JSON.parse(l) as Line).filter((e) => e.task.index === last.task.index);
    expect(await listed()).toEqual(expect.arrayContaining(sameTask.map((e) => e.episode_id)));

    // And in the per-task table: the new arm is a choice, its attempts are listed on their task's row.
    await page.selectOption("#t-arm", "later");
    const attempts = await page.$$eval(`#t-rows tr[data-task="${last.task.index}"][data-arm="later"] a.ep-link`, (as) =>
      as.map((a) => (a as HTMLElement).dataset.id),
    );
    expect(attempts.sort()).toEqual(
      sameTask
        .filter((e) => e.episode_id.endsWith("-later"))
        .map((e) => e.episode_id)
        .sort(),
    );

    // Opened: its turns, its exact views (the verified bytes, the files `georeplay page` writes), its reprojected mismatch.
    const built = join(dir, "built");
    expect(
      runCli(["page", sweep, "--tasks", join(MIXED, "tasks.jsonl"), "--panos", join(MIXED, "panos"), "--baseline", "base", "--partial", "-o", `${built}/`])
        .stdout,
    ).toMatch(/^wrote /m);
    const views = builtViews(built, last.episode_id);
    await page.click(`#gr-rows tr[data-id="${last.episode_id}"]`);
    await page.waitForFunction((id) => document.querySelector("#gr-detail h2")?.textContent?.includes(id), last.episode_id);
    expect(await page.$$eval("#gr-detail article.turn", (a) => a.map((t) => Number((t as HTMLElement).dataset.turn)))).toEqual(last.turns.map((t) => t.turn));
    // Each turn's picture, once scrolled to (they load as they come into view).
    for (const t of last.turns) {
      await page.$eval(`#gr-detail article.turn[data-turn="${t.turn}"]`, (a) => a.scrollIntoView());
      await page.waitForFunction(
        (n) => {
          const card = document.querySelector(`#gr-detail article.turn[data-turn="${n}"]`)!;
          const img = card.querySelector<HTMLImageElement>("img[data-img]");
          const canvas = card.querySelector<HTMLCanvasElement>("canvas[data-pano]");
          return img ? img.complete && img.naturalWidth > 0 : canvas ? canvas.dataset.drawn === "1" : true;
        },
        t.turn,
        { timeout: 5000 },
      );
    }
    const shown = await page.$$eval("#gr-detail article.turn", (a) =>
      a.map((t) => [Number((t as HTMLElement).dataset.turn), t.querySelector("img[data-img]")?.getAttribute("src") ?? null] as const),
    );
    expect(Object.fromEntries(shown)).toEqual(views);
    const exact = shown.filter(([, src]) => src !== null);
    expect(exact.length).toBeGreaterThan(0);
    const recorded = new Set(last.turns.map((t) => t.image_sha256));
    for (const [, src] of exact) {
      const bytes = Buffer.from(await (await fetch(new URL(src!, served.url))).arrayBuffer());
      const digest = createHash("sha256").update(bytes).digest("hex");
      expect(src).toBe(`views/${digest}.jpg`);
      expect(recorded.has(digest)).toBe(true);
      expect(existsSync(join(built, src!)) && readFileSync(join(built, src!)).equals(bytes)).toBe(true);
    }
    // A view that does not match has no exact bytes: drawn from its panorama, as the built page draws it.
    const mismatch = shown.filter(([turn, src]) => src === null && last.turns.find((t) => t.turn === turn)!.image_kind === "view");
    expect(mismatch.length).toBeGreaterThan(0);
    for (const [turn] of mismatch)
      expect(await page.$eval(`#gr-detail article.turn[data-turn="${turn}"] canvas[data-pano]`, (c) => (c as HTMLElement).dataset.drawn)).toBe("1");
    // Its map turns drawn, land and borders included (a live episode's maps carry their own paths).
    const maps = last.turns.filter((t) => t.image_kind === "map");
    expect(maps.length).toBeGreaterThan(0);
    for (const t of maps)
      expect(
        await page.$$eval(`#gr-detail article.turn[data-turn="${t.turn}"] svg path`, (ps) => ps.some((p) => (p.getAttribute("d") ?? "").length > 20)),
      ).toBe(true);
    // No player record for a live episode: no play button.
    expect(await page.$("#gr-detail .player-slot")).toBeNull();
    // The compare view pairs it with the other arm's attempt (each from its own chunk).
    await page.evaluate((task) => (location.hash = `#compare/${task}/later/ckpt200`), last.task.index);
    await page.waitForSelector(`.cmp-col[data-arm="later"][data-episode="${last.episode_id}"]`, { timeout: 5000 });
    expect(await page.$(`.cmp-col[data-arm="ckpt200"][data-episode="${last.episode_id.replace(/-later$/, "")}"]`)).not.toBeNull();
    expect(errors).toEqual([]);
    expect(served.stderr()).not.toMatch(/\bat .*\.js:\d+/);
    await page.close();
  });
});
