/**
 * `georeplay serve` as a user runs it: a real server process on a copy of
 * the mixed fixture run, a real Chromium page on it, and a writer appending
 * to the file. Episodes appended show in the open page without a reload; a
 * half-written line waits for its newline; a truncated file is re-read
 * without repeating an episode; a line that is not JSON is reported once; a
 * client that reconnects with Last-Event-ID gets exactly what it missed
 * (20 streams at once); traversal, a foreign Host and POST are refused;
 * --once writes what `page` writes; Ctrl-C exits 130 leaving nothing.
 */
import { describe, expect, it, beforeAll, afterAll } from "vitest";
import { appendFileSync, cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { FIXTURES, MIXED, runCli } from "../helpers.ts";
import { common, episodeLine, LINES, raw, sse, startServe, until, type Served, stopServe, launchChromium } from "../serve-helpers.ts";

const dir = join(tmpdir(), `georeplay-serve-test-${process.pid}`);

const rowIds = (page: Page) => page.$$eval("#gr-rows tr[data-id]", (trs) => trs.map((t) => (t as HTMLElement).dataset.id!));

let browser: Browser;
let served: Served;
const run = join(dir, "run", "episodes.jsonl");

beforeAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, "run"), { recursive: true });
  writeFileSync(run, LINES.slice(0, 3).join("\n") + "\n");
  browser = await launchChromium();
  served = await startServe(dir, [run], ["--idle", "4"], "main");
});

afterAll(() => stopServe(browser, served, dir));

