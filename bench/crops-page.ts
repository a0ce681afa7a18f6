/**
 * A crops board page at scale (issue 50): `georeplay page RUN -o DIR/` (the folder form) on the
 * 10,000 generated crops episodes (bench/crops-data.ts), as a whole process under
 * /usr/bin/time -v; then the folder's files and bytes and the first screen from file:// in
 * headless Chromium (until the page says it is ready, with its arm table and first rows).
 *
 *   node dist/bench/crops-page.js [--opens 3] [--dataset DIR --run NAME]
 *
 * Goals: build < 8 min, peak RSS < 600 MB, first screen < 1 s.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { CACHE, fmt, folderSize, loadavg } from "./common.ts";
import { hasReference, tenThousand } from "./crops-data.ts";
import { timed, timeBoardFirstScreen } from "./board-page.ts";

const BUILD_GOAL_S = 480;
const PEAK_GOAL_MB = 600;
const FIRST_SCREEN_GOAL_MS = 1000;

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { opens: { type: "string", default: "3" }, dataset: { type: "string" }, run: { type: "string", default: "eval" } } });
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
  const opens = await timeBoardFirstScreen(join(out, "index.html"), Number(values.opens), "#gr-arms tbody tr");
  console.log(`  first screen     ${opens.map((o) => `${fmt(o.readyMs / 1000, 2)} s`).join(", ")} (arm table: ${opens[0].armRows} rows) · goal < 1 s`);
  const ratios = [page.seconds / BUILD_GOAL_S, page.maxRssMb / PEAK_GOAL_MB, Math.min(...opens.map((o) => o.readyMs)) / FIRST_SCREEN_GOAL_MS];
  console.log(`  measured/goal    build ${fmt(ratios[0], 2)} · peak ${fmt(ratios[1], 2)} · first screen ${fmt(ratios[2], 2)} (each <= 1 meets its goal)`);
  const ok = ratios.every((r) => r <= 1);
  console.log(`  ${ok ? "goals met" : "GOALS NOT MET"}`);
  if (!ok) process.exitCode = 1;
}

await main();
