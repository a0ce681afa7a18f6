/**
 * A researcher's first hour (issue 51, items 2-4), on real CLI runs and real Chromium:
 * - one number per fact: the board's episode total is one number on every surface (the `page`
 *   CLI line, `page --json`, the header, the list's count and summary, the board's heading,
 *   `report`'s note), with unscored and errored episodes counted apart in the same words; an
 *   errored episode never shows a reward of 0 (list, CSV, per-task attempts, compare view); a
 *   board says panoramas for its panoramas, never "distinct images";
 * - mismatches stand out: the header says a board drifted in the alarm colour; a drifted turn
 *   shows both digests in full with copy buttons and says the record holds only the hash; the
 *   enlarged view names the turn;
 * - no badge claims more than it checked: in a one-file page over its budget a reprojected view
 *   is badged as reprojected, not "match", and the header says how many views are exact.
 * The score cards and the player's banner are tested on the frames (test/score-numbers.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appendFileSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Browser } from "playwright-core";
import { launchChromium } from "../browser.ts";
import { MIXED, runCli } from "../helpers.ts";
import { makeFourArmBoard } from "../board-fixture.ts";
import type { Report } from "../../envs/geoguesser/replay/board/report-schema.ts";

const dir = mkdtempSync(join(tmpdir(), "georeplay-numbers-"));
const board = join(dir, "board");
const out = join(dir, "board.html");
const tight = join(dir, "tight.html");
const ERRORED = "err0r0000051";
/** The words every surface uses for this board's total (counted, then the rest apart). */
let words: string;
let report: Report;
let cli: { code: number | null; stdout: string; stderr: string };
let json: Record<string, unknown>;
let tightJson: Record<string, number>;
let browser: Browser;

type Raw = { episode_id: string; turns?: { turn: number; image_sha256?: string | null }[] };
function rawEpisodes(d: string): Raw[] {
  const found: Raw[] = [];
  const walk = (p: string) => {
    for (const e of readdirSync(p, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(p, e.name));
      else if (e.name === "episodes.jsonl") for (const l of readFileSync(join(p, e.name), "utf8").split("\n")) if (l.trim()) found.push(JSON.parse(l));
    }
  };
  walk(d);
  return found;
}

const args = (o: string, more: string[] = []) => [
  "page",
  board,
  "--tasks",
  join(MIXED, "tasks.jsonl"),
  "--panos",
  join(MIXED, "panos"),
  "--baseline",
  "base",
  "--no-player",
  "-o",
  o,
  ...more,
];

beforeAll(async () => {
  makeFourArmBoard(board);
  // An episode the environment failed (no turns, no outcome), as test/fixtures/boards records one.
  appendFileSync(
    join(board, "ckpt-a", "pass-0", "shard-0", "episodes.jsonl"),
    JSON.stringify({
      schema_version: 2,
      episode_id: ERRORED,
      model_name: "ckpt-a",
      task: { split: "eval", index: 4, sample: 9 },
      error: "RuntimeError: session capacity",
      traceback: "Traceback ...\nRuntimeError",
    }) + "\n",
  );
  const r = runCli(["report", board, "--baseline", "base", "--json"]);
  expect(r.code, r.stderr).toBe(0);
  report = JSON.parse(r.stdout);
  words = `${report.episodes} episodes (+ 2 unscored, 1 errored: not counted)`;
  cli = runCli(args(out));
  const j = runCli(args(join(dir, "j.html"), ["--json"]));
  json = JSON.parse(j.stdout);
  // Over its budget: every view reprojected.
  const t = runCli(args(tight, ["--max-mb", "0", "--json"]));
  tightJson = JSON.parse(t.stdout);
  browser = await launchChromium();
}, 900_000);

afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function open(file: string, hash = "") {
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 }, acceptDownloads: true });
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(`file://${file}${hash}`);
  await page.waitForFunction(() => document.documentElement.dataset.ready === "1");
  await page.waitForLoadState("load");
  return { page, errors, close: () => context.close() };
}

