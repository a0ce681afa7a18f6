/**
 * Page benchmark: builds the HTML page of a generated run (default 200
 * episodes, make_traces.py's seeded random policy, cached in bench/.cache)
 * and reports build time, peak memory, file size, and the time to a usable
 * first screen in headless Chromium (median of several cold opens).
 *
 *   node dist/bench/page.js [--episodes 200] [--seed 1] [--opens 5] [--jobs N]
 *
 * Goals (issue 5): < 30 MB for 200 x ~12 turns, first usable screen < 1.5 s.
 */
import { statSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { pathToFileURL } from "node:url";
import { chromium } from "playwright-core";
import { buildPage } from "../envs/geoguesser/src/page/build.ts";
import { CACHE, fmt, generatedRun, hasReferencePython } from "./common.ts";

export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export interface OpenTiming {
  /** Wall time from navigation start until the list and summary are rendered and interactive. */
  readyMs: number;
  /** The page's own clock (performance.now at first render; navigation start = 0). */
  pageReadyMs: number;
  /** Until the first visible view image is decoded. */
  firstImageMs: number;
  requests: number;
}

/** Opens a page cold (fresh browser context) and times its first usable screen. */
export async function timeFirstScreen(file: string, opens: number): Promise<OpenTiming[]> {
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
  const out: OpenTiming[] = [];
  try {
    for (let i = 0; i < opens; i++) {
      const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
      const page = await context.newPage();
      let requests = 0;
      page.on("request", () => requests++);
      const t0 = performance.now();
      await page.goto(`file://${file}`, { waitUntil: "commit" });
      await page.waitForFunction(() => document.documentElement.dataset.ready === "1", null, { polling: 10 });
      const readyMs = performance.now() - t0;
      await page.waitForFunction(
        () => {
          const img = document.querySelector("img[data-img]") as HTMLImageElement | null;
          return img !== null && img.complete && img.naturalWidth > 0;
        },
        null,
        { polling: 10 },
      );
      const firstImageMs = performance.now() - t0;
      const pageReadyMs = await page.evaluate(() => (window as unknown as { grReadyAt: number }).grReadyAt);
      out.push({ readyMs, pageReadyMs, firstImageMs, requests: requests - 1 });
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return out;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      episodes: { type: "string", default: "200" },
      seed: { type: "string", default: "1" },
      opens: { type: "string", default: "5" },
      jobs: { type: "string" },
    },
  });
  const episodes = Number(values.episodes);
  const seed = Number(values.seed);
  if (!hasReferencePython()) {
    console.log("page bench: skipped (needs /usr/bin/python3 with numpy and PIL to generate the run)");
    return;
  }
  const run = generatedRun(`page-${episodes}-s${seed}`, episodes, seed);
  const out = join(CACHE, `page-${episodes}-s${seed}.html`);

  const t0 = performance.now();
  const r = await buildPage({
    episodes: [run.episodes],
    tasks: run.tasks,
    panos: run.panos,
    out,
    jobs: values.jobs ? Number(values.jobs) : undefined,
  });
  const buildMs = performance.now() - t0;
  const peakMb = process.resourceUsage().maxRSS / 1024;
  const bytes = statSync(out).size;

  const timings = await timeFirstScreen(out, Number(values.opens));
  const ready = median(timings.map((t) => t.readyMs));
  const pageReady = median(timings.map((t) => t.pageReadyMs));
  const firstImage = median(timings.map((t) => t.firstImageMs));
  const requests = Math.max(...timings.map((t) => t.requests));
  const perView = bytes / r.views;

  console.log(`page: ${r.episodes} episodes · ${r.views} view turns · ${r.images} distinct images · ${r.mismatch} mismatch`);
  console.log(`  build          ${fmt(buildMs / 1000, 1)} s (${fmt(buildMs / r.views, 1)} ms/view, verify included) · peak RSS ${fmt(peakMb, 0)} MB`);
  console.log(
    `  file size      ${fmt(bytes / 1e6, 2)} MB (${fmt(perView / 1024, 1)} KB/view turn; 2,400 views at this rate: ${fmt((perView * 2400) / 1e6, 1)} MB) · goal < 30 MB`,
  );
  console.log(`  first screen   ${fmt(ready, 0)} ms wall, ${fmt(pageReady, 0)} ms page clock (median of ${timings.length} cold opens) · goal < 1500 ms`);
  console.log(`  first image    ${fmt(firstImage, 0)} ms · network requests: ${requests}`);
  const ok = bytes < 30e6 && ready < 1500 && requests === 0;
  console.log(`  ${ok ? "goals met" : "GOALS NOT MET"}`);
  if (!ok) process.exitCode = 1;
}

// Runs when executed (node dist/bench/page.js), not when the slow test imports timeFirstScreen.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main();
}
