/**
 * Board page benchmark (issue 11): `georeplay page --baseline base` on the
 * generated board (bench/board/make.ts: 16 arms x 200 tasks x k=4 = 12,800
 * episodes, ~20,000 distinct views, ~95 KB lines), measured as a whole
 * process with /usr/bin/time -v, side by side in the same run with
 * `georeplay report` on the same board (the floor: reading the board) and,
 * with --verify, `georeplay verify` (the floor: re-rendering every view).
 * Then the file: size, time to the first usable screen (the arm tables) in
 * headless Chromium, no request, and reachability: every episode has a row
 * and its detail in a chunk, every verified view a panorama to draw from.
 *
 *   node dist/bench/board-page.js [--arms 16] [--tasks 200] [--k 4] [--held-out] [--opens 3] [--verify] [--board DIR]
 *                                 [--exact-zooms-mb N] [--vs COMMIT]
 *
 * --held-out: the held-out board's size (4 arms x 40 tasks x k=4 = 640 episodes) and its goals:
 * the one-file page at most 12 MB, first screen under 1 s.
 *
 * Beside the sizes: the distinct map frames per task (every turn, outcome and compare map's
 * frame), since the generated board spreads its guesses over the world as real boards do.
 *
 * --exact-zooms-mb: the page's budget for exact zoom views (default: the page's own; a large
 * number embeds every zoom). --vs: also build the page with that commit's CLI (bench/common.ts
 * baselineCli), one after the other, and report the time ratio.
 *
 * Goals: build < 10 min, peak RSS < 1 GB, file < 60 MB, first screen < 2 s (held-out size: 12 MB, 1 s).
 */
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { gunzipSync } from "node:zlib";
import { pathToFileURL } from "node:url";
import { chromium } from "playwright-core";
import { CACHE, ROOT, baselineCli, fmt } from "./common.ts";
import { timedProcess } from "./timed.ts";
import { CHROMIUM_ARGS } from "./page.ts";
import { ensureBoard } from "./board/make.ts";
import { DEFAULT_SHAPE } from "./board/shape.ts";

/** The held-out board's size (issue 39): 640 episodes. */
const HELD_OUT_SHAPE = { arms: 4, tasks: 40, k: 4 };

const CLI = join(ROOT, "dist", "src", "cli.js");

export interface TimedProcess {
  code: number | null;
  seconds: number;
  cpuS: number;
  maxRssMb: number;
  stdout: string;
  stderr: string;
}

/** Runs node CLI args under /usr/bin/time -v: wall time, CPU time and peak RSS of the whole process. */
export function timed(args: string[], cli = CLI): TimedProcess {
  const t = timedProcess(process.execPath, [cli, ...args]);
  return { code: t.code, seconds: t.wallS, cpuS: t.cpuS, maxRssMb: t.peakMb, stdout: t.stdout, stderr: t.stderr };
}

