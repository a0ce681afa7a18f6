/**
 * Board pages (`georeplay page --baseline`) in Debian's Chromium, built from
 * a small board derived from the sweep fixture (test/board-fixture.ts): the
 * three tables, the forest plot and the per-task deltas equal `georeplay
 * report --json`'s numbers; `#compare/<task>/<a>/<b>` shows both arms'
 * attempts on that task; episode deep links still work; views are drawn
 * from the embedded panoramas; nothing is fetched.
 */
import { describe, expect, it, beforeAll, afterAll } from "vitest";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createHash } from "node:crypto";
import { type Browser, type Page } from "playwright-core";
import { launchChromium } from "../browser.ts";
import { MIXED, runCli } from "../helpers.ts";
import { makeSmallBoard } from "../board-fixture.ts";
import type { Report } from "../../envs/geoguesser/replay/board/report-schema.ts";

const dir = mkdtempSync(join(tmpdir(), "georeplay-board-page-"));
const board = join(dir, "board");
const out = join(dir, "board.html");
let browser: Browser;
let report: Report;
let built: { code: number | null; json: Record<string, unknown> };

type Raw = {
  episode_id: string;
  model_name: string;
  task: { index: number; sample: number };
  outcome: { reward: number | null };
  turns: { turn: number; action?: unknown }[];
};
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

