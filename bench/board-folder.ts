/**
 * The folder form of a board page (issue 39): `georeplay page --baseline base
 * -o DIR/` on the generated board (bench/board/make.ts, 12,800 episodes by
 * default), measured as a whole process (/usr/bin/time -v); then the folder:
 * files and bytes (index.html, data/, views/), the first screen from file://
 * in headless Chromium (no request but its own files), every verified view
 * an exact file, and how long a search over every word takes (the search
 * index: its table of words once, then the shards of the words a query
 * needs, kept for the next query).
 *
 *   node dist/bench/board-folder.js [--arms 16] [--tasks 200] [--k 4] [--opens 3] [--board DIR] [--built]
 *
 * --built: no build; measures the folder the last run wrote for this shape (a build timed on its own, under
 * /usr/bin/time -v, then its page).
 *
 * Goals: build < 8 min, peak RSS < 600 MB, first screen < 1 s, search < 2 s.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { chromium } from "playwright-core";
import { CACHE, fmt, folderSize } from "./common.ts";
import { CHROMIUM_ARGS } from "./page.ts";
import { ensureBoard } from "./board/make.ts";
import { DEFAULT_SHAPE } from "./board/shape.ts";
import { timed, timeBoardFirstScreen } from "./board-page.ts";

/** A phrase from deep inside one reply of the board (past character 2,000 where there is one). */
function deepPhrase(root: string): string {
  const walk = (d: string): string | null => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = join(d, e.name);
      if (e.isDirectory()) {
        const f = walk(p);
        if (f) return f;
      } else if (e.name.endsWith(".jsonl")) return p;
    }
    return null;
  };
  const file = walk(root)!;
  const line = readFileSync(file, "utf8").split("\n", 1)[0];
  const ep = JSON.parse(line) as { turns: { model?: { reply?: string } }[] };
  const reply = ep.turns.map((t) => t.model?.reply ?? "").reduce((a, b) => (b.length > a.length ? b : a), "");
  const at = Math.min(2000, Math.max(0, reply.length - 60));
  return reply.slice(at, at + 40).trim();
}

