/**
 * A crops board page at scale (issue 50): `georeplay page RUN -o DIR/` (the folder form) on the
 * 10,000 generated crops episodes (bench/crops-data.ts), as a whole process under
 * /usr/bin/time -v; then the folder's files and bytes and cold opens from file:// in headless
 * Chromium (first-screen.ts): the first screen (`data-first-screen`: the header, the board's
 * numbers and the top of the list drawn from index.html's own rows) and the whole page
 * (`data-ready`: every row read from data/cr-<k>.js, the first episode open), each as the
 * median and range of the opens, seen from outside and on the page's own clock.
 *
 *   node dist/bench/crops-page.js [--opens 5] [--dataset DIR --run NAME] [--built DIR]
 *
 * `--built DIR` opens a folder built before (no build): to time the opens alone.
 * Goals: build < 8 min, peak RSS < 600 MB, first screen < 1 s.
 */
import { rmSync, statSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { CACHE, fmt, folderSize, loadavg } from "./common.ts";
import { hasReference, tenThousand } from "./crops-data.ts";
import { timed } from "./board-page.ts";
import { timeReady } from "./first-screen.ts";

const BUILD_GOAL_S = 480;
const PEAK_GOAL_MB = 600;
const FIRST_SCREEN_GOAL_MS = 1000;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { opens: { type: "string", default: "5" }, dataset: { type: "string" }, run: { type: "string", default: "eval" }, built: { type: "string" } },
  });
  if (values.built) {
    const opened = await opens(resolve(values.built), Number(values.opens));
    if (opened > 1) process.exitCode = 1;
    return;
  }
  if (!values.dataset && !hasReference()) {
    console.log("crops-page: skipped (no reference record.py to generate the 10,000 episodes; set GEOREPLAY_CROPS_REFERENCE or pass --dataset)");
    return;
  }
  const data = values.dataset ? { dataset: values.dataset, run: values.run! } : tenThousand();
  const out = join(CACHE, "crops-page-folder");
  rmSync(out, { recursive: true, force: true });
  const page = timed(["page", join(data.dataset, data.run), "--dataset", data.dataset, "--json", "--no-progress", "-o", `${out}/`]);
  if (page.code !== 0 && page.code !== 1) throw new Error(`page failed (${page.code}): ${page.stderr.slice(-2000)}`);
  const j = JSON.parse(page.stdout) as { episodes: number; views: number; images: number; files: number; bytes: number };
  console.log(`crops board page, folder form: ${j.episodes} episodes, ${j.views} views (${j.images} distinct images stored) (load ${loadavg()})`);
  console.log(
    `  page -o DIR/     ${fmt(page.seconds, 0)} s (CPU ${fmt(page.cpuS, 0)} s) · peak RSS ${fmt(page.maxRssMb, 0)} MB · goal < ${BUILD_GOAL_S} s, < ${PEAK_GOAL_MB} MB`,
  );
  const all = folderSize(out);
  console.log(`  folder           ${all.files} files, ${fmt(all.bytes / 1e6, 1)} MB`);
  const first = await opens(out, Number(values.opens));
  const ratios = [page.seconds / BUILD_GOAL_S, page.maxRssMb / PEAK_GOAL_MB, first];
  console.log(`  measured/goal    build ${fmt(ratios[0], 2)} · peak ${fmt(ratios[1], 2)} · first screen ${fmt(ratios[2], 2)} (each <= 1 meets its goal)`);
  const ok = ratios.every((r) => r <= 1);
  console.log(`  ${ok ? "goals met" : "GOALS NOT MET"}`);
  if (!ok) process.exitCode = 1;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const spread = (xs: number[]) => `median ${fmt(median(xs) / 1000, 2)} s (${fmt(Math.min(...xs) / 1000, 2)}-${fmt(Math.max(...xs) / 1000, 2)})`;

/** Cold opens of DIR/index.html; prints them and returns the median first screen over its goal. */
async function opens(dir: string, n: number): Promise<number> {
  const file = join(dir, "index.html");
  const index = statSync(file).size;
  const o = await timeReady(file, n);
  console.log(`  index.html       ${fmt(index / 1e6, 2)} MB · ${n} cold opens from file:// (load ${loadavg()})`);
  console.log(`  first screen     ${spread(o.map((x) => x.firstMs))} seen from outside · page clock ${spread(o.map((x) => x.page.firstMs))} · goal < 1 s`);
  console.log(
    `  whole page       ${spread(o.map((x) => x.readyMs))} (every row, the first episode open) · longest task after the first screen ${spread(o.map((x) => x.page.longestTaskAfterMs))}`,
  );
  const own = pathToFileURL(dir).href;
  const outside = o.flatMap((x) => x.requests).filter((u) => !u.startsWith(own));
  console.log(
    `  requests         ${o[0].requests.length} a open, ${outside.length ? `${outside.length} OUTSIDE the folder: ${outside[0]}` : "all in the folder"}`,
  );
  return median(o.map((x) => x.firstMs)) / FIRST_SCREEN_GOAL_MS;
}

await main();