describe("one number per fact: the episode total", () => {
  it("report counts 3 left out (2 unscored, 1 errored), says so in the page's words, and its JSON splits them", () => {
    expect(report.dropped_unscored).toBe(3);
    expect(report.dropped_errored).toBe(1);
    const r = runCli(["report", board, "--baseline", "base"]);
    expect(r.code).toBe(0);
    // stdout stays geoeval's byte for byte (its own note lumps them); the split is on stderr.
    expect(r.stdout).toContain(`note: dropped 3 unscored episode(s) with no reward`);
    expect(r.stderr).toContain(`note: ${words}, as georeplay page counts them`);
  });

  it("the page CLI line and --json give the report's total, the rest apart; a board's images are its panoramas", () => {
    expect(cli.code, cli.stderr).toBe(1); // the sweep fixture carries mixed's corrupted hashes
    expect(cli.stdout).toMatch(
      new RegExp(`^wrote .*board\\.html · ${words.replace(/[()+]/g, "\\$&")} · \\d+ views \\(\\d+ panoramas, \\d+ exact views[^)]*\\) · [\\d.]+ MB\\n$`),
    );
    expect(cli.stdout).not.toContain("distinct images");
    expect(json).toMatchObject({ counted: report.episodes, unscored: 2, errored: 1 });
  });

  it("the header, the board's heading, the list's count and its summary say the same words", async () => {
    const { page, errors, close } = await open(out);
    expect(await page.textContent("#gr-episode-count")).toBe(words);
    expect(await page.textContent("#gr-board-h")).toBe(`Board: ${words} over ${report.arms.length} arm(s)`);
    await page.waitForFunction(() => document.querySelectorAll("#gr-rows tr[data-id]").length > 0);
    expect(await page.textContent("#gr-count")).toBe(words);
    expect(await page.textContent('#gr-list-summary [data-stat="rows"]')).toBe(words);
    const facts = (await page.textContent("#gr-facts"))!;
    expect(facts).not.toContain("distinct images");
    expect(facts).toMatch(/\(\d+ panoramas stored; /);
    // Filtered: the shown counted episodes of the total, the rest apart.
    await page.selectOption("#f-model", "ckpt-a");
    const a = report.arms.find((x) => x.arm === "ckpt-a")!;
    await page.waitForFunction(
      (t) => document.getElementById("gr-count")!.textContent === t,
      `${a.episodes} of ${report.episodes} episodes (+ 1 errored: not counted)`,
    );
    expect(errors).toEqual([]);
    await close();
  });

  it("an errored episode shows no reward (–), never 0.000: list, CSV, per-task attempts, compare view", async () => {
    const { page, errors, close } = await open(out);
    await page.fill("#f-q", ERRORED);
    await page.waitForFunction(() => document.querySelectorAll("#gr-rows tr[data-id]").length === 1);
    const col = await page.$$eval("table.episodes thead th", (ths) => ths.findIndex((th) => (th as HTMLElement).dataset.sort === "score"));
    expect(await page.textContent(`#gr-rows tr[data-id] td:nth-child(${col + 1})`)).toBe("–");
    const [dl] = await Promise.all([page.waitForEvent("download"), page.click("#f-csv")]);
    const csv = readFileSync((await dl.path())!, "utf8").split("\n");
    const head = csv[0].split(",");
    const row = csv.find((l) => l.startsWith(`${ERRORED},`))!.split(",");
    expect(row[head.indexOf("reward")]).toBe("");
    // The per-task table's attempts and the compare view's "not counted" list.
    await page.goto(`file://${out}#compare/4/base/ckpt-a`);
    await page.waitForFunction((id) => document.querySelector(`#gr-compare li[data-episode="${id}"]`) !== null, ERRORED);
    const li = (await page.textContent(`#gr-compare li[data-episode="${ERRORED}"]`))!;
    expect(li).toContain("reward –");
    expect(li).not.toMatch(/reward 0\.0+/);
    const link = (await page.$$eval(`a.ep-link[data-id="${ERRORED}"]`, (as) => as.map((a) => a.textContent)))[0];
    expect(link).toBe("9: –");
    expect(errors).toEqual([]);
    await close();
  });
});

describe("mismatches stand out", () => {
  it("the header says the board drifted, in the page's alarm colour", async () => {
    const { page, close } = await open(out);
    const drift = await page.$eval("#gr-drift", (e) => ({
      text: e.textContent!,
      color: getComputedStyle(e).color,
      bad: getComputedStyle(document.documentElement).getPropertyValue("--bad").trim(),
    }));
    expect(drift.text).toMatch(/^\d+ of \d+ recorded views drifted \(mismatch\)/);
    // --bad as the browser resolves it (#b3261e light, #ff8a80 dark).
    const probe = await page.evaluate((c) => {
      const s = document.createElement("span");
      s.style.color = c;
      document.body.appendChild(s);
      return getComputedStyle(s).color;
    }, drift.bad);
    expect(drift.color).toBe(probe);
    await close();
  });

  it("a drifted turn shows both digests in full, copyable, and says the record holds only the hash; the enlarged view names the turn", async () => {
    const { page, errors, close } = await open(out);
    await page.selectOption("#f-status", "mismatch");
    await page.waitForFunction(() => document.querySelectorAll("#gr-rows tr[data-id]").length > 0);
    const id = (await page.getAttribute("#gr-rows tr[data-id]", "data-id"))!;
    await page.click(`#gr-rows tr[data-id="${id}"]`);
    await page.waitForSelector(".drift-hashes");
    const box = await page.$eval(".drift-hashes", (b) => ({
      turn: Number((b as HTMLElement).dataset.turn),
      text: b.textContent!,
      recorded: b.querySelector('code[data-hash="recorded"]')!.textContent!,
      rendered: b.querySelector('code[data-hash="rendered"]')!.textContent!,
    }));
    const raw = rawEpisodes(board).find((e) => e.episode_id === id)!;
    const want = raw.turns!.find((t) => t.turn === box.turn)!.image_sha256!;
    expect(box.recorded).toBe(want);
    expect(box.recorded).toMatch(/^[0-9a-f]{64}$/);
    expect(box.rendered).toMatch(/^[0-9a-f]{64}$/);
    expect(box.rendered).not.toBe(box.recorded);
    expect(box.text).toContain(`Turn ${box.turn} drifted`);
    expect(box.text).toContain("The record holds only the hash of the image the model saw, not the image, so that image cannot be shown");
    await page.click('.drift-hashes button.copy[data-copy="' + want + '"]');
    await page.waitForFunction(() => document.querySelector(".drift-hashes button.copy")!.textContent === "copied");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(want);
    // The enlarged view of that turn names it as drifted.
    await page.click(`[id="t-${id}-${box.turn}"] .zoomable`);
    await page.waitForSelector("#gr-lightbox[open] .drift-note");
    expect(await page.textContent("#gr-lightbox .drift-note")).toContain(`Turn ${box.turn} drifted (mismatch)`);
    expect(errors).toEqual([]);
    await close();
  });
});

describe("no badge claims more than it checked", () => {
  it("over its budget, a reprojected view is badged reprojected, not match, and the header counts the exact views", async () => {
    expect(tightJson.views_embedded).toBe(0);
    expect(tightJson.views_left_out).toBeGreaterThan(0);
    const { page, errors, close } = await open(tight);
    const sources = await page.$eval("#gr-view-sources", (s) => ({
      text: s.textContent!,
      exact: (s as HTMLElement).dataset.exact,
      reprojected: (s as HTMLElement).dataset.reprojected,
    }));
    expect(sources.exact).toBe("0");
    expect(Number(sources.reprojected)).toBe(tightJson.views_left_out);
    expect(sources.text).toBe(
      `; 0 of ${tightJson.views_left_out} distinct verified views exact, ${tightJson.views_left_out} drawn by the browser's reprojection (over the one-file budget; -o DIR/ keeps every view exact)`,
    );
    await page.click("#gr-rows tr[data-id]");
    await page.waitForSelector("article.turn .media canvas");
    const media = await page.$$eval("article.turn .media", (ms) =>
      ms.map((m) => ({
        source: (m as HTMLElement).dataset.source,
        check: (m as HTMLElement).dataset.check,
        badges: [...m.querySelectorAll(".badge")].map((b) => b.textContent),
      })),
    );
    const reprojected = media.filter((m) => m.source === "reprojected" && m.check === "match");
    expect(reprojected.length).toBeGreaterThan(0);
    for (const m of reprojected) expect(m.badges).toEqual(["match at build · shown reprojected"]);
    expect(errors).toEqual([]);
    await close();
  });

  it("within its budget, the header says every view is exact and an exact view keeps its match badge", async () => {
    const { page, close } = await open(out);
    const s = await page.$eval("#gr-view-sources", (x) => ({ text: x.textContent!, exact: Number((x as HTMLElement).dataset.exact) }));
    expect(s.exact).toBe(json.views_embedded);
    expect(s.text).toBe(`; all ${s.exact} distinct verified views exact`);
    await close();
  });
});
