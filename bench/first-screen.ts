/**
 * Cold opens of any page georeplay writes (one file or a folder's index.html),
 * in headless Chromium from file://, timed twice: until its first screen is
 * usable (`data-first-screen`: a run page's header, summaries and training
 * charts, before a folder page reads its list rows; pages without the flag
 * count their ready flag) and until the page is whole (`data-ready`: the list
 * filled, the address's episode or step open). Every request the page makes
 * is listed, so a bench can say it asked for nothing outside its own files.
 */
import { chromium } from "playwright-core";
import { CHROMIUM_ARGS } from "./page.ts";

export interface ReadyOpen {
  /** Until the first screen is usable, seen from outside (a poll that waits for the page's main thread). */
  firstMs: number;
  /** Until the page is whole (its list rows read), seen from outside. */
  readyMs: number;
  /**
   * The page's own clock (navigation start = 0): its first contentful paint, the moment its first
   * screen was usable (grFirstScreenAt, or grReadyAt on pages without the flag), and the longest
   * task that held its main thread after that, before the page was whole (an input waits at most so long).
   */
  page: { paintMs: number | null; firstMs: number; longestTaskAfterMs: number };
  /** Every URL requested after the page itself. */
  requests: string[];
}

export async function timeReady(file: string, opens: number, timeoutMs = 120_000): Promise<ReadyOpen[]> {
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
  const out: ReadyOpen[] = [];
  try {
    for (let i = 0; i < opens; i++) {
      const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
      const page = await context.newPage();
      const requests: string[] = [];
      page.on("request", (r) => requests.push(r.url()));
      await page.addInitScript(() => {
        const w = window as unknown as { grLongTasks: [number, number][] };
        w.grLongTasks = [];
        new PerformanceObserver((l) => {
          for (const e of l.getEntries()) w.grLongTasks.push([e.startTime, e.duration]);
        }).observe({ type: "longtask", buffered: true });
      });
      const t0 = performance.now();
      await page.goto(`file://${file}`, { waitUntil: "commit", timeout: timeoutMs });
      await page.waitForFunction(() => document.documentElement.dataset.firstScreen === "1" || document.documentElement.dataset.ready === "1", null, {
        polling: 10,
        timeout: timeoutMs,
      });
      const firstMs = performance.now() - t0;
      await page.waitForFunction(() => document.documentElement.dataset.ready === "1", null, { polling: 10, timeout: timeoutMs });
      const readyMs = performance.now() - t0;
      const own = await page.evaluate(() => {
        const w = window as unknown as { grFirstScreenAt?: number; grReadyAt?: number; grLongTasks: [number, number][] };
        return {
          paint: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? null,
          first: w.grFirstScreenAt ?? w.grReadyAt ?? 0,
          ready: w.grReadyAt ?? 0,
          tasks: w.grLongTasks,
        };
      });
      const after = own.tasks.filter(([at]) => at >= own.first && at < own.ready).map(([, d]) => d);
      out.push({
        firstMs,
        readyMs,
        page: { paintMs: own.paint, firstMs: own.first, longestTaskAfterMs: after.length ? Math.max(...after) : 0 },
        requests: requests.slice(1),
      });
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return out;
}
