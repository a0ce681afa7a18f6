import { chromium } from "playwright-core";
import { CHROMIUM_ARGS } from "./dist/bench/page.js";
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
for (const f of process.argv.slice(3)) for (let i = 0; i < Number(process.argv[2]); i++) {
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  const page = await context.newPage();
  const t0 = performance.now();
  await page.goto(`file://${f}`, { waitUntil: "commit" });
  await page.waitForFunction(() => document.documentElement.dataset.firstScreen === "1", null, { polling: 10, timeout: 120000 });
  const first = performance.now() - t0;
  await page.waitForFunction(() => document.documentElement.dataset.ready === "1", null, { polling: 10, timeout: 120000 });
  const t = await page.evaluate(() => ({ first: window.grFirstScreenAt, ready: window.grReadyAt }));
  console.log(f.split("/").pop(), Math.round(first), Math.round(performance.now() - t0), JSON.stringify(Object.fromEntries(Object.entries(t).map(([k, v]) => [k, Math.round(v ?? -1)]))));
  await context.close();
}
await browser.close();
