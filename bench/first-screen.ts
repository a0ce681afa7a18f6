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
  /** Until the first screen is usable. */
  firstMs: number;
  /** Until the page is whole (its list rows read). */
  readyMs: number;
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
      const t0 = performance.now();
      await page.goto(`file://${file}`, { waitUntil: "commit", timeout: timeoutMs });
      await page.waitForFunction(() => document.documentElement.dataset.firstScreen === "1" || document.documentElement.dataset.ready === "1", null, {
        polling: 10,
        timeout: timeoutMs,
      });
      const firstMs = performance.now() - t0;
      await page.waitForFunction(() => document.documentElement.dataset.ready === "1", null, { polling: 10, timeout: timeoutMs });
      out.push({ firstMs, readyMs: performance.now() - t0, requests: requests.slice(1) });
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return out;
}
