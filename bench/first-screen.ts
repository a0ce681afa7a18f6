/**
 * Cold opens of any page georeplay writes (one file or a folder's index.html),
 * timed until the page's own ready flag (`document.documentElement.dataset.ready
 * === "1"`, set by every page once its first screen is usable), in headless
 * Chromium from file://, with every request the page makes listed, so a bench
 * can say the page asked for nothing outside its own files.
 */
import { chromium } from "playwright-core";
import { CHROMIUM_ARGS } from "./page.ts";

export interface ReadyOpen {
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
      await page.waitForFunction(() => document.documentElement.dataset.ready === "1", null, { polling: 10, timeout: timeoutMs });
      out.push({ readyMs: performance.now() - t0, requests: requests.slice(1) });
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return out;
}