describe("georeplay serve: a live page", () => {
  it("adds appended episodes to the open page without a reload, and keeps the open episode", async () => {
    const page = await browser.newPage();
    const cellFiles: string[] = [];
    page.on("request", (r) => void (/\/data\/cells-\d+\.js$/.test(r.url()) && cellFiles.push(r.url())));
    await page.goto(served.url);
    await page.waitForFunction(() => document.documentElement.dataset.ready === "1");
    await page.waitForFunction(() => document.getElementById("gr-live")?.dataset.state?.startsWith("live"));
    const csp = await page.$eval('meta[http-equiv="Content-Security-Policy"]', (m) => m.getAttribute("content"));
    expect(csp).toMatch(/default-src 'none'.*; connect-src 'self'$/);
    expect(await rowIds(page)).toHaveLength(3);
    const opened = await page.evaluate(() => {
      (window as unknown as { marker: number }).marker = 1;
      return location.hash;
    });
    appendFileSync(run, episodeLine(4, "live-a") + episodeLine(6, "live-b"));
    // How soon is the bench's to measure (a timed assertion fails under load): here, that they come, in place.
    await page.waitForFunction(() => document.querySelectorAll("#gr-rows tr[data-id]").length === 5, undefined, { timeout: 30_000 });
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
    expect(await page.evaluate(() => location.hash)).toBe(opened);
    expect(await page.$eval("#gr-live", (e) => e.textContent)).toMatch(/live · 2 new episode\(s\) · last at \d\d:\d\d:\d\d/);
    // The header's facts (counts, views, how they verified) and the per-model summary are `page`'s over the file as it is now.
    const built = join(dir, "now.html");
    // (exit 1: the fixture holds views that do not match their hash; the page is written and badges them)
    expect(runCli(["page", run, ...common, "-o", built]).stdout).toMatch(/^wrote /m);
    const html = readFileSync(built, "utf8");
    const want = await browser.newPage();
    await want.setContent(html.replace(/<script[\s\S]*?<\/script>/g, ""));
    const shown = async (p: Page) => ({
      facts: await p.$eval("#gr-facts", (e) => e.textContent),
      summary: await p.$eval("section.summary table", (t) => (t as HTMLElement).innerText),
    });
    await page.waitForFunction((c) => document.getElementById("gr-facts")?.textContent === c, (await shown(want)).facts, { timeout: 30_000 });
    expect(await shown(page)).toEqual(await shown(want));
    await want.close();
    // An episode there when serve started plays in the page (its play button); one added live too (serve-player.test.ts plays it).
    await page.click(`#gr-rows tr[data-id="${(await rowIds(page))[0]}"]`);
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.click("#gr-detail .player-slot button.start");
    await page.waitForSelector("#gr-detail .player-slot canvas");
    expect(errors).toEqual([]);
    // A new episode opens with its turns (its details are a new data file) and its views (new view files).
    await page.click('#gr-rows tr[data-id="live-b"]');
    await page.waitForFunction(() => document.querySelector("#gr-detail")?.textContent?.includes("live-b"));
    await page.waitForFunction(() => [...document.querySelectorAll<HTMLImageElement>("#gr-detail img")].some((i) => i.complete && i.naturalWidth > 0));
    expect(await page.$("#gr-detail .player-slot button.start")).not.toBeNull();
    // Its maps keep only their frames: land and borders are cut in the page from cells the built page
    // had not got (data/cells-<n>.js, loaded when its event came), the same path as `page` draws.
    const landOf = async (p: Page) => {
      await p.waitForSelector("#gr-detail svg.map > path", { state: "attached", timeout: 10_000 });
      return p.$$eval("#gr-detail svg.map > path", (ps) => ps.map((e) => e.getAttribute("d") ?? "").join("\n"));
    };
    const live = await landOf(page);
    expect(cellFiles.length).toBeGreaterThan(0);
    expect(await (await fetch(new URL("data/episodes-1.js", served.url))).text()).not.toContain("landPath");
    const oneFile = await browser.newPage();
    await oneFile.goto(`file://${built}#live-b`);
    await oneFile.waitForFunction(() => document.querySelector("#gr-detail")?.textContent?.includes("live-b"));
    const own = await landOf(oneFile);
    expect(own!.length).toBeGreaterThan(100);
    expect(live).toBe(own);
    await oneFile.close();
    await page.close();
  });

  it("waits for a half-written line's newline, then shows it", async () => {
    const page = await browser.newPage();
    await page.goto(served.url);
    await page.waitForFunction(() => document.getElementById("gr-live")?.dataset.state?.startsWith("live"));
    const before = (await rowIds(page)).length;
    const line = episodeLine(7, "live-half");
    appendFileSync(run, line.slice(0, 500));
    await new Promise((r) => setTimeout(r, 1500));
    expect(await rowIds(page)).toHaveLength(before);
    appendFileSync(run, line.slice(500));
    await page.waitForFunction((n) => document.querySelectorAll("#gr-rows tr[data-id]").length === n, before + 1, { timeout: 3000 });
    expect(served.stderr()).not.toMatch(/truncated\)/);
    await page.close();
  });

  it("reports a line that is not JSON once (stderr and page) and goes on", async () => {
    const page = await browser.newPage();
    await page.goto(served.url);
    await page.waitForFunction(() => document.getElementById("gr-live")?.dataset.state?.startsWith("live"));
    appendFileSync(run, "{this is not json\n" + episodeLine(8, "live-after-bad"));
    await page.waitForFunction(() => document.querySelector('#gr-rows tr[data-id="live-after-bad"]') !== null, undefined, { timeout: 3000 });
    await page.waitForFunction(() => (document.getElementById("gr-live-problems")?.textContent ?? "").includes("episodes.jsonl:"));
    const lines = served
      .stderr()
      .split("\n")
      .filter((l) => /^warning: .*episodes\.jsonl:\d+/.test(l));
    expect(lines).toHaveLength(1);
    await page.close();
  });

  it("re-reads a truncated file without showing an episode twice", async () => {
    const page = await browser.newPage();
    await page.goto(served.url);
    await page.waitForFunction(() => document.getElementById("gr-live")?.dataset.state?.startsWith("live"));
    const before = await rowIds(page);
    // A resumed run rewrites its file: the first lines again, then a new episode.
    writeFileSync(run, LINES.slice(0, 2).join("\n") + "\n" + episodeLine(9, "live-rewritten"));
    await page.waitForFunction(() => document.querySelector('#gr-rows tr[data-id="live-rewritten"]') !== null, undefined, { timeout: 3000 });
    await new Promise((r) => setTimeout(r, 800));
    const after = await rowIds(page);
    expect(after).toHaveLength(before.length + 1);
    expect(new Set(after).size).toBe(after.length);
    expect(served.stderr()).toMatch(/truncated or replaced; reading it again/);
    await page.close();
  });

  it("gives a reconnecting client exactly what it missed, 20 streams at once", async () => {
    const first = sse(served.port);
    await first.opened;
    await until(() => first.events.length > 0, 3000, "the past events");
    const seen = first.events.at(-1)!.id;
    first.close();
    const others = Array.from({ length: 20 }, () => sse(served.port, seen));
    await Promise.all(others.map((o) => o.opened));
    appendFileSync(run, episodeLine(10, "live-missed-1") + episodeLine(1, "live-missed-2"));
    await until(() => others.every((o) => o.events.some((e) => e.data.rows?.some((r) => r.id === "live-missed-2"))), 5000, "the missed episodes");
    const back = sse(served.port, seen);
    await back.opened;
    await until(() => back.events.some((e) => e.data.rows?.some((r) => r.id === "live-missed-2")), 3000, "the catch-up");
    for (const c of [back, ...others]) {
      // Exactly the events after the cursor: consecutive ids, no repeat, no gap.
      const ids = c.events.map((e) => e.id);
      expect(ids[0]).toBe(seen + 1);
      expect(ids).toEqual(ids.map((_, i) => seen + 1 + i));
      const rows = c.events.flatMap((e) => e.data.rows ?? []).map((r) => r.id);
      expect(rows.filter((id) => id.startsWith("live-missed"))).toEqual(["live-missed-1", "live-missed-2"]);
      c.close();
    }
  });

  it("keeps 20 tabs of one browser live (one stream shared; a browser allows 6 connections to a server)", async () => {
    const context = await browser.newContext();
    const pages: Page[] = [];
    for (let i = 0; i < 20; i++) {
      const page = await context.newPage();
      await page.goto(served.url, { timeout: 10_000 });
      await page.waitForFunction(() => document.getElementById("gr-live")?.dataset.state?.startsWith("live"), undefined, { timeout: 10_000 });
      pages.push(page);
    }
    appendFileSync(run, episodeLine(5, "live-twenty"));
    for (const page of pages)
      await page.waitForFunction(() => document.querySelector('#gr-rows tr[data-id="live-twenty"]') !== null, undefined, { timeout: 10_000 });
    // The tab that held the stream closes: another one takes it over and misses nothing.
    await pages.shift()!.close();
    appendFileSync(run, episodeLine(2, "live-after-leader"));
    for (const page of pages) {
      await page.waitForFunction(() => document.querySelector('#gr-rows tr[data-id="live-after-leader"]') !== null, undefined, { timeout: 10_000 });
      const ids = await rowIds(page);
      expect(new Set(ids).size).toBe(ids.length);
    }
    await context.close();
  });

  it("tells the page when the writer has stopped", async () => {
    const page = await browser.newPage();
    await page.goto(served.url);
    await page.waitForFunction(() => document.getElementById("gr-live")?.textContent?.includes("writer stopped"), undefined, { timeout: 10_000 });
    await page.close();
  });

  it("refuses traversal, a foreign Host header and anything but GET/HEAD", async () => {
    const p = served.port;
    expect((await raw(p, "/")).status).toBe(200);
    expect((await raw(p, "/data/episodes-0.js")).status).toBe(200);
    for (const path of [
      "/../../etc/passwd",
      "/data/../../x",
      "/%2e%2e/%2e%2e/etc/passwd",
      "/%2E%2E%2Fetc",
      "/..%5c..%5cetc",
      "/data\\..\\index.html",
      "/.georeplay-page",
    ])
      expect([403, 404], path).toContain((await raw(p, path)).status);
    expect((await raw(p, "/", { host: `evil.example:${p}` })).status).toBe(403);
    expect((await raw(p, "/", { host: "127.0.0.1:1" })).status).toBe(403);
    expect((await raw(p, "/", { host: `localhost:${p}` })).status).toBe(200);
    for (const method of ["POST", "PUT", "DELETE"]) expect((await raw(p, "/", { method })).status).toBe(405);
  });
});