/** Wall time of a search typed into the list, until it has read what it needs and shows its rows. */
async function timeSearch(index: string, phrase: string): Promise<{ firstMs: number; againMs: number; rows: number; requests: string[] }> {
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
  try {
    const page = await (await browser.newContext({ viewport: { width: 1366, height: 900 } })).newPage();
    const requests: string[] = [];
    page.on("request", (r) => requests.push(r.url()));
    await page.goto(`file://${index}`);
    await page.waitForFunction(() => document.documentElement.dataset.ready === "1", null, { timeout: 120_000 });
    const search = async (q: string) => {
      const t0 = performance.now();
      await page.fill("#f-q", q);
      await page.waitForFunction(() => !document.querySelector("#gr-count")!.textContent!.includes("searching"), null, { polling: 10, timeout: 600_000 });
      return performance.now() - t0;
    };
    const firstMs = await search(phrase);
    const rows = await page.$$eval("#gr-rows tr[data-id]", (t) => t.length);
    await search("");
    const againMs = await search(phrase.slice(0, -3));
    return { firstMs, againMs, rows, requests };
  } finally {
    await browser.close();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      arms: { type: "string", default: String(DEFAULT_SHAPE.arms) },
      tasks: { type: "string", default: String(DEFAULT_SHAPE.tasks) },
      k: { type: "string", default: String(DEFAULT_SHAPE.k) },
      opens: { type: "string", default: "3" },
      board: { type: "string" },
      built: { type: "boolean", default: false },
    },
  });
  const shape = { ...DEFAULT_SHAPE, arms: Number(values.arms), tasks: Number(values.tasks), k: Number(values.k) };
  const b = await ensureBoard(shape, values.board ? { out: values.board } : {});
  const out = join(CACHE, `board-folder-${shape.arms}x${shape.tasks}x${shape.k}`);
  console.log(`board page, folder form: ${b.episodes} episodes (${shape.arms} arms x ${shape.tasks} tasks x k=${shape.k})`);
  const page = values.built
    ? null
    : timed(["page", b.root, "--tasks", b.tasks, "--panos", b.panos, "--baseline", "base", "--json", "--no-progress", "-o", `${out}/`]);
  if (page && page.code !== 0 && page.code !== 1) throw new Error(`page failed (${page.code}): ${page.stderr.slice(-2000)}`);
  const j = (
    page
      ? JSON.parse(page.stdout)
      : {
          views: NaN,
          match: NaN,
          resolved: NaN,
          views_embedded: readdirSync(join(out, "views")).length,
          files: folderSize(out).files,
          bytes: folderSize(out).bytes,
        }
  ) as { views: number; match: number; resolved: number; views_embedded: number; files: number; bytes: number };
  if (page) console.log(`  page -o DIR/     ${fmt(page.seconds, 0)} s · peak RSS ${fmt(page.maxRssMb, 0)} MB · goal < 480 s, < 600 MB`);
  else console.log(`  page -o DIR/     not built here (--built): measuring ${out}`);
  const index = statSync(join(out, "index.html")).size;
  const data = folderSize(join(out, "data"));
  const views = folderSize(join(out, "views"));
  // The search texts (coded: a character per word, search-code.ts; a served page searches them) and the search
  // index a query reads from (search-index.ts: its table, then the shards of its words).
  const bytesOf = (test: (f: string) => boolean) =>
    readdirSync(join(out, "data"))
      .filter(test)
      .reduce((n, f) => n + statSync(join(out, "data", f)).size, 0);
  const texts = bytesOf((f) => f.startsWith("text-"));
  const table = bytesOf((f) => f === "sw-0.js");
  const postings = bytesOf((f) => /^s[pd]-/.test(f));
  const tables = bytesOf((f) => f === "tables-0.js");
  console.log(
    `  folder           ${j.files} files, ${fmt(j.bytes / 1e6, 1)} MB: index.html ${fmt(index / 1e6, 1)} MB, data/ ${data.files} files ${fmt(data.bytes / 1e6, 1)} MB (search texts ${fmt(texts / 1e6, 1)} MB; search index: table ${fmt(table / 1e6, 1)} MB, postings ${fmt(postings / 1e6, 1)} MB; page tables ${fmt(tables / 1e6, 1)} MB), views/ ${views.files} files ${fmt(views.bytes / 1e6, 1)} MB`,
  );
  console.log(`  exact views      ${j.views_embedded} distinct verified views as files (${j.match + j.resolved} of ${j.views} view turns verified)`);
  const opens = await timeBoardFirstScreen(join(out, "index.html"), Number(values.opens));
  console.log(
    `  first screen     ${opens.map((o) => `${fmt(o.firstMs / 1000, 2)} s`).join(", ")} (arm tables: ${opens[0].armRows} rows; whole, every list row read: ${opens.map((o) => `${fmt(o.readyMs / 1000, 2)} s`).join(", ")}; ${Math.max(...opens.map((o) => o.requests))} requests of its own files) · goal < 1 s`,
  );
  const phrase = deepPhrase(b.root);
  const s = await timeSearch(join(out, "index.html"), phrase);
  const foreign = s.requests.filter((u) => !u.startsWith(`file://${out}/`));
  console.log(
    `  search           "${phrase}": first ${fmt(s.firstMs / 1000, 2)} s, another ${fmt(s.againMs / 1000, 2)} s (the index's table once, then the shards of the query's words, kept) · ${s.rows} rows · ${foreign.length} requests outside the folder · goal < 2 s`,
  );
  const ok =
    (page === null || (page.seconds < 480 && page.maxRssMb < 600)) &&
    Math.min(...opens.map((o) => o.firstMs)) < 1000 &&
    s.firstMs < 2000 &&
    s.rows > 0 &&
    foreign.length === 0;
  console.log(`  ${ok ? "goals met" : "GOALS NOT MET"}`);
  if (!ok) process.exitCode = 1;
}

await main();
