/**
 * The two forms of a page (`-o page.html` and `-o page/`) in Debian's
 * Chromium, on the four-arm fixture board with long replies: the folder form
 * opens from file:// with no server and no network, shows every verified
 * view as its exact file (no "browser reprojection" where the file exists)
 * and loads its data as the reader goes; both forms hold every word, and
 * search finds a phrase past character 240 of a reply or reasoning; the
 * one-file form fits its views to --max-mb by priority and says so once;
 * a bad -o is refused (exit 2) before any work, leaving nothing behind; the
 * folder is replaced as a whole, and the same inputs give the same bytes.
 */
import { describe, expect, it, beforeAll, afterAll } from "vitest";
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { createHash } from "node:crypto";
import { gunzipSync } from "node:zlib";
import { type Browser } from "playwright-core";
import { launchChromium } from "../browser.ts";
import { MIXED, runCli } from "../helpers.ts";
import { makeFourArmBoard } from "../board-fixture.ts";
import { detailText } from "../../envs/geoguesser/src/page/search-text.ts";
import { decodeTexts } from "../../src/page/search-code.ts";
import type { PageEpisode } from "../../envs/geoguesser/src/page/model.ts";
import type { ListRow } from "../../envs/geoguesser/src/page/list-row.ts";
import { PageFolder } from "../../src/page/output/folder.ts";
import { ROWS_PER_FILE, RUN_BATCH, RunBatches, rowsOfDataScript } from "../../envs/geoguesser/src/page/output/run-batches.ts";

const dir = join(tmpdir(), `georeplay-page-folder-${process.pid}`);
const board = join(dir, "board");
const folder = join(dir, "board-page");
const again = join(dir, "board-page-again");
const oneFile = join(dir, "board.html");
const runFolder = join(dir, "run-page");
const common = ["--tasks", join(MIXED, "tasks.jsonl"), "--panos", join(MIXED, "panos"), "--no-progress"];

/** Unique phrases placed well past character 240 of a reply and of a reasoning. */
const REPLY_PHRASE = "cobalt heron lighthouse";
const REASONING_PHRASE = "amber quokka signpost";
const filler = (n: number) => "The road markings, the bollards and the vegetation all point the same way. ".repeat(n);
let replyEpisode = "";
let reasoningEpisode = "";

type RawTurn = {
  turn: number;
  image_kind?: string;
  image_sha256?: string;
  camera_after?: { fov_deg: number } | null;
  model?: { reply?: string; reasoning?: string };
};
type Raw = { episode_id: string; turns: RawTurn[] };

/** Gives one base episode a long reply and one ckpt-a episode a long reasoning, each with its phrase past character 240. */
function addLongText(root: string): void {
  const edit = (file: string, key: "reply" | "reasoning", phrase: string): string => {
    const lines = readFileSync(file, "utf8")
      .split("\n")
      .filter((l) => l.trim());
    const e = JSON.parse(lines[1]);
    const t = e.turns.find((x: RawTurn) => x.model);
    t.model[key] = `${filler(5)}${phrase}. ${filler(3)}`;
    lines[1] = JSON.stringify(e);
    writeFileSync(file, lines.join("\n") + "\n");
    return e.episode_id;
  };
  replyEpisode = edit(join(root, "base", "pass-0", "shard-0", "episodes.jsonl"), "reply", REPLY_PHRASE);
  reasoningEpisode = edit(join(root, "ckpt-a", "pass-1", "shard-0", "episodes.jsonl"), "reasoning", REASONING_PHRASE);
}

