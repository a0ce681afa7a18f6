/**
 * What the player costs a board page (issue 22: board pages <= 1.25x their
 * size without it). The same generated board (bench/board/make.ts) written
 * twice, with and without --no-player, and the difference taken apart: the
 * per-episode play records in the task chunks, the page-wide player table
 * (fonts, map cells and places, render inputs) and the player's script.
 *
 *   node dist/bench/board-player.js [--arms 16] [--tasks 20] [--k 4] [--jobs 1] [--board DIR] [--reuse]
 *
 * Default: a tenth of the published board's tasks with its 64 attempts per
 * task (16 arms x k=4), the exact-zoom budget scaled with it, so everything
 * per episode and per panorama is as on the full board and only the
 * page-wide part (script, fonts, map data) weighs ten times as much: the
 * ratio measured here is an upper bound of the full board's, and the line
 * "at 12,800 episodes" adds the measured per-episode cost to the measured
 * page-wide part at full scale (an estimate, said as one). Then frames
 * painted per second during an episode's camera moves on that page, the
 * video planned and its text laid out in the browser (as bench/player.ts on
 * the run page; goal >= 24 at 1280x720).
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { pathToFileURL } from "node:url";
import { CACHE, fmt } from "./common.ts";
import { ensureBoard } from "./board/make.ts";
import { DEFAULT_SHAPE } from "./board/shape.ts";
import { reachability, timed } from "./board-page.ts";
import { DEFAULT_EXACT_MB } from "../envs/geoguesser/src/page/page-options.ts";
import type { PageEpisode } from "../envs/geoguesser/src/page/model.ts";
import type { TaskChunk } from "../envs/geoguesser/src/page/board/data.ts";
import { boardVideo } from "../envs/geoguesser/src/page/player/board-episode.ts";
import { paintRate, type PaintRun } from "./player-paint.ts";

const GOAL = 1.25;
/** bench/board-page.ts's goal for the 12,800-episode page. */
const BOARD_GOAL_BYTES = 60e6;

/** The first episode of the page with a camera move: its chunk entry (what the client hands the player) and the move's frames. */
function movingEpisode(file: string): { episode: PageEpisode; frames: number[] } {
  const html = readFileSync(file, "utf8");
  const start = html.indexOf('<script type="application/json" id="gr-chunks">');
  const from = html.indexOf(">", start) + 1;
  for (const b64 of JSON.parse(html.slice(from, html.indexOf("</script>", from))) as string[]) {
    for (const e of (JSON.parse(gunzipSync(Buffer.from(b64, "base64")).toString("utf8")) as TaskChunk).episodes) {
      if (!e.play) continue;
      const frames = boardVideo(e, e.play).timeline.segments.flatMap((s) =>
        s.kind === "camera" ? Array.from({ length: s.motionFrames }, (_, i) => s.startFrame + i) : [],
      );
      if (frames.length >= 20) return { episode: e, frames };
    }
  }
  throw new Error(`${file}: no episode with a camera move plays`);
}

/** Frames painted per second during camera moves, each reprojection path (bench/player-paint.ts, on the board's own data). */
async function boardPaintRate(file: string, rounds = 3): Promise<{ id: string; frames: number; runs: PaintRun[] }> {
  const { episode, frames } = movingEpisode(file);
  const runs = await paintRate(file, {
    id: episode.id,
    mount: { source: { kind: "board", episode } },
    frames,
    rounds,
    warmUp: frames.length,
    timeoutMs: 300_000,
  });
  return { id: episode.id, frames: frames.length, runs };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      arms: { type: "string", default: String(DEFAULT_SHAPE.arms) },
      tasks: { type: "string", default: "20" },
      k: { type: "string", default: String(DEFAULT_SHAPE.k) },
      jobs: { type: "string", default: "1" },
      board: { type: "string" },
      /** Reuse the two pages of an earlier run (sizes and painting only; no build times). */
      reuse: { type: "boolean", default: false },
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
  const reuse = values.reuse && existsSync(withOut) && existsSync(withoutOut);
  const withRun = reuse ? null : timed(["page", ...common, "-o", withOut]);
  const withoutRun = reuse ? null : timed(["page", ...common, "--no-player", "-o", withoutOut]);
  for (const [r, what] of [
    [withRun, "with"],
    [withoutRun, "without"],
  ] as const)
    if (r && r.code !== 0 && r.code !== 1) throw new Error(`page ${what} the player failed (${r.code}): ${r.stderr.slice(-2000)}`);
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
  if (withRun && withoutRun)
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
  const rate = await boardPaintRate(withOut);
  for (const mode of ["webgl2", "js"]) {
    const runs = rate.runs.filter((r) => r.mode === mode);
    const fps = runs.map((r) => (1000 * r.frames) / r.ms).sort((x, y) => x - y);
    console.log(
      `  painting        ${fmt(fps[Math.floor(fps.length / 2)], 0)} frames/s with ${mode === "webgl2" ? "the WebGL2 shader" : "the JS reprojection"} (median of ${fps.length}; ${rate.frames} camera-move frames of episode ${rate.id}, planned and laid out in the browser) · goal >= 24`,
    );
  }
  const ok = ratio <= GOAL;
  console.log(`  ${ok ? "goal met" : "GOAL NOT MET"}`);
  if (!ok) process.exitCode = 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main();
}