describe("georeplay serve: training runs and example rollouts", () => {
  it("follows a training run's rollouts: appended rollouts keep the ids `page` gives them", async () => {
    const lines = readFileSync(join(FIXTURES, "train-rollouts.jsonl"), "utf8")
      .split("\n")
      .filter((l) => l.trim());
    const file = join(dir, "train", "train-rollouts.jsonl");
    mkdirSync(join(dir, "train"), { recursive: true });
    writeFileSync(file, lines.slice(0, 5).join("\n") + "\n");
    const s = await startServe(dir, [file], [], "train");
    const stream = sse(s.port);
    await stream.opened;
    appendFileSync(file, lines.slice(5, 8).join("\n") + "\n");
    const rows = () => stream.events.flatMap((e) => (e.data.rows ?? []) as { id: string; format?: string }[]);
    await until(() => rows().length === 3, 10_000, "the appended rollouts");
    expect(rows().map((r) => [r.id, r.format])).toEqual([6, 7, 8].map((n) => [`train-rollouts-L${n}`, "train"]));
    stream.close();
    s.proc.kill("SIGINT");
    expect(await s.exit).toBe(130);
  });

  it("follows an example-rollout folder, its recorded images included", async () => {
    const folder = join(dir, "example");
    cpSync(join(FIXTURES, "example-rollout"), folder, { recursive: true });
    const lines = readFileSync(join(folder, "trace.jsonl"), "utf8")
      .split("\n")
      .filter((l) => l.trim());
    writeFileSync(join(folder, "trace.jsonl"), lines[0] + "\n");
    const s = await startServe(dir, [folder], [], "example");
    const stream = sse(s.port);
    await stream.opened;
    appendFileSync(join(folder, "trace.jsonl"), lines[1] + "\n");
    await until(() => stream.events.some((e) => (e.data.rows ?? []).length > 0), 10_000, "the appended rollout");
    const e = stream.events.find((x) => (x.data.rows ?? []).length > 0)!.data as unknown as {
      rows: { flags: string[] }[];
      images: string[];
      problems: string[];
    };
    expect(e.problems).toEqual([]);
    expect(e.rows[0].flags).not.toContain("view-error");
    for (const img of e.images) expect((await raw(s.port, `/${img}`)).status).toBe(200);
    stream.close();
    s.proc.kill("SIGINT");
    expect(await s.exit).toBe(130);
  });
});