function rawEpisodes(d: string): Raw[] {
  const found: Raw[] = [];
  const walk = (p: string) => {
    for (const e of readdirSync(p, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (e.isDirectory()) walk(join(p, e.name));
      else if (e.name === "episodes.jsonl") for (const l of readFileSync(join(p, e.name), "utf8").split("\n")) if (l.trim()) found.push(JSON.parse(l));
    }
  };
  walk(d);
  return found;
}

/** Every file under a folder: relative path -> sha256 of its bytes. */
function tree(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (p: string) => {
    for (const e of readdirSync(p, { withFileTypes: true })) {
      const f = join(p, e.name);
      if (e.isDirectory()) walk(f);
      else out[relative(root, f)] = createHash("sha256").update(readFileSync(f)).digest("hex");
    }
  };
  walk(root);
  return out;
}

let browser: Browser;
let folderJson: Record<string, unknown>;
let oneFileRun: { code: number | null; stderr: string; json: Record<string, unknown> };

beforeAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  makeFourArmBoard(board);
  addLongText(board);
  const f = runCli(["page", board, ...common, "--baseline", "base", "-o", `${folder}/`, "--json"]);
  expect(f.code, f.stderr).toBe(1); // the fixture has mismatching views
  folderJson = JSON.parse(f.stdout);
  const o = runCli(["page", board, ...common, "--baseline", "base", "-o", oneFile, "--json"]);
  oneFileRun = { code: o.code, stderr: o.stderr, json: JSON.parse(o.stdout) };
  browser = await launchChromium();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function open(file: string, hash = "") {
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  const page = await context.newPage();
  const log = { requests: [] as string[], errors: [] as string[], console: [] as string[] };
  page.on("request", (r) => log.requests.push(r.url()));
  page.on("console", (m) => log.console.push(`${m.type()}: ${m.text()}`));
  page.on("pageerror", (e) => log.errors.push(e.message));
  await page.goto(`file://${file}${hash}`);
  await page.waitForFunction(() => document.documentElement.dataset.ready === "1");
  return { page, log, close: () => context.close() };
}

async function search(page: import("playwright-core").Page, q: string): Promise<string[]> {
  await page.fill("#f-q", q);
  await page.waitForFunction(
    () => !document.querySelector("#gr-count")!.textContent!.includes("searching") && document.querySelectorAll("#gr-rows tr[data-id]").length > 0,
    null,
    {
      timeout: 20_000,
    },
  );
  return page.$$eval("#gr-rows tr[data-id]", (trs) => trs.map((tr) => (tr as HTMLElement).dataset.id!));
}

describe("the folder form (-o DIR/)", () => {
  it("writes index.html beside data/ and views/, every verified view as its exact file named by sha256, and reports it in --json", () => {
    expect(folderJson).toMatchObject({ written: true, form: "folder", views_left_out: 0 });
    expect(readdirSync(folder).sort()).toEqual([".georeplay-page", "data", "index.html", "views"]);
    const views = readdirSync(join(folder, "views"));
    expect(views.length).toBe(folderJson.views_embedded);
    for (const v of views) {
      const bytes = readFileSync(join(folder, "views", v));
      expect(v).toBe(`${createHash("sha256").update(bytes).digest("hex")}.jpg`);
      expect(bytes.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    }
    const data = readdirSync(join(folder, "data"));
    expect(data.filter((d) => d.startsWith("chunk-")).length).toBeGreaterThan(1);
    expect(data.filter((d) => d.startsWith("text-")).length).toBe(data.filter((d) => d.startsWith("chunk-")).length);
    // The search index: its table, and shards of positions and of docs.
    expect(data).toContain("sw-0.js");
    expect(data.filter((d) => d.startsWith("sp-")).length).toBeGreaterThan(0);
    expect(data.filter((d) => d.startsWith("sd-")).length).toBeGreaterThan(0);
    expect(folderJson.files).toBe(views.length + data.length + 2);
    // No temp file is left beside the folder.
    expect(readdirSync(dir).filter((n) => n.includes(".tmp-"))).toEqual([]);
    // The CSP stays strict: only the pinned script, and what it inserts; images from data: and the folder itself.
    const html = readFileSync(join(folder, "index.html"), "utf8");
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)![1].replace(/&#39;/g, "'");
    expect(csp).toMatch(
      /^default-src 'none'; img-src data: 'self'; font-src data:; style-src 'sha256-[^']+'; script-src 'sha256-[^']+' 'strict-dynamic'; base-uri 'none'/,
    );
    expect(csp).not.toContain("unsafe");
  });

  it("opens from file:// and shows exact views from their files, no reprojection label where the file exists, with no network request", async () => {
    const raw = rawEpisodes(board);
    const ep = raw.find((e) =>
      e.turns.some((t) => t.image_kind === "view" && (t.camera_after?.fov_deg ?? 99) <= 45 && existsSync(join(folder, "views", `${t.image_sha256}.jpg`))),
    )!;
    const zoom = ep.turns.find(
      (t) => t.image_kind === "view" && (t.camera_after?.fov_deg ?? 99) <= 45 && existsSync(join(folder, "views", `${t.image_sha256}.jpg`)),
    )!;
    const { page, log, close } = await open(join(folder, "index.html"), `#${ep.episode_id}/${zoom.turn}`);
    const sel = `[id="t-${ep.episode_id}-${zoom.turn}"] .media img`;
    await page.waitForFunction((s) => (document.querySelector(s) as HTMLImageElement | null)?.naturalWidth === 640, sel, { timeout: 20_000 });
    expect(await page.getAttribute(sel, "src")).toBe(`views/${zoom.image_sha256}.jpg`);
    // Every view of the episode whose file exists is that file, never a reprojection.
    for (const t of ep.turns.filter((x) => x.image_kind === "view" && existsSync(join(folder, "views", `${x.image_sha256}.jpg`)))) {
      const media = page.locator(`[id="t-${ep.episode_id}-${t.turn}"] .media`);
      await media.scrollIntoViewIfNeeded();
      await expect.poll(() => media.locator("img").getAttribute("src")).toBe(`views/${t.image_sha256}.jpg`);
      expect(await media.locator(".reproj").count()).toBe(0);
    }
    // Enlarged, it is the same file at 640 px, not upscaled.
    await page.click(sel);
    await page.waitForFunction(() => (document.querySelector("#gr-lightbox img") as HTMLImageElement | null)?.naturalWidth === 640);
    expect(await page.textContent("#gr-lightbox figcaption")).not.toContain("embedded at");
    expect(log.errors).toEqual([]);
    expect(log.console.filter((c) => /Content Security Policy|Refused/i.test(c))).toEqual([]);
    expect(log.requests.length).toBeGreaterThan(1);
    expect(log.requests.filter((u) => !u.startsWith(`file://${folder}/`))).toEqual([]);
    expect(log.requests.some((u) => u.includes("/data/chunk-"))).toBe(true);
    await close();
  });

  it("search over every word finds a phrase past character 240 of a reply and of a reasoning, and the episode shows the whole text", async () => {
    const { page, log, close } = await open(join(folder, "index.html"));
    expect(await search(page, REPLY_PHRASE)).toEqual([replyEpisode]);
    expect(await search(page, REASONING_PHRASE.toUpperCase())).toEqual([reasoningEpisode]);
    // Search read the index (its table once, then the shards of the query's words), never every search text (a
    // 12,800-episode board's are ~1 GB), and kept what it read: the same query again reads nothing more.
    const index = () => log.requests.filter((u) => /\/data\/s[wpd]-\d+\.js$/.test(u));
    expect(index().filter((u) => u.endsWith("/data/sw-0.js")).length).toBe(1);
    expect(index().some((u) => u.includes("/data/sp-"))).toBe(true);
    expect(log.requests.some((u) => u.includes("/data/text-"))).toBe(false);
    const read = index().length;
    expect(await search(page, REPLY_PHRASE)).toEqual([replyEpisode]);
    expect(index().length).toBe(read);
    await page.goto(`file://${join(folder, "index.html")}#${replyEpisode}`);
    await page.waitForFunction((p) => document.querySelector("#gr-detail")!.textContent!.includes(p), REPLY_PHRASE, { timeout: 20_000 });
    expect(await page.textContent("#gr-detail")).not.toMatch(/first 240 of/);
    expect(log.requests.filter((u) => !u.startsWith(`file://${folder}/`))).toEqual([]);
    expect(log.errors).toEqual([]);
    await close();
  });

  it("search texts are coded (each file's words once, a character per word: fewer bytes), and a query on the codes finds what it finds in the words", async () => {
    const payload = (file: string) => {
      const s = readFileSync(join(folder, "data", file), "utf8");
      return JSON.parse(s.slice(s.indexOf(",", s.indexOf(",") + 1) + 1, s.lastIndexOf(")")));
    };
    const chunks = readdirSync(join(folder, "data")).filter((d) => d.startsWith("chunk-"));
    let plainBytes = 0;
    let codedBytes = 0;
    const all: { id: string; text: string }[] = [];
    for (const c of chunks) {
      const episodes = (JSON.parse(gunzipSync(Buffer.from(payload(c) as string, "base64")).toString("utf8")) as { episodes: PageEpisode[] }).episodes;
      const plain = episodes.map((e) => detailText(e));
      episodes.forEach((e, i) => all.push({ id: e.id, text: plain[i] }));
      const coded = payload(c.replace("chunk-", "text-")) as { words: string[]; texts: string[] };
      expect(Object.keys(coded)).toEqual(["words", "texts"]);
      // Lossless: each code one of the file's words, the words joined by spaces the text.
      expect(decodeTexts(coded)).toEqual(plain);
      plainBytes += Buffer.byteLength(JSON.stringify(plain));
      codedBytes += Buffer.byteLength(JSON.stringify(coded));
    }
    expect(codedBytes).toBeLessThan(plainBytes);
    const { page, log, close } = await open(join(folder, "index.html"));
    // Within a word, across word ends, and upper-cased: the same episodes as the words give.
    expect(await search(page, "obalt heron lighthous")).toEqual([replyEpisode]);
    expect(await search(page, "ERON LIGH")).toEqual([replyEpisode]);
    expect(await search(page, "quokka sig")).toEqual([reasoningEpisode]);
    expect(new Set(await search(page, "gs, the bollards and the veg"))).toEqual(new Set([replyEpisode, reasoningEpisode]));
    // The page's search (its index) finds what reading every word finds: phrases that many episodes hold, within
    // and across words, from the start or the end of a word.
    for (const q of ["gs, the bollards and the veg", "the bollards", "ollards an", "bollards", "ing the", " the b"]) {
      const want = new Set(all.filter((e) => e.text.includes(q)).map((e) => e.id));
      expect(want.size).toBeGreaterThan(0);
      expect(new Set(await search(page, q))).toEqual(want);
    }
    expect(log.errors).toEqual([]);
    await close();
  });

  it("the player plays an episode from the folder, its views drawn from the view files, with no network request", async () => {
    const ep = rawEpisodes(board).find((e) =>
      e.turns.some((t) => t.image_kind === "view" && (t.camera_after?.fov_deg ?? 99) <= 45 && existsSync(join(folder, "views", `${t.image_sha256}.jpg`))),
    )!;
    const { page, log, close } = await open(join(folder, "index.html"), `#${ep.episode_id}`);
    await page.waitForSelector(".player-slot button.start", { timeout: 20_000 });
    await page.click(".player-slot button.start");
    await page.waitForSelector(".player[data-ready]", { timeout: 60_000 });
    // Step through every turn (each keyframe a view file or a panorama), then play.
    await page.focus(".player");
    const from = new Set<string>();
    for (let i = 0; i < ep.turns.length; i++) {
      await page.keyboard.press("Shift+ArrowRight");
      from.add((await page.$eval(".player", (p) => (p as HTMLElement).dataset.frameFrom)) ?? "");
    }
    // Keyframes are the view files; over file:// the browser lets no page read a file's pixels,
    // so in-between frames come from the panorama, never a failed read of a view.
    expect([...from].join(" ")).toContain("view");
    expect([...from].join(" ")).not.toContain("exact");
    await page.keyboard.press("Home");
    await page.keyboard.press("Space");
    await page.waitForFunction(() => Number(document.querySelector<HTMLElement>(".player")!.dataset.frame) > 10, null, { timeout: 30_000 });
    expect(log.requests.some((u) => u.includes("/views/"))).toBe(true);
    expect(log.requests.filter((u) => !u.startsWith(`file://${folder}/`))).toEqual([]);
    expect(log.errors).toEqual([]);
    await close();
  }, 120_000);

  it("is replaced as a whole on the next build, and the same inputs give the same bytes", () => {
    writeFileSync(join(folder, "views", "stale.jpg"), "left from an older build");
    const first = tree(folder);
    const r = runCli(["page", board, ...common, "--baseline", "base", "-o", folder]); // an existing folder: the folder form without a slash
    expect(r.code, r.stderr).toBe(1);
    const second = tree(folder);
    expect(second["views/stale.jpg"]).toBeUndefined();
    delete first["views/stale.jpg"];
    expect(second).toEqual(first);
    const b = runCli(["page", board, ...common, "--baseline", "base", "-o", `${again}/`]);
    expect(b.code, b.stderr).toBe(1);
    expect(tree(again)).toEqual(second);
    expect(readdirSync(dir).filter((n) => n.includes(".tmp-"))).toEqual([]);
  }, 120_000);

  it("run pages: every view is the exact 640 px file the model saw, opened from file:// with no network", async () => {
    const r = runCli(["page", join(MIXED, "episodes.jsonl"), ...common, "-o", `${runFolder}/`, "--json"]);
    expect([0, 1]).toContain(r.code);
    const j = JSON.parse(r.stdout);
    expect(j).toMatchObject({ written: true, form: "folder" });
    const views = readdirSync(join(runFolder, "views"));
    expect(views.length).toBe(j.images);
    const { page, log, close } = await open(join(runFolder, "index.html"));
    await page.waitForFunction(() => [...document.querySelectorAll("#gr-detail .media img")].some((i) => (i as HTMLImageElement).naturalWidth === 640), null, {
      timeout: 20_000,
    });
    // Images load as their turns come into view: those loaded are the view files.
    const src = (await page.$$eval("#gr-detail .media img", (imgs) => imgs.map((i) => i.getAttribute("src")))).filter((s) => s !== null);
    expect(src.length).toBeGreaterThan(0);
    for (const s of src) expect(s).toMatch(/^views\/[0-9a-f]{64}\.jpg$/);
    // The details load in batches as the reader goes; every word is searchable.
    expect(log.requests.some((u) => u.endsWith("/data/episodes-0.js"))).toBe(true);
    type RunTurn = { model?: { reply?: string | null } };
    const raw = readFileSync(join(MIXED, "episodes.jsonl"), "utf8")
      .split("\n")
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as { episode_id: string; turns?: RunTurn[] });
    const reply = raw.flatMap((e) => e.turns ?? []).find((t) => (t.model?.reply?.length ?? 0) > 80)!.model!.reply!;
    const phrase = reply.slice(40, 70).toLowerCase();
    const want = raw.filter((e) => JSON.stringify(e).toLowerCase().includes(JSON.stringify(phrase).slice(1, -1))).map((e) => e.episode_id);
    expect(want.length).toBeGreaterThan(0);
    expect((await search(page, phrase)).sort()).toEqual([...new Set(want)].sort());
    expect(log.requests.some((u) => u.endsWith("/data/text-0.js"))).toBe(true);
    expect(log.requests.filter((u) => !u.startsWith(`file://${runFolder}/`))).toEqual([]);
    expect(log.errors).toEqual([]);
    await close();
  }, 120_000);

  it("run pages: the list rows are data files read after the first screen; without them the first screen still opens and the list says why", async () => {
    // Built by the test above: index.html holds no row, data/rows-0.js holds every episode's, in the input's order.
    const html = readFileSync(join(runFolder, "index.html"), "utf8");
    expect(html).toContain('<script type="application/json" id="gr-episodes">[]</script>');
    expect(html).toContain('data-row-files="1"');
    const rows = rowsOfDataScript(readFileSync(join(runFolder, "data", "rows-0.js"), "utf8"));
    const ids = readFileSync(join(MIXED, "episodes.jsonl"), "utf8")
      .split("\n")
      .filter((l) => l.trim())
      .map((l) => (JSON.parse(l) as { episode_id: string }).episode_id);
    expect(rows.map((r) => r.id)).toEqual(ids.filter((id) => rows.some((r) => r.id === id)));
    expect(new Set(rows.map((r) => r.id))).toEqual(new Set(ids));
    {
      const { page, log, close } = await open(join(runFolder, "index.html"));
      expect(await page.$$eval("#gr-rows tr[data-id]", (trs) => trs.length)).toBe(Math.min(rows.length, 300));
      expect(await page.evaluate(() => document.documentElement.dataset.firstScreen)).toBe("1");
      expect(log.requests.some((u) => u.endsWith("/data/rows-0.js"))).toBe(true);
      await close();
    }
    // A folder missing its rows file: the header and summary are there, the list says what is missing, nothing throws.
    const broken = join(dir, "run-page-no-rows");
    rmSync(broken, { recursive: true, force: true });
    cpSync(runFolder, broken, { recursive: true });
    rmSync(join(broken, "data", "rows-0.js"));
    const { page, log, close } = await open(join(broken, "index.html"));
    expect(await page.textContent("#gr-count")).toContain("the list could not be read: data/rows-0.js could not be loaded");
    expect(await page.$$eval("#gr-rows tr[data-id]", (trs) => trs.length)).toBe(0);
    expect(await page.isVisible("section.summary table")).toBe(true);
    expect(log.errors).toEqual([]);
    await close();
  }, 120_000);
});

describe("the folder form's list rows (RunBatches)", () => {
  it("go to data/rows-<k>.js, ROWS_PER_FILE a file, in the order added; each episode's row says where its detail is", () => {
    const out = join(dir, "rows-unit");
    const folder = new PageFolder(out);
    try {
      const batches = new RunBatches(folder);
      const n = ROWS_PER_FILE * 2 + 3;
      for (let i = 0; i < n; i++) {
        const id = `ep-${i}`;
        batches.add({ id, turns: [], errors: [] } as unknown as PageEpisode, { id, arm: "m", split: "eval", task: i % 7 } as unknown as ListRow);
      }
      batches.flush();
      expect(batches.rowFiles).toBe(3);
      const got = [0, 1, 2].flatMap((k) => rowsOfDataScript(readFileSync(join(folder.tmp, "data", `rows-${k}.js`), "utf8")));
      expect(got.map((r) => r.id)).toEqual(Array.from({ length: n }, (_, i) => `ep-${i}`));
      expect(got.map((r) => [r.batch, r.at])).toEqual(Array.from({ length: n }, (_, i) => [Math.floor(i / RUN_BATCH), i % RUN_BATCH]));
      expect(existsSync(join(folder.tmp, "data", "rows-3.js"))).toBe(false);
    } finally {
      folder.remove();
    }
  });
});

describe("the one-file form (-o page.html)", () => {
  it("holds every word: search finds the phrases past character 240", async () => {
    const { page, log, close } = await open(oneFile);
    expect(await search(page, REPLY_PHRASE)).toEqual([replyEpisode]);
    expect(await search(page, REASONING_PHRASE)).toEqual([reasoningEpisode]);
    expect(log.requests.filter((u) => u !== `file://${oneFile}`)).toEqual([]);
    expect(log.errors).toEqual([]);
    await close();
  });

  it("fits its views to --max-mb by priority (zooms first), says once on stderr how many were left out, and stays under the budget", () => {
    // The default budget holds every view of this small board.
    expect(oneFileRun.json).toMatchObject({ form: "file", files: 1, views_left_out: 0 });
    expect(oneFileRun.stderr).not.toMatch(/did not fit/);
    const small = join(dir, "small.html");
    const whole = statSync(oneFile).size;
    const mb = (whole - 100_000) / 1e6;
    const r = runCli(["page", board, ...common, "--baseline", "base", "-o", small, "--max-mb", String(mb), "--json"]);
    const j = JSON.parse(r.stdout);
    expect(j.views_left_out).toBeGreaterThan(0);
    expect(j.views_embedded + j.views_left_out).toBe(oneFileRun.json.views_embedded);
    expect(statSync(small).size).toBeLessThanOrEqual(mb * 1e6);
    expect(r.stderr.match(/did not fit/g)).toHaveLength(1);
    expect(r.stderr).toContain(`${j.views_left_out} of ${oneFileRun.json.views_embedded} verified view(s) did not fit`);
    expect(r.stderr).toContain("-o DIR/");
    // Zooms go first: no wide view is in while a zoom is left out.
    const html = readFileSync(small, "utf8");
    const table = JSON.parse(/<script type="application\/json" id="gr-images">([\s\S]*?)<\/script>/.exec(html)![1]) as (string | null)[];
    const inPage = new Set(
      table
        .filter((u): u is string => u !== null)
        .map((u) =>
          createHash("sha256")
            .update(Buffer.from(u.split(",")[1], "base64"))
            .digest("hex"),
        ),
    );
    const views = rawEpisodes(board).flatMap((e) =>
      e.turns.filter((t) => t.image_kind === "view" && existsSync(join(folder, "views", `${t.image_sha256}.jpg`))),
    );
    const zoomsOut = views.filter((t) => (t.camera_after?.fov_deg ?? 99) <= 45 && !inPage.has(t.image_sha256!));
    const wideIn = views.filter((t) => (t.camera_after?.fov_deg ?? 99) > 45 && inPage.has(t.image_sha256!));
    expect(zoomsOut.length === 0 || wideIn.length === 0).toBe(true);
    expect(inPage.size).toBe(j.views_embedded);
  }, 120_000);
});

describe("the search text (one function for both forms)", () => {
  it("holds every line of every text, lower-cased, each distinct line once (prompts that repeat the conversation shrink)", () => {
    const history = "System: you are a GeoGuessr agent.\nTurn 1: a road in the hills.";
    const turn = (prompt: string, reply: string) => ({ reply, reasoning: null, prompt, feedback: null, call: null, errors: [] as string[] });
    const e = { turns: [turn(history, "Maybe ALPS."), turn(`${history}\nTurn 2: a sign in Cyrillic.`, "Serbia, then.")], errors: [] };
    const text = detailText(e as unknown as Pick<PageEpisode, "turns" | "errors">);
    expect(text.split("\n")).toEqual([
      "maybe alps.",
      "system: you are a geoguessr agent.",
      "turn 1: a road in the hills.",
      "serbia, then.",
      "turn 2: a sign in cyrillic.",
    ]);
  });
});

describe("bad -o targets: exit 2 before any work, nothing left behind", () => {
  const before = () => readdirSync(dir).sort();
  const refused = (out: string, expected: RegExp) => {
    const had = before();
    const r = runCli(["page", board, ...common, "--baseline", "base", "-o", out]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(expected);
    expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
    expect(r.stdout).toBe("");
    expect(before()).toEqual(had);
    // Refused before anything is read: with an input that does not exist, the target is still what is named.
    const early = runCli(["page", join(dir, "no-such-board"), ...common, "--baseline", "base", "-o", out]);
    expect(early.code).toBe(2);
    expect(early.stderr).toMatch(expected);
    expect(early.stderr).not.toContain("no-such-board");
    const run = runCli(["page", join(dir, "no-such-run.jsonl"), ...common, "-o", out]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(expected);
  };

  it("a file given as a folder (file.html/)", () => {
    writeFileSync(join(dir, "taken.html"), "x");
    refused(`${join(dir, "taken.html")}/`, /taken\.html is a file, not a folder/);
  });

  it("a path under a regular file", () => {
    refused(join(dir, "taken.html", "sub", "page.html"), /taken\.html is a file, so nothing can be written under it/);
    refused(`${join(dir, "taken.html", "sub")}/`, /taken\.html is a file, so nothing can be written under it/);
  });

  it("an unwritable place", () => {
    refused("/proc/georeplay-page/", /cannot write in \/proc/);
    refused("/proc/georeplay-page.html", /cannot write in \/proc/);
  });

  it("a non-empty folder georeplay did not write", () => {
    const mine = join(dir, "mine");
    mkdirSync(mine, { recursive: true });
    writeFileSync(join(mine, "notes.txt"), "keep me");
    refused(`${mine}/`, /holds files georeplay did not write/);
    refused(mine, /holds files georeplay did not write/);
    expect(readFileSync(join(mine, "notes.txt"), "utf8")).toBe("keep me");
  });
});