/** Cold opens of a board page: wall time until the arm tables are rendered and the client is ready. */
export async function timeBoardFirstScreen(
  file: string,
  opens: number,
  rowsSelector = "#gr-board-arms tbody tr",
): Promise<{ firstMs: number; readyMs: number; requests: number; armRows: number }[]> {
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
  const out = [];
  try {
    for (let i = 0; i < opens; i++) {
      const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
      const page = await context.newPage();
      let requests = 0;
      page.on("request", () => requests++);
      const t0 = performance.now();
      await page.goto(`file://${file}`, { waitUntil: "commit" });
      // The first screen (a board folder reads its list's other rows after it: data-first-screen), then the whole page.
      await page.waitForFunction(() => document.documentElement.dataset.firstScreen === "1" || document.documentElement.dataset.ready === "1", null, {
        polling: 10,
        timeout: 120_000,
      });
      const firstMs = performance.now() - t0;
      const armRows = await page.$$eval(rowsSelector, (t) => t.length);
      await page.waitForFunction(() => document.documentElement.dataset.ready === "1", null, { polling: 10, timeout: 120_000 });
      const readyMs = performance.now() - t0;
      await page.waitForLoadState("load", { timeout: 300_000 });
      out.push({ firstMs, readyMs, requests: requests - 1, armRows });
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return out;
}

/** Reads the page's own tables back: episodes with a row and a detail, view turns with a panorama. */
export function reachability(file: string): {
  rows: number;
  details: number;
  viewTurns: number;
  withPano: number;
  exact: number;
  chunks: number;
  panos: number;
  bytes: Record<string, number>;
  /** Distinct map frames per task chunk (turn, outcome and compare maps): mean and most. */
  frames: { mean: number; max: number };
} {
  const html = readFileSync(file, "utf8");
  const grab = (id: string) => {
    const start = html.indexOf(`<script type="application/json" id="${id}">`);
    const from = html.indexOf(">", start) + 1;
    return html.slice(from, html.indexOf("</script>", from));
  };
  const data = JSON.parse(grab("gr-board-data")) as { episodes: { id: string; chunk: number; at: number }[] };
  const chunksText = grab("gr-chunks");
  type Framed = { frame?: unknown };
  const parsed = (JSON.parse(chunksText) as string[]).map(
    (b) =>
      JSON.parse(gunzipSync(Buffer.from(b, "base64")).toString("utf8")) as {
        episodes: { id: string; outcomeMap?: Framed | null; turns: { kind: string; check: string | null; pano?: unknown; image?: number | null }[] }[];
        maps?: Framed[];
        compare?: { paints: Framed[] };
      },
  );
  const chunks = parsed.map((c) => c.episodes);
  const frameCounts = parsed.map(
    (c) =>
      new Set(
        [...(c.maps ?? []), ...c.episodes.map((e) => e.outcomeMap ?? {}), ...(c.compare?.paints ?? [])].flatMap((m) =>
          m.frame ? [JSON.stringify(m.frame)] : [],
        ),
      ).size,
  );
  const panosText = grab("gr-panos");
  // Zooms (fov <= 45) embedded as their exact verified bytes, within the page's budget.
  const exactText = html.includes('id="gr-images"') ? grab("gr-images") : "[]";
  // A turn's image index names a table entry; one left out of the budget is null there (the view is reprojected).
  const exactTable = JSON.parse(exactText) as (string | null)[];
  let details = 0;
  for (const r of data.episodes) if (chunks[r.chunk]?.[r.at]?.id === r.id) details++;
  let viewTurns = 0;
  let withPano = 0;
  let exact = 0;
  for (const c of chunks)
    for (const e of c)
      for (const t of e.turns)
        if (t.kind === "view" && t.check !== null) {
          viewTurns++;
          if (t.pano) withPano++;
          if (t.image != null && exactTable[t.image] != null) exact++;
        }
  return {
    rows: data.episodes.length,
    details,
    viewTurns,
    withPano,
    exact,
    chunks: chunks.length,
    panos: (JSON.parse(panosText) as string[]).length,
    bytes: {
      data: grab("gr-board-data").length,
      chunks: chunksText.length,
      panos: panosText.length,
      exact: exactText.length,
      mapCells: html.includes('id="gr-map-cells"') ? grab("gr-map-cells").length : 0,
      total: html.length,
    },
    frames: { mean: frameCounts.reduce((a, b) => a + b, 0) / Math.max(1, frameCounts.length), max: Math.max(0, ...frameCounts) },
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      arms: { type: "string", default: String(DEFAULT_SHAPE.arms) },
      tasks: { type: "string", default: String(DEFAULT_SHAPE.tasks) },
      k: { type: "string", default: String(DEFAULT_SHAPE.k) },
      opens: { type: "string", default: "3" },
      verify: { type: "boolean", default: false },
      board: { type: "string" },
      "exact-zooms-mb": { type: "string" },
      vs: { type: "string" },
      "held-out": { type: "boolean", default: false },
    },
  });
  const heldOut = values["held-out"];
  const shape = heldOut
    ? { ...DEFAULT_SHAPE, ...HELD_OUT_SHAPE }
    : { ...DEFAULT_SHAPE, arms: Number(values.arms), tasks: Number(values.tasks), k: Number(values.k) };
  const goal = heldOut ? { mb: 12, readyMs: 1000 } : { mb: 60, readyMs: 2000 };
  const b = await ensureBoard(shape, values.board ? { out: values.board } : {});
  const out = join(CACHE, `board-page-${shape.arms}x${shape.tasks}x${shape.k}.html`);
  const load = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
  console.log(`board page: ${b.episodes} episodes (${shape.arms} arms x ${shape.tasks} tasks x k=${shape.k}) · load ${load()}`);

  const report = timed(["report", b.root, "--baseline", "base", "--json"]);
  console.log(`  report           ${fmt(report.seconds, 1)} s · ${fmt(report.maxRssMb, 0)} MB (the floor: reading the board)`);
  const zooms = values["exact-zooms-mb"] !== undefined ? ["--exact-zooms-mb", values["exact-zooms-mb"]] : [];
  const pageArgs = ["page", b.root, "--tasks", b.tasks, "--panos", b.panos, "--baseline", "base", "--json", "--no-progress"];
  const page = timed([...pageArgs, ...zooms, "-o", out]);
  if (page.code !== 0 && page.code !== 1) throw new Error(`page failed (${page.code}): ${page.stderr.slice(-2000)}`);
  const j = JSON.parse(page.stdout) as { episodes: number; views: number; images: number; checked: number; match: number; mismatch: number };
  console.log(
    `  page --baseline  ${fmt(page.seconds, 0)} s · peak RSS ${fmt(page.maxRssMb, 0)} MB (whole process) · ${j.views} view turns, ${j.checked} checked, ${j.mismatch} mismatch · page/report ${fmt(page.seconds / report.seconds, 1)}x time · goal < 600 s, < 1024 MB`,
  );
  // Each result is printed as soon as it is measured: a long run that fails later keeps what it measured.
  const bytes = statSync(out).size;
  const reach = reachability(out);
  console.log(
    `  file size        ${fmt(bytes / 1e6, 1)} MB: board data ${fmt(reach.bytes.data / 1e6, 1)} MB, ${reach.chunks} task chunks ${fmt(reach.bytes.chunks / 1e6, 1)} MB, map cells ${fmt(reach.bytes.mapCells / 1e6, 1)} MB, ${reach.panos} panoramas ${fmt(reach.bytes.panos / 1e6, 1)} MB, exact zooms ${fmt(reach.bytes.exact / 1e6, 1)} MB (+${fmt((100 * reach.bytes.exact) / (bytes - reach.bytes.exact), 0)}%) · goal < ${goal.mb} MB`,
  );
  console.log(`  map frames       ${fmt(reach.frames.mean, 1)} distinct per task (most ${reach.frames.max}): turn, outcome and compare maps`);
  console.log(
    `  reachable        ${reach.details}/${reach.rows} episodes with their detail, ${reach.withPano}/${reach.viewTurns} checked views drawable from an embedded panorama, ${reach.exact} shown as their exact bytes (zooms)`,
  );
  const opens = await timeBoardFirstScreen(out, Number(values.opens));
  const ready = [...opens.map((o) => o.readyMs)].sort((x, y) => x - y)[Math.floor(opens.length / 2)];
  const requests = Math.max(...opens.map((o) => o.requests));
  console.log(
    `  first screen     ${fmt(ready, 0)} ms to the arm tables (median of ${opens.length} cold opens) · requests ${requests} · goal < ${goal.readyMs} ms`,
  );
  const before = values.vs ? baselineCli(values.vs) : null;
  if (before && "why" in before) console.log(`  no side-by-side with ${values.vs}: ${before.why}`);
  if (before && "cli" in before) {
    const was = timed([...pageArgs, "-o", join(CACHE, "board-page-before.html")], before.cli);
    console.log(
      `  page --baseline with ${values.vs}'s CLI  ${fmt(was.seconds, 0)} s · ${fmt(was.maxRssMb, 0)} MB · ${fmt(statSync(join(CACHE, "board-page-before.html")).size / 1e6, 1)} MB file · now/then ${fmt(page.seconds / was.seconds, 2)}x time, ${fmt(page.maxRssMb / was.maxRssMb, 2)}x RSS (goal: no slower)`,
    );
  }
  if (values.verify) {
    const verify = timed(["verify", b.root, "--tasks", b.tasks, "--panos", b.panos, "--json"]);
    console.log(
      `  verify (same board)  ${fmt(verify.seconds, 0)} s · ${fmt(verify.cpuS, 0)} CPU-s · ${fmt(verify.maxRssMb, 0)} MB · page/verify ${fmt(page.seconds / verify.seconds, 2)}x time, ${fmt(page.maxRssMb / verify.maxRssMb, 2)}x RSS`,
    );
  }
  const ok =
    page.seconds < 600 &&
    page.maxRssMb < 1024 &&
    bytes <= goal.mb * 1e6 &&
    ready < goal.readyMs &&
    requests === 0 &&
    reach.details === reach.rows &&
    reach.withPano === reach.viewTurns;
  console.log(`  ${ok ? "goals met" : "GOALS NOT MET"} · load ${load()}`);
  if (!ok) process.exitCode = 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main();
}
