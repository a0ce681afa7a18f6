/**
 * What listing a served board's new episodes costs the server (issue 41):
 * batches of fixture episodes (new ids, the arms fixture's two arms) are
 * verified as serve verifies a board's lines, with and without keeping the
 * views' bytes (the report-only path kept none), and shown as live chunks
 * (serve/live-board-episodes.ts). Prints the CPU ms per episode of each part
 * (the process's, worker threads included).
 *
 *   node dist/bench/serve-board-episodes.js [--batches 8]
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createPool } from "../envs/geoguesser/replay/verify/pool.ts";
import { verifyRun } from "../envs/geoguesser/replay/verify/verify.ts";
import { openPanoDir } from "../envs/geoguesser/replay/panos/store.ts";
import { LiveEpisodes } from "../envs/geoguesser/src/serve/live-episodes.ts";
import { LiveBoardEpisodes } from "../envs/geoguesser/src/serve/live-board-episodes.ts";
import { MIXED, ROOT, fmt, loadavg } from "./common.ts";

const { values } = parseArgs({ options: { batches: { type: "string", default: "8" } } });
const BATCHES = Number(values.batches);
const PER_BATCH = 128;

const arms = join(ROOT, "test", "fixtures", "arms");
const lines = ["base", "ckpt200"].flatMap((arm) =>
  readFileSync(join(arms, arm, "episodes.jsonl"), "utf8")
    .split("\n")
    .filter((l) => l.trim()),
);
const tasks = join(MIXED, "tasks.jsonl");
const panos = join(MIXED, "panos");

const tmp = mkdtempSync(join(tmpdir(), "georeplay-bench-board-"));
const root = join(tmp, "page");
mkdirSync(join(root, "data"), { recursive: true });
mkdirSync(join(root, "views"), { recursive: true });
const sweep = join(tmp, "sweep");
const file = join(sweep, "arm", "episodes.jsonl");
const pool = createPool({ jobs: 2, panos: openPanoDir(panos) });
const live = new LiveEpisodes({
  root,
  scratch: join(tmp, "scratch"),
  inputs: [sweep],
  tasks,
  panos,
  pool,
  jobs: 2,
  ids: [],
  images: [],
  batches: 0,
  cells: [],
  header: {
    info: { formats: { eval: 0, train: 0, example: 0 }, views: 0, images: 0, checked: 0, match: 0, resolved: 0, mismatch: 0, recorded: 0 },
    stats: [],
    errored: [],
  },
});
const board = new LiveBoardEpisodes({ root, inputs: [sweep], panos, ids: [], images: [], panoCount: 0, chunks: 0 });

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const batch = (k: number) =>
  Array.from({ length: PER_BATCH }, (_, i) => {
    const n = k * PER_BATCH + i;
    const text = JSON.stringify({ ...JSON.parse(lines[n % lines.length]), episode_id: `bench-${n}` });
    return { bytes: Buffer.from(text), line: n + 1 };
  });

try {
  const t = { keep: 0, bare: 0, show: 0, episodes: 0 };
  for (let k = 0; k < BATCHES; k++) {
    const b = batch(k);
    // The report-only path's verification (no view bytes kept), on its own scratch copy.
    const copy = join(tmp, "bare.jsonl");
    writeFileSync(copy, Buffer.concat(b.flatMap((l) => [l.bytes, Buffer.from("\n")])));
    let c0 = cpuMs();
    await verifyRun({ episodes: [copy], tasks, panos, format: "eval", jobs: 2, pool, keepImages: false });
    t.bare += cpuMs() - c0;
    c0 = cpuMs();
    const verified = await live.verified({ file, format: "eval" }, b);
    t.keep += cpuMs() - c0;
    c0 = cpuMs();
    const shown = await board.show(verified);
    board.takeTables();
    t.show += cpuMs() - c0;
    t.episodes += shown.rows.length;
  }
  const per = (ms: number) => fmt(ms / t.episodes, 2);
  console.log(`${t.episodes} episodes in ${BATCHES} batches of ${PER_BATCH} (load ${loadavg()})`);
  console.log(`verify, no view bytes kept (the report-only path): ${per(t.bare)} CPU ms/episode`);
  console.log(`verify, view bytes kept (now):                     ${per(t.keep)} CPU ms/episode`);
  console.log(`live chunk, rows and view files (now):             ${per(t.show)} CPU ms/episode`);
  console.log(`added per episode:                                 ${per(t.keep - t.bare + t.show)} CPU ms`);
} finally {
  await pool.close();
  rmSync(tmp, { recursive: true, force: true });
}