describe("georeplay serve: once, bad input, Ctrl-C", () => {
  it("--once writes the page `page` writes", () => {
    const a = join(dir, "once.html");
    const b = join(dir, "page.html");
    const once = runCli(["serve", join(MIXED, "episodes.jsonl"), ...common, "--once", "-o", a]);
    const page = runCli(["page", join(MIXED, "episodes.jsonl"), ...common, "-o", b]);
    expect(once.code).toBe(page.code);
    expect(once.stdout.replace(a, "X")).toBe(page.stdout.replace(b, "X"));
    expect(readFileSync(a).equals(readFileSync(b))).toBe(true);
    const missing = runCli(["serve", join(MIXED, "episodes.jsonl"), ...common, "--once"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--once .* give -o/);
    expect(missing.stderr).not.toMatch(/\bat .*\.js:\d+/);
  });

  it("waits for the first episode of a run that has none yet", async () => {
    const fresh = join(dir, "fresh", "episodes.jsonl");
    mkdirSync(join(dir, "fresh"), { recursive: true });
    writeFileSync(fresh, "");
    // The first episode is written once serve says it waits (whatever the machine's load), never before.
    let written = false;
    const s = await startServe(dir, [fresh], [], "fresh", undefined, (err) => {
      if (written || !/waiting for the first episode in .*episodes\.jsonl/.test(err)) return;
      written = true;
      appendFileSync(fresh, episodeLine(2, "first-a") + episodeLine(3, "first-b").slice(0, 100));
    });
    expect(written).toBe(true);
    const page = await browser.newPage();
    await page.goto(s.url);
    await page.waitForFunction(() => document.documentElement.dataset.ready === "1");
    // The half line written with the first is the writer's until its newline.
    expect(await rowIds(page)).toEqual(["first-a"]);
    appendFileSync(fresh, episodeLine(3, "first-b").slice(100));
    await page.waitForFunction(() => document.querySelectorAll("#gr-rows tr[data-id]").length === 2, undefined, { timeout: 3000 });
    await page.close();
    s.proc.kill("SIGINT");
    expect(await s.exit).toBe(130);
  });

  it("exits 130 on SIGINT and leaves nothing in its temp folder", async () => {
    const s = await startServe(dir, [join(MIXED, "episodes.jsonl")], [], "sigint");
    expect(readdirSync(s.tmp).length).toBeGreaterThan(0);
    // The server runs in a child with glibc's malloc arenas capped; the signal goes through to it.
    const [child] = readFileSync(`/proc/${s.proc.pid}/task/${s.proc.pid}/children`, "utf8").trim().split(/\s+/);
    expect(readFileSync(`/proc/${child}/environ`, "utf8").split("\0")).toContain("MALLOC_ARENA_MAX=2");
    s.proc.kill("SIGINT");
    expect(await s.exit).toBe(130);
    expect(readdirSync(s.tmp)).toEqual([]);
    expect(existsSync(s.tmp)).toBe(true);
  });

  it("says on stderr when --host makes it reachable from the network", async () => {
    const s = await startServe(dir, [join(MIXED, "episodes.jsonl")], ["--host", "0.0.0.0"], "host");
    expect(s.stderr()).toMatch(/reachable from the network/);
    s.proc.kill("SIGINT");
    expect(await s.exit).toBe(130);
  });
});
