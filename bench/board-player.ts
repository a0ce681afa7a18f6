/**
 * What the player costs a board page (issue 22: board pages <= 1.25x their
 * size without it). The same generated board (bench/board/make.ts) written
 * twice, with and without --no-player, and the difference taken apart: the
 * per-episode play records in the task chunks, the page-wide player table
 * (fonts, map cells and places, render inputs) and the player's script.
 *
 *   node dist/bench/board-player.js [--arms 16] [--tasks 20] [--k 4] [--jobs 1] [--board DIR]
 *
 * Default: a tenth of the published board's tasks with its 64 attempts per
 * task (16 arms x k=4), the exact-zoom budget scaled with it, so everything
 * per episode and per panorama is as on the full board and only the
 * page-wide part (script, fonts, map data) weighs ten times as much: the
 * ratio measured here is an upper bound of the full board's, and the line
 * "at 12,800 episodes" adds the measured per-episode cost to the measured
 * page-wide part at full scale (an estimate, said as one).
 */
import { statSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { pathToFileURL } from "node:url";
import { CACHE, fmt } from "./common.ts";
import { ensureBoard } from "./board/make.ts";
import { DEFAULT_SHAPE } from "./board/shape.ts";
import { reachability, timed } from "./board-page.ts";
import { DEFAULT_EXACT_MB } from "../src/page/page-options.ts";

const GOAL = 1.25;
/** bench/board-page.ts's goal for the 12,800-episode page. */
const BOARD_GOAL_BYTES = 60e6;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      arms: { type: "string", default: String(DEFAULT_SHAPE.arms) },
      tasks: { type: "string", default: "20" },
      k: { type: "string", default: String(DEFAULT_SHAPE.k) },
      jobs: { type: "string", default: "1" },
      board: { type: "string" },
    },
  });
  const shape = { ...DEFAULT_SHAPE, arms: Number(values.arms), tasks: Number(values.tasks), k: Number(values.k) };
  const b = await ensureBoard(shape, { jobs: Number(values.jobs), ...(values.board ? { out: values.board } : {}) });
  const scale = shape.tasks / DEFAULT_SHAPE.tasks;
  const exactMb = String(DEFAULT_EXACT_MB * scale);
  const name = `${shape.arms}x${shape.tasks}x${shape.k}`;
  const common = [b.root, "--tasks", b.tasks, "--panos", b.panos, "--baseline", "base", "--jobs", values.jobs!, "--exact-zooms-mb", exactMb, "--json"];
  const withOut = join(CACHE, `board-player-${name}.html`);
  const withoutOut = join(CACHE, `board-player-${name}-none.html`);
  console.log(`board page with and without the player: ${b.episodes} episodes (${name}), exact zooms ${exactMb} MB`);
  const withRun = timed(["page", ...common, "-o", withOut]);
  const withoutRun = timed(["page", ...common, "--no-player", "-o", withoutOut]);
  for (const [r, what] of [
    [withRun, "with"],
    [withoutRun, "without"],
  ] as const)
    if (r.code !== 0 && r.code !== 1) throw new Error(`page ${what} the player failed (${r.code}): ${r.stderr.slice(-2000)}`);
  const bytesWith = statSync(withOut).size;
  const bytesWithout = statSync(withoutOut).size;
  const a = reachability(withOut);
  const z = reachability(withoutOut);
  const records = a.bytes.chunks - z.bytes.chunks;
  const pageWide = bytesWith - bytesWithout - records;
  const perEpisode = records / b.episodes;
  const ratio = bytesWith / bytesWithout;
  console.log(
    `  file size       ${fmt(bytesWith / 1e6, 2)} MB with the player, ${fmt(bytesWithout / 1e6, 2)} MB without: ${fmt(ratio, 3)}x · goal <= ${GOAL}x`,
  );
  console.log(
    `  the difference  play records in the chunks ${fmt(records / 1e6, 2)} MB (${fmt(perEpisode, 0)} B an episode), page-wide (script, fonts, map cells and places) ${fmt(pageWide / 1e6, 2)} MB`,
  );
  console.log(
    `  build time      ${fmt(withRun.seconds, 0)} s with, ${fmt(withoutRun.seconds, 0)} s without (${fmt(withRun.seconds / withoutRun.seconds, 2)}x) · peak RSS ${fmt(withRun.maxRssMb, 0)} / ${fmt(withoutRun.maxRssMb, 0)} MB`,
  );
  if (scale < 1) {
    // Everything per episode and per panorama scales with the board; the page-wide part does not (an upper bound: more episodes read more map cells).
    const fullWithout = bytesWithout / scale;
    const fullWith = fullWithout + perEpisode * (b.episodes / scale) + pageWide;
    console.log(
      `  at ${Math.round(b.episodes / scale)} episodes (estimate: this board's bytes per episode, its page-wide part once) ${fmt(fullWith / 1e6, 1)} MB with, ${fmt(fullWithout / 1e6, 1)} MB without: ${fmt(fullWith / fullWithout, 3)}x`,
    );
    // Whatever else the page carries, the player's own bytes against the board page's size goal.
    const player = perEpisode * (b.episodes / scale) + pageWide;
    console.log(
      `  the player alone at ${Math.round(b.episodes / scale)} episodes ${fmt(player / 1e6, 1)} MB: ${fmt(1 + player / BOARD_GOAL_BYTES, 3)}x a page at the board's 60 MB goal`,
    );
  }
  const ok = ratio <= GOAL;
  console.log(`  ${ok ? "goal met" : "GOAL NOT MET"}`);
  if (!ok) process.exitCode = 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main();
}
