/**
 * One meaning per word, in real Chromium and real frames (issue 39, item 2):
 * "reward" is geoeval's recomputed reward on the page (list, outcome, the
 * scored turn's badge, the per-model summary) and on the video's score card
 * (the same function, cardReward), the stored one is "env reward"; every
 * count equals `georeplay report --json`'s, with the errored episode (a
 * provider error: no turns) and the unscored duplicate listed, marked,
 * searchable and counted apart; "attempt", never "pass"; tool calls rounded
 * for people and wrapped only between arguments; the summary fits at 1280 px.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// Every environment's compositions, registered before a scene is built.
import "../../envs/compositions.ts";
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Browser } from "playwright-core";
import { launchChromium } from "../browser.ts";
import { MIXED, TRIESTE, runCli } from "../helpers.ts";
import { makeFourArmBoard } from "../board-fixture.ts";
import { triesteTimeline, textStrings, tx } from "../video-helpers.ts";
import type { Report } from "../../envs/geoguesser/replay/board/report-schema.ts";
import type { Timeline } from "../../envs/geoguesser/replay/timeline/timeline-schema.ts";
import { outcomeOf } from "../../envs/geoguesser/replay/frames/build-timeline.ts";
import { EpisodeSchema } from "../../envs/geoguesser/replay/schema/episode.ts";
import { cardReward, formatReward } from "../../envs/geoguesser/video/rollout/score-card.ts";
import { RolloutPropsSchema } from "../../envs/geoguesser/video/rollout/props.ts";
import { ComparePropsSchema } from "../../envs/geoguesser/video/compare/props.ts";
import { sceneAt, type VideoSpec } from "../../video/compositions.ts";

const dir = mkdtempSync(join(tmpdir(), "georeplay-words-"));
const boardOut = join(dir, "board.html");
const runOut = join(dir, "trieste.html");
const ERRORED = "err0r0000001";
let browser: Browser;
let report: Report;
let duplicate: string;
let trieste: Timeline;

beforeAll(async () => {
  const fixture = makeFourArmBoard(join(dir, "board"));
  duplicate = fixture.duplicate;
  // A provider error as the environment records it: no turns, no outcome (test/fixtures/boards, docs/trace-format.md).
  appendFileSync(
    join(fixture.dir, "ckpt-a", "pass-0", "shard-1", "episodes.jsonl"),
    JSON.stringify({
      schema_version: 2,
      episode_id: ERRORED,
      model_name: "ckpt-a",
      task: { split: "eval", index: 2, sample: 7 },
      config: { mode: "agentic" },
      error: "ProviderError: upstream 529 overloaded",
      traceback: "Traceback ...\nProviderError",
    }) + "\n",
  );
  const r = runCli(["report", fixture.dir, "--baseline", "base", "--json"]);
  expect(r.code, r.stderr).toBe(0);
  report = JSON.parse(r.stdout);
  const tasks = join(MIXED, "tasks.jsonl");
  const panos = join(MIXED, "panos");
  const p = runCli(["page", fixture.dir, "--tasks", tasks, "--panos", panos, "--baseline", "base", "--no-player", "-o", boardOut]);
  // Exit 1: the sweep fixture carries mixed's deliberately corrupted hashes (badged mismatch); the page is written.
  expect(p.code, p.stderr).toBe(1);
  expect(p.stderr).toContain(`episode ${ERRORED} errored in the environment`);
  const q = runCli([
    "page",
    join(TRIESTE, "episodes.jsonl"),
    "--tasks",
    join(TRIESTE, "tasks.jsonl"),
    "--panos",
    join(TRIESTE, "panos"),
    "--no-player",
    "-o",
    runOut,
  ]);
  expect(q.code, q.stderr).toBe(0);
  trieste = await triesteTimeline(join(dir, "public"));
  browser = await launchChromium();
}, 600_000);

afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function open(file: string, hash = "", width = 1366) {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(`file://${file}${hash}`);
  await page.waitForFunction(() => document.documentElement.dataset.ready === "1");
  return { page, errors, close: () => context.close() };
}

describe("counts equal report's", () => {
  it("the header, the per-model rows and the list count as `report --json` does, errored and unscored apart", async () => {
    const { page, errors, close } = await open(boardOut);
    expect(report.dropped_unscored).toBe(3); // base's duplicate, ckpt-b's unscored row, ckpt-a's errored episode
    expect(await page.textContent("#gr-episode-count")).toBe(`${report.episodes} episodes (+ 2 unscored, 1 errored: not counted)`);
    const rows = await page.$$eval("#gr-summary tbody tr", (trs) =>
      trs.map((tr) => ({
        model: (tr as HTMLElement).dataset.model!,
        v: Object.fromEntries([...tr.querySelectorAll("td[data-stat]")].map((td) => [(td as HTMLElement).dataset.stat, (td as HTMLElement).dataset.value])),
        t: Object.fromEntries([...tr.querySelectorAll("td[data-stat]")].map((td) => [(td as HTMLElement).dataset.stat, td.textContent])),
      })),
    );
    for (const a of report.arms) {
      const row = rows.find((r) => r.model === a.arm)!;
      expect(Number(row.v.episodes), a.arm).toBe(a.episodes);
      expect(Number(row.v.median_distance_km), a.arm).toBe(a.median_km);
      expect(Number(row.v.within_200km_pct), a.arm).toBe(a.within_200km_pct);
      expect(Number(row.v.within_750km_pct), a.arm).toBe(a.within_750km_pct);
      expect(row.t.within_750km_pct).toBe(`${a.within_750km_pct!.toFixed(1)}%`);
      expect(Number(row.v.tokens_out), a.arm).toBeCloseTo(a.tok_out!, 9);
      expect(Number(row.v.mean_turns), a.arm).toBeCloseTo(a.turns!, 9);
      const dropped = report.dropped_by_arm.find((d) => d.arm === a.arm)?.episodes ?? 0;
      expect(Number(row.v.not_counted), a.arm).toBe(dropped);
    }
    expect(rows.find((r) => r.model === "base")!.t.not_counted).toBe("1 unscored");
    expect(rows.find((r) => r.model === "ckpt-a")!.t.not_counted).toBe("1 errored");
    expect(Number(rows.find((r) => r.model === "all models")!.v.episodes)).toBe(report.episodes);
    // The list holds every row read; its count is the report's, the three left out apart in the same words.
    expect(await page.textContent("#gr-count")).toBe(`${report.episodes} episodes (+ 2 unscored, 1 errored: not counted)`);
    expect(errors).toEqual([]);
    await close();
  });

  it("lists the errored episode, marked and searchable by its id and its error; its detail says why it is not counted", async () => {
    const { page, errors, close } = await open(boardOut);
    for (const q of [ERRORED, "upstream 529"]) {
      await page.fill("#f-q", q);
      await page.waitForFunction((id) => [...document.querySelectorAll("#gr-rows tr[data-id]")].some((tr) => (tr as HTMLElement).dataset.id === id), ERRORED);
    }
    await page.fill("#f-q", ERRORED);
    await page.waitForFunction(() => document.querySelectorAll("#gr-rows tr[data-id]").length === 1);
    expect(await page.textContent("#gr-rows tr[data-id] td:last-child")).toBe("errored");
    await page.selectOption("#f-status", "errored");
    await page.click(`#gr-rows tr[data-id="${ERRORED}"]`);
    await page.waitForFunction(() => document.querySelector("#gr-detail")?.textContent?.includes("ProviderError"));
    const text = (await page.textContent("#gr-detail"))!;
    expect(text).toContain("not counted: errored");
    expect(text).toContain("errored in the environment, no turns: ProviderError: upstream 529 overloaded");
    // The duplicate too: in the list, marked as not counted.
    await page.selectOption("#f-status", "");
    await page.fill("#f-q", duplicate);
    await page.waitForFunction(() => document.querySelectorAll("#gr-rows tr[data-id]").length === 1);
    expect(await page.getAttribute("#gr-rows tr[data-id] td.uncounted", "title")).toContain("unscored (no env reward)");
    expect(errors).toEqual([]);
    await close();
  });
});

describe("reward is geoeval's on the page and on the video's score card", () => {
  const raw = () => EpisodeSchema.parse(JSON.parse(readFileSync(join(TRIESTE, "episodes.jsonl"), "utf8").split("\n")[0]));

  it("the page's reward (outcome, the scored turn's badge, list, summary) is the one the score card paints", async () => {
    const ep = raw();
    const want = formatReward(cardReward(outcomeOf(ep))!);
    expect(want).not.toBe(formatReward(ep.outcome!.reward!)); // the stored one is another number
    // The video: the rollout's score card, painted by the scene code the page's player also runs.
    const spec: VideoSpec = { composition: "Rollout", props: RolloutPropsSchema.parse({ ...trieste, output: { width: 1280, height: 720 } }) };
    const card = textStrings(sceneAt(spec, trieste.totalFrames - 1, tx()));
    expect(card).toContain(want);
    // The stored one is there too, named as such (issue 51: the card shows what the record holds).
    expect(card).toContain("ENV REWARD");
    expect(card).toContain(formatReward(ep.outcome!.reward!));
    // The page.
    const { page, errors, close } = await open(runOut, `#${ep.episode_id}`);
    await page.waitForSelector("section.outcome dl");
    const outcome = await page.$$eval("section.outcome dl dt", (dts) =>
      Object.fromEntries(dts.map((dt) => [dt.textContent, dt.nextElementSibling!.textContent])),
    );
    expect(outcome.reward).toBe(want);
    expect(outcome["env reward"]).toBe(ep.outcome!.reward!.toFixed(4));
    const badges = await page.$$eval("article.turn h3 .badge", (bs) => bs.map((b) => b.textContent));
    expect(badges).toContain(`reward ${want}`);
    expect(badges).toContain(`env reward ${ep.outcome!.reward!.toFixed(4)}`);
    expect(badges.filter((b) => /^reward /.test(b!))).toEqual([`reward ${want}`]);
    const rewardCol = await page.$$eval("table.episodes thead th", (ths) => ths.findIndex((th) => (th as HTMLElement).dataset.sort === "score"));
    expect(rewardCol).toBeGreaterThan(0);
    expect(Number(await page.textContent(`#gr-rows tr td:nth-child(${rewardCol + 1})`))).toBeCloseTo(Number(want), 3);
    expect(await page.textContent('#gr-summary td[data-stat="mean_reward"]')).toBe(want);
    expect(await page.textContent('#gr-summary td[data-stat="mean_env_reward"]')).toBe(ep.outcome!.reward!.toFixed(4));
    expect(errors).toEqual([]);
    await close();
  });
});

describe("words and numbers for people", () => {
  it('no page or video says "pass" for an attempt', async () => {
    const { page, close } = await open(boardOut, `#compare/1/base/ckpt-a`);
    await page.waitForFunction(() => (document.getElementById("gr-compare")?.textContent ?? "").includes("attempt"));
    // File paths (the fixture's folders are pass-0/…) are names, not words: left out.
    const words = (await page.evaluate(() => document.body.innerText)).replace(/pass@k/gi, "").replace(/\S*\/\S*/g, "");
    expect(words).not.toMatch(/\bpass(es)?\b/i);
    await close();
    const side = (pass: number) => ({ timeline: trieste, arm: "m", pass, label: `${pass ? "B" : "A"} · m attempt ${pass}` });
    const spec: VideoSpec = {
      composition: "Compare",
      props: ComparePropsSchema.parse({ version: 1, a: side(0), b: side(2), output: { width: 1280, height: 720 } }),
    };
    for (const f of [10, trieste.totalFrames + 60]) {
      const strings = textStrings(sceneAt(spec, f, tx())).join("\n");
      expect(strings).not.toMatch(/\bpass\b/i);
      expect(strings).toMatch(/attempt 2/);
    }
  });

  it("tool calls read rounded and break only between arguments; the summary fits at 1280 px", async () => {
    const { page, close } = await open(boardOut, "", 1280);
    const overflow = await page.$eval("#gr-summary", (t) => ({ table: t.scrollWidth, box: (t.parentElement as HTMLElement).clientWidth }));
    expect(overflow.table).toBeLessThanOrEqual(overflow.box);
    await page.evaluate(() => document.querySelector("#gr-rows tr[data-id]")?.dispatchEvent(new MouseEvent("click", { bubbles: true })));
    await page.waitForSelector("code.call");
    // Narrow the detail so calls must wrap: each argument stays on one line.
    await page.$$eval("code.call", (cs) => cs.forEach((c) => ((c as HTMLElement).style.maxWidth = "120px")));
    const pieces = await page.$$eval("code.call .arg", (as) => as.map((a) => ({ text: a.textContent!, lines: a.getClientRects().length })));
    expect(pieces.length).toBeGreaterThan(0);
    for (const p of pieces) {
      expect(p.lines, p.text).toBe(1);
      for (const m of p.text.matchAll(/_deg=(-?[\d.]+)/g)) expect(m[1]).toMatch(/^-?\d+(\.\d)?$/);
    }
    await close();
  });
});