beforeAll(async () => {
  makeSmallBoard(board);
  const r = runCli(["report", board, "--baseline", "base", "--json"]);
  expect(r.code, r.stderr).toBe(0);
  report = JSON.parse(r.stdout);
  const p = runCli(["page", board, "--tasks", join(MIXED, "tasks.jsonl"), "--panos", join(MIXED, "panos"), "--baseline", "base", "-o", out, "--json"]);
  built = { code: p.code, json: JSON.parse(p.stdout) };
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function open(hash = "") {
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  const page = await context.newPage();
  const log = { requests: [] as string[], console: [] as string[], errors: [] as string[] };
  page.on("request", (r) => log.requests.push(r.url()));
  page.on("console", (m) => log.console.push(`${m.type()}: ${m.text()}`));
  page.on("pageerror", (e) => log.errors.push(e.message));
  await page.goto(`file://${out}${hash}`);
  await page.waitForFunction(() => document.documentElement.dataset.ready === "1");
  await page.waitForLoadState("load");
  return { page, log, close: () => context.close() };
}

/** Rows of a table: their data-arm / data-task and every stat cell's exact data-value. */
const rowsOf = (page: Page, selector: string) =>
  page.$$eval(selector, (trs) =>
    trs.map((tr) => ({
      arm: (tr as HTMLElement).dataset.arm,
      task: (tr as HTMLElement).dataset.task,
      v: Object.fromEntries(
        [...tr.querySelectorAll("td[data-stat]")].map((td) => [(td as HTMLElement).dataset.stat, (td as HTMLElement).dataset.value]),
      ) as Record<string, string>,
    })),
  );
const num = (s: string | undefined) => (s === "" || s === undefined ? null : Number(s));

describe("board page", () => {
  it("is written like any page: one file, the CLI's JSON summary, the strict CSP pinning its one script and style", () => {
    expect(built.json).toMatchObject({ written: true, episodes: 90 });
    const html = readFileSync(out, "utf8");
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)![1].replace(/&#39;/g, "'");
    const sha = (s: string) => createHash("sha256").update(s, "utf8").digest("base64");
    const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)];
    expect(scripts).toHaveLength(1);
    expect(csp).toContain(`script-src 'sha256-${sha(scripts[0][1])}'`);
    const styles = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)];
    expect(csp).toContain(`style-src 'sha256-${sha(styles[0][1])}'`);
    expect(csp).toMatch(/^default-src 'none'; img-src data:; font-src data:; style-src 'sha256-[^']+'; script-src 'sha256-[^']+'/);
    expect((html.match(/<script[^>]*>/g) ?? []).sort()).toEqual(
      [
        '<script type="application/json" id="gr-board-data">',
        '<script type="application/json" id="gr-chunks">',
        '<script type="application/json" id="gr-panos">',
        '<script type="application/json" id="gr-images">',
        // The world's land and borders once, which every map on the page (outcomes, compare, the player's) is a view of.
        '<script type="application/json" id="gr-map-cells">',
        // The player's page-wide table (fonts, map cells and places, the inputs for the render command): inert JSON.
        '<script type="application/json" id="gr-player">',
        "<script>",
      ].sort(),
    );
    expect(html).not.toContain("<script>alert");
    expect(html).not.toMatch(/(src|href)=["']?(https?:|\/\/)/i);
  });

  it("shows geoeval's three tables and the forest plot with exactly `report --json`'s numbers", async () => {
    const { page, log, close } = await open();
    const arms = await rowsOf(page, "#gr-board-arms tbody tr");
    expect(arms.map((a) => a.arm)).toEqual(report.arms.map((a) => a.arm));
    arms.forEach((row, i) => {
      const a = report.arms[i];
      expect(num(row.v.tasks)).toBe(a.tasks);
      expect(num(row.v.k)).toBe(a.k);
      expect(num(row.v.mean_of_k)).toBe(a.mean_of_k);
      expect(num(row.v.best_of_k)).toBe(a.best_of_k);
      expect(num(row.v.median_km)).toBe(a.median_km);
    });
    const beh = await rowsOf(page, "#gr-board-behaviour tbody tr");
    beh.forEach((row, i) => {
      const a = report.arms[i];
      for (const k of [
        "turns",
        "looks",
        "moves",
        "pins",
        "cost",
        "country_pct",
        "within_200km_pct",
        "within_750km_pct",
        "env_floor_pct",
        "no_guess_pct",
        "forced_pct",
        "tok_out",
      ] as const) {
        expect(num(row.v[k]), `${a.arm} ${k}`).toBe(a[k]);
      }
    });
    const paired = await rowsOf(page, "#gr-board-paired tbody tr");
    const comps = report.paired!.comparisons;
    expect(comps.length).toBe(2);
    expect(paired.map((p) => p.arm)).toEqual(comps.map((c) => c.arm));
    paired.forEach((row, i) => {
      const c = comps[i];
      expect(num(row.v.n)).toBe(c.n);
      expect(num(row.v.delta)).toBe(c.delta);
      expect(num(row.v.se)).toBe(c.se);
      expect(num(row.v.ci_low)).toBe(c.ci_low);
      expect(num(row.v.ci_high)).toBe(c.ci_high);
      expect(row.v.significant).toBe(String(c.significant));
      expect(num(row.v.better_on)).toBe(c.better_on);
    });
    const forest = await page.$$eval("svg.forest g.row", (gs) => gs.map((g) => ({ ...(g as SVGGElement).dataset })));
    expect(forest).toEqual(comps.map((c) => ({ arm: c.arm, delta: String(c.delta), ciLow: String(c.ci_low), ciHigh: String(c.ci_high) })));
    // The stored env reward stays visible, as such.
    expect(await page.textContent("#gr-summary thead")).toContain("mean env reward");
    expect(await page.textContent("table.episodes thead")).toContain("env reward");
    // Every episode is listed, the unscored one too (the report leaves it out).
    expect(report.episodes).toBe(89);
    expect(await page.textContent("#gr-count")).toBe("89 episodes (+ 1 unscored: not counted)");
    expect(log.errors).toEqual([]);
    expect(log.requests).toEqual([`file://${out}`]);
    await close();
  });

  it("per task: each arm's mean and delta as the report has them, sortable by delta, filterable by country and verdict", async () => {
    const { page, log, close } = await open();
    for (const c of report.paired!.comparisons) {
      await page.selectOption("#t-arm", c.arm);
      const rows = await rowsOf(page, "#t-rows tr");
      const want = report.tasks.filter((t) => t.arms.some((a) => a.arm === c.arm || a.arm === "base"));
      expect(rows.map((r) => Number(r.task))).toEqual(want.map((t) => t.index));
      rows.forEach((r, i) => {
        const mine = want[i].arms.find((a) => a.arm === c.arm)!;
        const base = want[i].arms.find((a) => a.arm === "base")!;
        expect(r.arm).toBe(c.arm);
        expect(num(r.v.delta)).toBe(mine.delta);
        expect(num(r.v.mean)).toBe(mine.mean);
        expect(num(r.v.base_mean)).toBe(base.mean);
      });
      await page.selectOption("#t-sort", "improved");
      const improved = (await rowsOf(page, "#t-rows tr")).map((r) => num(r.v.delta)!);
      expect(improved).toEqual([...improved].sort((a, b) => b - a));
      await page.selectOption("#t-sort", "regressed");
      const regressed = (await rowsOf(page, "#t-rows tr")).map((r) => num(r.v.delta)!);
      expect(regressed).toEqual([...improved].reverse());
      await page.selectOption("#t-sort", "task");
    }
    await page.selectOption("#t-country", "Moldova");
    const moldova = await page.$$eval("#t-rows tr", (trs) => trs.map((t) => (t as HTMLElement).dataset.task));
    expect(moldova).toEqual(["1"]);
    await page.selectOption("#t-country", "");
    const verdicts = await page.$$eval("#t-verdict option", (os) => os.map((o) => (o as HTMLOptionElement).value).filter(Boolean));
    expect(verdicts.length).toBeGreaterThan(1);
    await page.selectOption("#t-verdict", verdicts[0]);
    const arm = await page.$eval("#t-arm", (s) => (s as HTMLSelectElement).value);
    const filtered = await page.$$eval("#t-rows tr", (trs) => trs.map((t) => Number((t as HTMLElement).dataset.task)));
    const raw = rawEpisodes(board).filter((e) => e.model_name === arm && Array.isArray(e.turns));
    const withVerdict = [
      ...new Set(raw.filter((e) => (e as unknown as { outcome: { verdict: string } }).outcome.verdict === verdicts[0]).map((e) => e.task.index)),
    ].sort((a, b) => a - b);
    expect(filtered).toEqual(withVerdict);
    expect(log.errors).toEqual([]);
    await close();
  });

  it("#compare/<task>/<a>/<b>: both arms' attempts on that task, side by side turn by turn", async () => {
    const task = 1;
    const { page, log, close } = await open(`#compare/${task}/ckpt-a/base`);
    await page.waitForFunction(() => document.querySelectorAll("#gr-compare .cmp-attempt").length > 0);
    const shown = await page.$$eval("#gr-compare .cmp-attempt", (blocks) =>
      blocks.map((b) => ({
        cols: [...b.querySelectorAll(":scope > .cmp-grid:not(.cmp-turn) > .cmp-col")].map((c) => ({
          arm: (c as HTMLElement).dataset.arm,
          episode: (c as HTMLElement).dataset.episode ?? null,
        })),
        turns: [...b.querySelectorAll(".cmp-turn")].map((r) =>
          [...r.querySelectorAll(":scope > .cmp-col")].map((c) => (c.querySelector(".turn") as HTMLElement | null)?.dataset.turn ?? null),
        ),
      })),
    );
    const raw = rawEpisodes(board).filter((e) => Array.isArray(e.turns) && e.task.index === task);
    const of = (arm: string) => raw.filter((e) => e.model_name === arm).sort((x, y) => x.task.sample - y.task.sample);
    const a = of("ckpt-a");
    const b = of("base");
    expect(shown).toHaveLength(Math.max(a.length, b.length));
    shown.forEach((s, j) => {
      expect(s.cols.map((c) => c.arm)).toEqual(["ckpt-a", "base"]);
      expect(s.cols.map((c) => c.episode)).toEqual([a[j]?.episode_id ?? null, b[j]?.episode_id ?? null]);
      // Turn by turn: row i holds turn i of each attempt.
      expect(s.turns).toHaveLength(Math.max(a[j]?.turns.length ?? 0, b[j]?.turns.length ?? 0));
      s.turns.forEach((row, i) =>
        expect(row).toEqual([a[j]?.turns[i] ? String(a[j].turns[i].turn) : null, b[j]?.turns[i] ? String(b[j].turns[i].turn) : null]),
      );
    });
    // Views are their exact verified bytes where the page holds them (no label), else reprojected from the embedded panoramas, labelled as such.
    await page.waitForFunction(() => document.querySelector("#gr-compare .media img[src], #gr-compare canvas.view[data-drawn]") !== null);
    const media = await page.$$eval("#gr-compare .media", (ms) =>
      ms.map((m) => ({
        img: m.querySelector("img") !== null,
        canvas: m.querySelector("canvas.view") !== null,
        label: m.querySelector(".reproj")?.textContent ?? null,
      })),
    );
    expect(media.some((m) => m.img)).toBe(true);
    for (const m of media) if (m.img || m.canvas) expect(m.label).toBe(m.canvas ? "browser reprojection" : null);
    expect(await page.textContent("#gr-compare .cmp-head")).toContain("ckpt-a vs base");
    expect(log.errors).toEqual([]);
    expect(log.requests).toEqual([`file://${out}`]);
    expect(log.console.filter((c) => /Content Security Policy|Refused/i.test(c))).toEqual([]);
    await close();
  });

  it("keeps episode deep links (#<episode_id>/<turn>) working, and every episode reachable", async () => {
    const raw = rawEpisodes(board).filter((e) => Array.isArray(e.turns));
    const target = raw.find((e) => e.model_name === "ckpt-b" && e.turns.length > 4)!;
    const { page, log, close } = await open(`#${target.episode_id}/3`);
    await page.waitForFunction((id) => (document.getElementById("gr-detail") as HTMLElement).dataset.episode === id, target.episode_id);
    const cur = await page.$eval("#gr-detail .turn.current", (c) => (c as HTMLElement).dataset.turn);
    expect(cur).toBe("3");
    await page.keyboard.press("j");
    expect(await page.evaluate(() => location.hash)).toBe(`#${target.episode_id}/4`);
    // n/p: the next and previous episode of the list at its first turn, as on the run page (one keyboard module).
    const rows = await page.$$eval("#gr-rows tr[data-id]", (trs) => trs.map((tr) => (tr as HTMLElement).dataset.id!));
    const next = rows[rows.indexOf(target.episode_id) + 1];
    await page.keyboard.press("n");
    await page.waitForFunction((id) => (document.getElementById("gr-detail") as HTMLElement).dataset.episode === id, next);
    expect(await page.evaluate(() => location.hash)).toBe(`#${next}/0`);
    await page.keyboard.press("p");
    await page.waitForFunction((id) => (document.getElementById("gr-detail") as HTMLElement).dataset.episode === id, target.episode_id);
    expect(await page.evaluate(() => location.hash)).toBe(`#${target.episode_id}/0`);
    expect(await page.textContent("#gr-detail")).toContain("env reward");
    // Every episode opens (the details load from their task's chunk).
    for (const e of raw) {
      await page.evaluate((id) => (location.hash = `#${id}/0`), e.episode_id);
      await page.waitForFunction((id) => (document.getElementById("gr-detail") as HTMLElement).dataset.episode === id, e.episode_id);
    }
    expect(log.errors).toEqual([]);
    expect(log.requests).toEqual([`file://${out}`]);
    await close();
  });

  it("gives the same bytes for the same inputs", () => {
    const again = join(dir, "again.html");
    const p = runCli(["page", board, "--tasks", join(MIXED, "tasks.jsonl"), "--panos", join(MIXED, "panos"), "--baseline", "base", "-o", again, "--json"]);
    expect(JSON.parse(p.stdout)).toMatchObject({ written: true });
    // Same title: the page is named after its inputs, not the output file.
    expect(readFileSync(again).equals(readFileSync(out))).toBe(true);
  }, 600_000);

  it("--baseline naming no arm: a specific message, exit 2, nothing written", () => {
    const missing = join(dir, "missing.html");
    const r = runCli(["page", board, "--tasks", join(MIXED, "tasks.jsonl"), "--panos", join(MIXED, "panos"), "--baseline", "nope", "-o", missing]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--baseline nope: no arm of that name on this board \(arms: ckpt-a, base, ckpt-b\)/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(readdirSync(dir).filter((f) => f.includes(".tmp-"))).toEqual([]);
  });
});
