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
import { spawn, type ChildProcess } from "node:child_process";
import { appendFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { CLI, MIXED, ROOT, runCli } from "./helpers.ts";

const CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking"];
const dir = join(tmpdir(), `georeplay-serve-test-${process.pid}`);
const common = ["--tasks", join(MIXED, "tasks.jsonl"), "--panos", join(MIXED, "panos"), "--no-progress"];
const LINES = readFileSync(join(MIXED, "episodes.jsonl"), "utf8")
  .split("\n")
  .filter((l) => l.trim());

/** Fixture line n (1-based) as a new episode: same record, its own id. */
const episodeLine = (n: number, id: string): string => JSON.stringify({ ...JSON.parse(LINES[(n - 1) % LINES.length]), episode_id: id }) + "\n";

interface Served {
  proc: ChildProcess;
  url: string;
  port: number;
  stderr: () => string;
  exit: Promise<number | null>;
  tmp: string;
}

/** Starts `georeplay serve` on a free port with its own TMPDIR; resolves once it prints its URL. */
async function startServe(inputs: string[], extra: string[] = [], name = "s"): Promise<Served> {
  const tmp = join(dir, `tmp-${name}`);
  mkdirSync(tmp, { recursive: true });
  const proc = spawn(process.execPath, [CLI, "serve", ...inputs, ...common, "--port", "0", ...extra], {
    cwd: ROOT,
    env: { ...process.env, TMPDIR: tmp },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let err = "";
  proc.stderr!.on("data", (d: Buffer) => (err += d.toString()));
  const exit = new Promise<number | null>((resolve) => proc.on("exit", (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`serve printed no URL:\n${err}`)), 120_000);
    proc.stderr!.on("data", () => {
      const m = /georeplay serve: (http:\/\/\S+)/.exec(err);
      if (m) {
        clearTimeout(t);
        resolve(m[1]);
      }
    });
    void exit.then((code) => reject(new Error(`serve exited ${code}:\n${err}`)));
  });
  return { proc, url, port: Number(new URL(url).port), stderr: () => err, exit, tmp };
}

/** A raw request (the path exactly as given, no client-side normalisation). */
function raw(port: number, path: string, opts: { method?: string; host?: string } = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path, method: opts.method ?? "GET", headers: { host: opts.host ?? `127.0.0.1:${port}` } }, (res) => {
      let body = "";
      res.on("data", (d: Buffer) => (body += d.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

interface SseEvent {
  id: number;
  type: string;
  data: { rows?: { id: string }[] };
}

/** A raw SSE client: connects (with Last-Event-ID when given) and collects events until closed. */
function sse(port: number, lastId?: number): { events: SseEvent[]; close(): void; opened: Promise<void> } {
  const events: SseEvent[] = [];
  let buf = "";
  let req: ReturnType<typeof request>;
  const opened = new Promise<void>((resolve, reject) => {
    req = request(
      {
        host: "127.0.0.1",
        port,
        path: "/events",
        headers: { host: `127.0.0.1:${port}`, ...(lastId !== undefined ? { "last-event-id": String(lastId) } : {}) },
      },
      (res) => {
        resolve();
        res.on("data", (d: Buffer) => {
          buf += d.toString();
          let at;
          while ((at = buf.indexOf("\n\n")) >= 0) {
            const frame = buf.slice(0, at);
            buf = buf.slice(at + 2);
            const f = Object.fromEntries(frame.split("\n").map((l) => [l.slice(0, l.indexOf(":")), l.slice(l.indexOf(":") + 1).trim()]));
            if (f.id) events.push({ id: Number(f.id), type: f.event, data: JSON.parse(f.data) });
          }
        });
        res.on("error", () => undefined);
      },
    );
    req.on("error", reject);
    req.end();
  });
  return { events, close: () => req.destroy(), opened };
}

const until = async (check: () => boolean, ms: number, what: string) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

const rowIds = (page: Page) => page.$$eval("#gr-rows tr[data-id]", (trs) => trs.map((t) => (t as HTMLElement).dataset.id!));

let browser: Browser;
let served: Served;
const run = join(dir, "run", "episodes.jsonl");

beforeAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, "run"), { recursive: true });
  writeFileSync(run, LINES.slice(0, 3).join("\n") + "\n");
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
  served = await startServe([run], ["--idle", "4"], "main");
});

afterAll(async () => {
  await browser?.close();
  if (served && served.proc.exitCode === null) {
    served.proc.kill("SIGINT");
    await served.exit;
  }
  rmSync(dir, { recursive: true, force: true });
});

describe("georeplay serve: a live page", () => {
  it("adds appended episodes to the open page within 2 s without a reload, and keeps the open episode", async () => {
    const page = await browser.newPage();
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
    const t0 = Date.now();
    await page.waitForFunction(() => document.querySelectorAll("#gr-rows tr[data-id]").length === 5, undefined, { timeout: 2000 });
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
    expect(await page.evaluate(() => location.hash)).toBe(opened);
    expect(await page.$eval("#gr-live", (e) => e.textContent)).toMatch(/live · 2 new episode\(s\) · last at \d\d:\d\d:\d\d/);
    // A new episode opens with its turns (its details are a new data file) and its views (new view files).
    await page.click('#gr-rows tr[data-id="live-b"]');
    await page.waitForFunction(() => document.querySelector("#gr-detail")?.textContent?.includes("live-b"));
    await page.waitForFunction(() => [...document.querySelectorAll<HTMLImageElement>("#gr-detail img")].some((i) => i.complete && i.naturalWidth > 0));
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

  it("exits 130 on SIGINT and leaves nothing in its temp folder", async () => {
    const s = await startServe([join(MIXED, "episodes.jsonl")], [], "sigint");
    expect(readdirSync(s.tmp).length).toBeGreaterThan(0);
    s.proc.kill("SIGINT");
    expect(await s.exit).toBe(130);
    expect(readdirSync(s.tmp)).toEqual([]);
    expect(existsSync(s.tmp)).toBe(true);
  });

  it("says on stderr when --host makes it reachable from the network", async () => {
    const s = await startServe([join(MIXED, "episodes.jsonl")], ["--host", "0.0.0.0"], "host");
    expect(s.stderr()).toMatch(/reachable from the network/);
    s.proc.kill("SIGINT");
    expect(await s.exit).toBe(130);
  });
});
