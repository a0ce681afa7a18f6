/**
 * The page of a crops run (issue 50, item 4) in Debian's Chromium, on the bundled sample:
 * the list's numbers are the records' and `georeplay report --json`'s; the per-box table is
 * the recorded matches, misses and false alarms; the altered views of eval-corrupted are
 * flagged with both full hashes and shown as the re-rendered bytes; the filter expression and
 * the CSV over the crops fields; a board of two crops arms shows the report's numbers and
 * compares attempts; the one-file page is the same bytes on every build.
 */
import { describe, expect, it, beforeAll, afterAll } from "vitest";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Browser, type Page } from "playwright-core";
import { launchChromium } from "../browser.ts";
import { FIXTURES, runCli } from "../helpers.ts";

const SAMPLE = join(FIXTURES, "crops", "sample");
const EVAL = join(SAMPLE, "eval", "episodes.jsonl");
const CORRUPTED = join(SAMPLE, "eval-corrupted", "episodes.jsonl");
const dir = mkdtempSync(join(tmpdir(), "georeplay-page-crops-"));
const runOut = join(dir, "run.html");
const corruptOut = join(dir, "corrupted") + "/";
const boardDir = join(dir, "board");
const boardOut = join(dir, "board.html");
const ARM_B = "scripted-vlm-b";
let browser: Browser;

type Rec = Record<string, any>;
const records = (file: string): Rec[] =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
const sha256 = (b: Buffer) => createHash("sha256").update(b).digest("hex");

async function open(url: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 }, acceptDownloads: true });
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(url);
  await page.waitForSelector("html[data-ready='1']");
  expect(errors).toEqual([]);
  return page;
}

/** The list as shown: each row's cells' exact values by key. */
const listRows = (page: Page) =>
  page.$$eval("#gr-rows tr[data-id]", (trs) =>
    trs.map((tr) => Object.fromEntries(Array.from(tr.querySelectorAll("td")).map((td) => [td.dataset.key!, td.dataset.value ?? td.textContent]))),
  );

beforeAll(async () => {
  // Two crops arms: the sample run, and attempts 0-2 of it under another model name (verify checks views, not names).
  mkdirSync(join(boardDir, "a"), { recursive: true });
  mkdirSync(join(boardDir, "b"), { recursive: true });
  writeFileSync(join(boardDir, "a", "episodes.jsonl"), readFileSync(EVAL));
  const b = records(EVAL)
    .filter((r) => r.task.sample <= 2)
    .map((r) => JSON.stringify({ ...r, model_name: ARM_B }));
  writeFileSync(join(boardDir, "b", "episodes.jsonl"), b.join("\n") + "\n");
  const builds = [
    runCli(["page", EVAL, "--no-progress", "-o", runOut]),
    runCli(["page", CORRUPTED, "--dataset", SAMPLE, "--no-progress", "-o", corruptOut]),
    runCli(["page", boardDir, "--dataset", SAMPLE, "--baseline", "scripted-vlm", "--no-progress", "-o", boardOut]),
  ];
  expect(builds.map((r) => r.code)).toEqual([0, 1, 0]);
  browser = await launchChromium();
}, 600_000);

afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("georeplay page on a crops run", () => {
  it("lists every episode with the record's numbers, and their means are report --json's", async () => {
    const page = await open("file://" + runOut);
    const rows = await listRows(page);
    const recs = records(EVAL);
    expect(rows.map((r) => r.id)).toEqual(recs.map((r) => r.episode_id));
    rows.forEach((row, i) => {
      const o = recs[i].outcome;
      expect(Number(row.score)).toBe(o.score);
      expect(Number(row.recall)).toBe(o.parts.recall_term);
      expect(Number(row.precision)).toBe(o.parts.precision_factor);
      expect(Number(row.boxes)).toBe(o.parts.n_pred);
      expect(Number(row.misses)).toBe(o.parts.n_missed);
      expect(Number(row.falseAlarms)).toBe(o.parts.n_false_alarms);
      expect(Number(row.zooms)).toBe(o.n_zooms);
      expect(Number(row.tokens)).toBe(o.tokens_in + o.tokens_out);
      expect(row.flags).toBe("clean");
    });
    const report = JSON.parse(runCli(["report", EVAL, "--json"]).stdout);
    const arm = report.arms[0];
    const mean = (k: string) => rows.reduce((s, r) => s + Number(r[k]), 0) / rows.length;
    expect(mean("recall")).toBeCloseTo(arm.recall_term, 12);
    expect(mean("precision")).toBeCloseTo(arm.precision_factor, 12);
    expect(mean("boxes")).toBeCloseTo(arm.boxes_per_image, 12);
    expect(mean("misses")).toBeCloseTo(arm.misses_per_image, 12);
    expect(mean("falseAlarms")).toBeCloseTo(arm.false_alarms_per_image, 12);
    expect(mean("zooms")).toBeCloseTo(arm.zooms, 12);
    // The board above the list: the report's numbers at full precision.
    const cells = await page.$$eval("#gr-arms tr[data-arm] td[data-stat]", (tds) => Object.fromEntries(tds.map((td) => [td.dataset.stat!, td.dataset.value!])));
    for (const k of ["mean_of_k", "best_of_k", "recall_term", "precision_factor", "mean_credit", "misses_per_image", "false_alarms_per_image", "tok_out"])
      expect(Number(cells[k]), k).toBe(arm[k]);
    await page.close();
  });

  it("shows each episode's final boxes as the recorded matches, false alarms and misses, with an error type", async () => {
    const page = await open("file://" + runOut);
    const kinds = new Set<string>();
    for (const rec of records(EVAL)) {
      await page.evaluate((id) => (location.hash = id), rec.episode_id);
      await page.waitForSelector(`#gr-detail[data-episode="${rec.episode_id}"]`);
      const rows = await page.$$eval("#gr-boxes tbody tr", (trs) => trs.map((tr) => ({ ...tr.dataset })));
      const o = rec.outcome;
      const matched = rows.filter((r) => ["correct", "localisation", "classification"].includes(r.error!));
      expect(matched.map((r) => ({ pred: Number(r.box), gt: r.gt, giou: Number(r.giou), credit: Number(r.credit) }))).toEqual(
        o.matches.map((m: Rec) => ({ pred: m.pred, gt: m.gt, giou: m.giou, credit: m.credit })),
      );
      matched.forEach((r, i) => expect(r.error === "classification").toBe(!o.matches[i].label_ok));
      expect(rows.filter((r) => r.error === "duplicate" || r.error === "background").map((r) => Number(r.box))).toEqual(o.false_alarms);
      expect(rows.filter((r) => r.error === "missed").map((r) => r.gt)).toEqual(o.misses);
      for (const r of rows) kinds.add(r.error!);
      // Every turn's view: the re-rendered bytes, badged match.
      const badges = await page.$$eval(".crops-turn .badge[data-view]", (bs) => bs.map((b) => (b as HTMLElement).dataset.view));
      expect(badges).toEqual(rec.turns.map(() => "match"));
    }
    expect([...kinds].sort()).toEqual(expect.arrayContaining(["correct", "missed"]));
    await page.close();
  }, 120_000);

  it("toggles the image's boxes: ground truth, the final boxes, any turn's boxes and view", async () => {
    const page = await open("file://" + runOut + "#b86310395365");
    const rec = records(EVAL).find((r) => r.episode_id === "b86310395365")!;
    const count = () =>
      page.evaluate(() => ({
        gt: document.querySelectorAll("#gr-image rect.gt").length,
        pred: document.querySelectorAll("#gr-image rect.pred").length,
        view: document.querySelectorAll("#gr-image rect.view").length,
      }));
    const gt = readFileSync(join(SAMPLE, "gt.jsonl"), "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l))
      .find((g) => g.image_id === rec.task.image_id);
    const last = rec.turns[rec.turns.length - 1];
    expect(await count()).toEqual({ gt: gt.objects.length, pred: last.boxes.length, view: 0 });
    await page.uncheck("#t-gt");
    expect(await count()).toEqual({ gt: 0, pred: last.boxes.length, view: 0 });
    await page.selectOption("#t-turn", "2");
    expect(await count()).toEqual({ gt: 0, pred: rec.turns[2].boxes.length, view: 1 });
    await page.uncheck("#t-boxes");
    expect((await count()).pred).toBe(0);
    // Views are the exact bytes: the one-file page's data URLs hash to the recorded sha256.
    const srcs = await page.$$eval(".crops-turn img.view", (imgs) => imgs.map((i) => (i as HTMLImageElement).src));
    srcs.forEach((src, i) => expect(sha256(Buffer.from(src.split(",")[1], "base64"))).toBe(rec.turns[i].image_sha256));
    await page.close();
  });

  it("flags the altered views of eval-corrupted with both full hashes, and shows the re-rendered bytes (folder form)", async () => {
    const corrupted = JSON.parse(readFileSync(join(SAMPLE, "eval-corrupted", "corrupted.json"), "utf8")) as Rec[];
    const page = await open("file://" + join(corruptOut, "index.html"));
    expect(await page.textContent("#gr-drift")).toContain("2 of 183 recorded views drifted");
    const flags = Object.fromEntries((await listRows(page)).map((r) => [r.id, r.flags]));
    for (const c of corrupted) expect(flags[c.episode_id], c.episode_id).toBe(c.kind === "view_hash" ? "view" : "box_mapping");
    expect(Object.values(flags).filter((f) => f !== "clean")).toHaveLength(corrupted.length);
    for (const c of corrupted.filter((x) => x.kind === "view_hash")) {
      await page.evaluate((id) => (location.hash = id), c.episode_id);
      await page.waitForSelector(`#gr-detail[data-episode="${c.episode_id}"]`);
      const finding = await page.$eval("#gr-episode-drift .finding[data-kind=view]", (f) => ({
        turn: (f as HTMLElement).dataset.turn,
        hashes: Array.from(f.querySelectorAll("code.hash")).map((h) => h.textContent),
      }));
      expect(finding).toEqual({ turn: String(c.turn), hashes: [c.recorded, c.true] });
      const card = `#turn-${c.turn}`;
      expect(await page.$eval(`${card} .badge[data-view]`, (b) => b.textContent)).toBe("mismatch");
      // The page's file is the re-rendered view: named by, and hashing to, the true hash.
      const src = await page.$eval(`${card} img.view`, (i) => (i as HTMLImageElement).getAttribute("src")!);
      expect(src).toBe(`views/${c.true}.jpg`);
      expect(sha256(readFileSync(join(corruptOut, src)))).toBe(c.true);
      expect(await page.$eval(`${card} img.view`, (i) => (i as HTMLImageElement).naturalWidth)).toBeGreaterThan(300);
    }
    const mis = corrupted.find((x) => x.kind === "box_mapping")!;
    await page.evaluate((id) => (location.hash = id), mis.episode_id);
    await page.waitForSelector(`#gr-detail[data-episode="${mis.episode_id}"] #gr-episode-drift .finding[data-kind=box_mapping][data-turn="${mis.turn}"]`);
    await page.close();
  });

  it("filters by an expression over the crops fields, says a mistake where it is, and downloads the shown rows as CSV", async () => {
    const page = await open("file://" + runOut);
    const recs = records(EVAL);
    await page.fill("#f-expr", "misses >= 2 and precision == 1 and tokens > 6000");
    await page.press("#f-expr", "Enter");
    const want = recs.filter(
      (r) => r.outcome.parts.n_missed >= 2 && r.outcome.parts.precision_factor === 1 && r.outcome.tokens_in + r.outcome.tokens_out > 6000,
    );
    expect(want.length).toBeGreaterThan(0);
    expect(want.length).toBeLessThan(recs.length);
    expect((await listRows(page)).map((r) => r.id)).toEqual(want.map((r) => r.episode_id));
    expect(await page.getAttribute("#gr-count", "data-rows")).toBe(String(want.length));
    // The shown rows' means, under the filters.
    const meanOf = (f: (r: Rec) => number) => want.reduce((s, r) => s + f(r), 0) / want.length;
    expect(Number(await page.getAttribute("#gr-list-summary [data-stat=score]", "data-mean"))).toBe(meanOf((r) => r.outcome.score));
    expect(Number(await page.getAttribute("#gr-list-summary [data-stat=misses]", "data-mean"))).toBe(meanOf((r) => r.outcome.parts.n_missed));
    const [download] = await Promise.all([page.waitForEvent("download"), page.click("#f-csv")]);
    expect(download.suggestedFilename()).toBe("crops-misses-ge-2-and-precision-eq-1-and-tokens-gt-6000.csv");
    const lines = readFileSync((await download.path())!, "utf8")
      .trimEnd()
      .split("\r\n");
    const head = lines[0].split(",");
    expect(head).toEqual(
      expect.arrayContaining(["episode_id", "score", "recall_term", "precision_factor", "boxes", "misses", "false_alarms", "zooms", "tokens"]),
    );
    const csv = lines.slice(1).map((l) => Object.fromEntries(l.split(",").map((v, i) => [head[i], v])));
    expect(csv.map((r) => r.episode_id)).toEqual(want.map((r) => r.episode_id));
    csv.forEach((r, i) => {
      const o = want[i].outcome;
      expect([Number(r.score), Number(r.recall_term), Number(r.misses), Number(r.false_alarms), Number(r.tokens)]).toEqual([
        o.score,
        o.parts.recall_term,
        o.parts.n_missed,
        o.parts.n_false_alarms,
        o.tokens_in + o.tokens_out,
      ]);
    });
    // The state is in the address: a reload keeps the filter.
    const hash = await page.evaluate(() => location.hash);
    expect(new URLSearchParams(hash.slice(hash.indexOf("?") + 1)).get("expr")).toBe("misses >= 2 and precision == 1 and tokens > 6000");
    await page.reload();
    await page.waitForSelector("html[data-ready='1']");
    expect((await listRows(page)).length).toBe(want.length);
    // A mistake is said where it was typed.
    await page.fill("#f-expr", "misses >= two");
    await page.press("#f-expr", "Enter");
    expect(await page.textContent("#f-expr-error")).toContain("misses is a number");
    expect(await page.getAttribute("#f-expr-error", "data-at")).toBe("10");
    await page.fill("#f-expr", "false_alarms > 0");
    await page.press("#f-expr", "Enter");
    expect((await listRows(page)).map((r) => r.id)).toEqual(recs.filter((r) => r.outcome.parts.n_false_alarms > 0).map((r) => r.episode_id));
    await page.close();
  });

  it("a board of two crops arms shows the report's numbers, the paired delta, and compares attempts", async () => {
    const report = JSON.parse(runCli(["report", boardDir, "--baseline", "scripted-vlm", "--json"]).stdout);
    const page = await open("file://" + boardOut);
    const arms = await page.$$eval("#gr-arms tr[data-arm]", (trs) =>
      trs.map((tr) => ({
        arm: (tr as HTMLElement).dataset.arm,
        ...Object.fromEntries(Array.from(tr.querySelectorAll<HTMLElement>("td[data-stat]")).map((td) => [td.dataset.stat!, Number(td.dataset.value)])),
      })),
    );
    expect(arms.map((a) => a.arm)).toEqual(report.arms.map((a: Rec) => a.arm));
    expect(arms.map((a) => a.arm).sort()).toEqual(["scripted-vlm", ARM_B].sort());
    report.arms.forEach((a: Rec, i: number) => {
      for (const k of [
        "episodes",
        "tasks",
        "k",
        "mean_of_k",
        "best_of_k",
        "recall_term",
        "precision_factor",
        "mean_credit",
        "label_accuracy",
        "boxes_per_image",
        "misses_per_image",
        "false_alarms_per_image",
        "zooms",
        "turns",
        "tok_out",
      ])
        expect((arms[i] as Rec)[k], `${a.arm} ${k}`).toBe(a[k]);
    });
    const delta = await page.$eval(`#gr-paired tr[data-arm="${ARM_B}"] td[data-stat=delta]`, (td) => Number((td as HTMLElement).dataset.value));
    expect(delta).toBe(report.paired.comparisons.find((c: Rec) => c.arm === ARM_B).delta);
    // Compare by attempt: task eval/1, each arm's attempts side by side with their scores.
    await page.click('#gr-tasks a[href="#compare/eval%2F1"]');
    await page.waitForSelector("#gr-compare-grid");
    const grid = await page.$$eval("#gr-compare-grid a.attempt", (as) =>
      as.map((a) => ({
        id: (a as HTMLElement).dataset.id,
        score: Number((a as HTMLElement).dataset.score),
        arm: (a.closest("td") as HTMLElement).dataset.arm,
      })),
    );
    const want = [
      ...records(EVAL)
        .filter((r) => r.task.index === 1)
        .map((r) => ({ arm: "scripted-vlm", id: r.episode_id, score: r.outcome.score, sample: r.task.sample })),
      ...records(EVAL)
        .filter((r) => r.task.index === 1 && r.task.sample <= 2)
        .map((r) => ({ arm: ARM_B, id: r.episode_id, score: r.outcome.score, sample: r.task.sample })),
    ];
    expect(grid).toHaveLength(want.length);
    for (const w of want) expect(grid).toContainEqual({ id: w.id, score: w.score, arm: w.arm });
    // Arm B's records repeat arm A's episode ids: the second read gets its own address (`<id>~2`); each opens its own arm.
    const repeated = want.find((w) => w.arm === ARM_B)!.id;
    for (const arm of [ARM_B, "scripted-vlm"]) {
      const link = `#gr-compare-grid td[data-arm="${arm}"] a.attempt[data-id="${repeated}"]`;
      const key = decodeURIComponent((await page.getAttribute(link, "href"))!.slice(1));
      expect([repeated, `${repeated}~2`]).toContain(key);
      await page.click(link);
      await page.waitForSelector(`#gr-detail[data-episode="${key}"]`);
      expect(await page.textContent("#gr-detail h2")).toBe(`${repeated} · ${arm} · eval/1 attempt 0`);
      await page.goBack();
      await page.waitForSelector("#gr-compare-grid");
    }
    await page.close();
  });

  it("writes the same bytes for the same inputs", () => {
    const again = join(dir, "again.html");
    expect(runCli(["page", EVAL, "--no-progress", "-o", again]).code).toBe(0);
    expect(sha256(readFileSync(again))).toBe(sha256(readFileSync(runOut)));
  });
});
