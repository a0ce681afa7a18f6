/**
 * The training page by group: the pure parts in Node (routes, ranking, the
 * filter fields, the chart's pointer mapping), then the real page in
 * Debian's Chromium (playwright-core, file://, no network) built from two
 * rank files of the training fixture: the dynamics charts (a point opens its
 * step), a step's groups, a group's siblings ranked by advantage with the
 * numbers of `georeplay groups --json` on the same files, and the siblings'
 * videos playing on one clock, from the one-file form (planned in Node) and
 * the folder form (planned in the browser from each detail's PlayRecord,
 * the timeline `georeplay frames` writes). Needs `npm run build` (the CLI,
 * for groups --json).
 */
import { describe, expect, it, beforeAll, afterAll } from "vitest";
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Browser, type Page } from "playwright-core";
import { launchChromium } from "../browser.ts";
import { FIXTURES, MIXED, runCli, sortedKeys as sorted } from "../helpers.ts";
import { buildPage } from "../../envs/geoguesser/src/page/build.ts";
import { parseAddress, formatRoute, type Route } from "../../envs/geoguesser/src/page/client/state/route.ts";
import { compileExpr } from "../../envs/geoguesser/src/page/client/state/expr.ts";
import { indexTraining, nearestStep, rankSiblings, withTrainFields, groupsPassing } from "../../envs/geoguesser/src/page/client/state/training.ts";
import { listRowOf, type ListRow } from "../../envs/geoguesser/src/page/list-row.ts";
import { TrainingGroups, type TrainingData } from "../../envs/geoguesser/src/page/training.ts";
import { CHART_NAMES } from "../../envs/geoguesser/src/page/training-parts.ts";
import { tileFrame } from "../../envs/geoguesser/src/page/player/tiles.ts";
import type { GroupsReport } from "../../replay/groups/groups-schema.ts";
import type { PageEpisode } from "../../envs/geoguesser/src/page/model.ts";
import { boardVideo } from "../../envs/geoguesser/src/page/player/board-episode.ts";
import { generateFrames } from "../../envs/geoguesser/replay/frames/frames.ts";
import type { Timeline } from "../../envs/geoguesser/replay/timeline/timeline-schema.ts";

const dir = mkdtempSync(join(tmpdir(), "georeplay-page-training-"));
const trainDir = join(dir, "train");
const pageFile = join(dir, "train.html");
const againFile = join(dir, "train-again.html");
const folderOut = join(dir, "train-folder") + "/";
const rankFiles = [join(trainDir, "rollouts-rank0.jsonl"), join(trainDir, "rollouts-rank1.jsonl")];
let browser: Browser;
let report: GroupsReport;

/**
 * Two rank files: the fixture, then three of its rollouts again (one with reward 0.1), so that
 * step 0's eval/2 and step 2's eval/0 have two equal siblings (zero spread) and step 1's eval/1
 * three different ones.
 */
function writeRanks(): void {
  mkdirSync(trainDir, { recursive: true });
  const lines = readFileSync(join(FIXTURES, "train-rollouts.jsonl"), "utf8")
    .split("\n")
    .filter((l) => l.trim());
  writeFileSync(rankFiles[0], lines.join("\n") + "\n");
  const changed = JSON.parse(lines[4]);
  changed.outcome.reward = 0.1;
  writeFileSync(rankFiles[1], [lines[0], JSON.stringify(changed), lines[8]].join("\n") + "\n");
}

beforeAll(async () => {
  writeRanks();
  const inputs = { episodes: rankFiles, tasks: join(MIXED, "tasks.jsonl"), panos: join(MIXED, "panos") };
  await buildPage({ ...inputs, out: pageFile });
  await buildPage({ ...inputs, out: againFile, jobs: 1 });
  await buildPage({ ...inputs, out: folderOut });
  const r = runCli(["groups", ...rankFiles, "--json"]);
  expect(r.code, r.stderr).toBe(0);
  report = JSON.parse(r.stdout) as GroupsReport;
  browser = await launchChromium({ webgl: true });
}, 600_000);

afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function open(file: string, hash = "") {
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  const page = await context.newPage();
  const log = { requests: [] as string[], errors: [] as string[], console: [] as string[] };
  page.on("request", (r) => log.requests.push(r.url()));
  page.on("pageerror", (e) => log.errors.push(e.message));
  page.on("console", (m) => m.type() === "error" && log.console.push(m.text()));
  await page.goto(`file://${file}${hash}`);
  await page.waitForFunction(() => document.documentElement.dataset.ready === "1");
  await page.waitForLoadState("load");
  return { page, log, close: () => context.close() };
}

const pageData = (html: string): TrainingData => JSON.parse(/<script type="application\/json" id="gr-training">(.*?)<\/script>/s.exec(html)![1]);
const stepGroups = (step: number) => report.groups.filter((g) => g.step === step);
/** The siblings of a group by advantage, highest first, ties in sibling order. */
const byAdvantage = (g: Pick<GroupsReport["groups"][number], "episode_ids" | "advantages" | "rewards">) =>
  g.episode_ids.map((id, i) => ({ id, i, adv: g.advantages[i], reward: g.rewards[i] })).sort((a, b) => b.adv - a.adv || a.i - b.i);

describe("training page state (pure)", () => {
  it("routes: #step/<n> and #group/<step>/<split>/<index> round-trip, with the run and group_id tails", () => {
    const routes: Route[] = [
      { kind: "step", step: 12 },
      { kind: "step", step: 0, run: "run a/b" },
      { kind: "group", step: 3, split: "eval", index: 7 },
      { kind: "group", step: 3, split: "my split", index: 0, id: "g=1/2", run: "r" },
    ];
    for (const r of routes) expect(parseAddress("#" + formatRoute(r))!.route).toEqual(r);
    expect(formatRoute({ kind: "group", step: 3, split: "eval", index: 7 })).toBe("group/3/eval/7");
    expect(parseAddress("#step/4?expr=zero_std")).toEqual({ route: { kind: "step", step: 4 }, query: { expr: "zero_std" } });
    // Episode ids still open episodes; a malformed tail names nothing.
    expect(parseAddress("#rollouts-rank0-L3/2")!.route).toEqual({ kind: "episode", id: "rollouts-rank0-L3", turn: 2 });
    expect(parseAddress("#step/4/colour=red")).toBeNull();
  });

  it("the page's table is groups --json's, without file paths; siblings rank by advantage; rows carry their group's numbers for the filter", () => {
    const html = readFileSync(pageFile, "utf8");
    const data = pageData(html);
    expect(data.steps.map(({ play: _, ...s }) => s)).toEqual(report.steps);
    expect(data.groups).toEqual(report.groups.map(({ rollouts: _, ...g }) => g));
    expect(data.summary).toEqual(report.summary);
    expect(JSON.stringify(data)).not.toContain(dir); // siblings by episode id: no local path in a page that gets shared
    const ix = indexTraining(data);
    const g = ix.byEpisode.get("rollouts-rank1-L2")!.group;
    expect([g.step, g.task.index, g.size]).toEqual([1, 1, 3]);
    expect(rankSiblings(g).map((s) => s.id)).toEqual(byAdvantage(g).map((s) => s.id));
    // Ties keep sibling order.
    const zero = ix.byEpisode.get("rollouts-rank0-L1")!.group;
    expect(zero.zero_std).toBe(true);
    expect(rankSiblings(zero).map((s) => s.id)).toEqual(zero.episode_ids);

    const base = (id: string, step: number): ListRow =>
      ({ id, arm: "m", split: "eval", task: 0, train: { run: "synthetic-grpo-run", step, advantage: null, zeroStd: null } }) as unknown as ListRow;
    const rows = withTrainFields([base("rollouts-rank1-L2", 1), base("rollouts-rank0-L1", 0), { ...base("x", 0), train: undefined }], ix);
    const pick = (e: string) => rows.filter(compileExpr(e)).map((r) => r.id);
    expect(pick("zero_std")).toEqual(["rollouts-rank0-L1"]);
    expect(pick("step >= 1 and step <= 2 and advantage < 0")).toEqual(["rollouts-rank1-L2"]);
    expect(pick("group_size == 3")).toEqual(["rollouts-rank1-L2"]);
    expect(rows[0].train!.advantage).toBe(g.advantages[g.episode_ids.indexOf("rollouts-rank1-L2")]);
    // A step's groups the list's filter leaves in: those with a sibling among its rows.
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(groupsPassing(ix.steps.get("synthetic-grpo-run\u00000")!.groups, byId, compileExpr("zero_std")).map((x) => x.task.index)).toEqual([2]);
  });

  it("the folder form keeps the steps in index.html (the charts' data) and the groups in data/groups-<k>.js, the same table", () => {
    const html = readFileSync(join(folderOut, "index.html"), "utf8");
    const data = pageData(html);
    expect(data.groups).toEqual([]);
    expect(data.steps.map(({ play: _, ...s }) => s)).toEqual(report.steps);
    expect(html).toContain('data-group-files="1"');
    const text = readFileSync(join(folderOut, "data", "groups-0.js"), "utf8");
    expect(text.startsWith('georeplayData("groups",0,')).toBe(true);
    const groups = JSON.parse(text.slice('georeplayData("groups",0,'.length, text.lastIndexOf(");"))) as unknown;
    expect(groups).toEqual(report.groups.map(({ rollouts: _, ...g }) => g));
  });

  it("the same rollouts give the same page, byte for byte (whatever order verification finishes in)", () => {
    expect(readFileSync(againFile).equals(readFileSync(pageFile))).toBe(true);
  });

  it("a chart's x maps to the nearest step; a tile past its end holds its last frame", () => {
    const plot = { left: 58, width: 928, x0: 0, x1: 10 };
    expect(nearestStep([0, 5, 10], 58, plot)).toBe(0);
    expect(nearestStep([0, 5, 10], 58 + 928 * 0.74, plot)).toBe(5);
    expect(nearestStep([0, 5, 10], 58 + 928 * 0.8, plot)).toBe(10);
    expect(nearestStep([], 100, plot)).toBeNull();
    expect([tileFrame(10, 100), tileFrame(150, 100), tileFrame(-1, 100)]).toEqual([10, 99, 0]);
  });

  it("TrainingGroups leaves a rollout without a reward out of every group and names it; a step's play sums its rollouts", () => {
    const t = new TrainingGroups();
    const r = { run: "r", step: 0, split: "s", index: 0, groupId: null, file: "a.jsonl", trajectory: null };
    const did = (turns: number, cost: number | null, km: number | null, guessed: boolean, tools: string[]) => ({ turns, cost, km, guessed, tools });
    t.add({ ...r, id: "a-L1", reward: 0.5, line: 1, ...did(4, 0.2, 100, true, ["look", "look", "submit_guess"]) });
    t.add({ ...r, id: "a-L2", reward: 0.7, line: 2, ...did(12, null, null, false, ["move", "look"]) });
    t.add({ ...r, id: "a-L3", reward: null, line: 3, ...did(1, 9, 9, true, ["look"]) });
    const d = t.data()!;
    expect(d.groups[0].episode_ids).toEqual(["a-L1", "a-L2"]);
    expect(d.unscored).toEqual(["a-L3"]);
    // Over the step's scored rollouts; cost and distance over those that recorded them.
    expect(d.steps[0].play).toEqual({ turns: 8, cost: 0.2, km: 100, never_guessed: 0.5, tools: { look: 3, move: 1, submit_guess: 1 } });
    expect(new TrainingGroups().data()).toBeNull();
  });
});

/** The step and group view's root, as the tests read it. */
const view = (page: Page) =>
  page.evaluate(() => {
    const v = document.getElementById("gr-train-view") as HTMLElement;
    return { hidden: v.hidden, view: v.dataset.view ?? null, step: v.dataset.step ?? null, group: v.dataset.group ?? null, hash: location.hash };
  });

describe("the training page in Chromium", () => {
  it("opened with no address, both forms stay at the top: the header and charts in view, the first rollout shown without moving the page", async () => {
    for (const file of [pageFile, join(folderOut, "index.html")]) {
      const { page, log, close } = await open(file);
      try {
        // The first rollout opens beside the list (its detail is rendered), but the page is not scrolled to it.
        await page.waitForFunction(() => Boolean((document.getElementById("gr-detail") as HTMLElement).dataset.episode));
        await page.waitForTimeout(300);
        expect(await page.evaluate(() => window.scrollY), file).toBe(0);
        const chart = await page.$eval('svg[data-chart="mean_reward"]', (c) => c.getBoundingClientRect().top);
        expect(chart).toBeGreaterThan(0);
        expect(chart).toBeLessThan(900);
        expect(log.errors).toEqual([]);
      } finally {
        await close();
      }
    }
  });

  it("full-width dynamics charts over every step with groups --json's numbers; hover shows a step's value; a point opens its step", async () => {
    const { page, log, close } = await open(pageFile);
    try {
      expect(await page.$$eval("#gr-training-section svg.chart", (s) => s.map((x) => (x as HTMLElement).dataset.chart))).toEqual([
        "mean_reward",
        "frac_reward_zero_std",
        "median_group_std",
        "mean_group_std",
        "multiplier",
        "turns",
        "cost",
        "km",
        "never_guessed",
        "tools",
      ]);
      // Readable at full width: each chart spans the section.
      const widths = await page.$$eval("#gr-training-section svg.chart", (s) => s.map((x) => x.getBoundingClientRect().width));
      for (const w of widths) expect(w).toBeGreaterThan(1200);
      const ys = (key: string) => page.$$eval(`svg[data-chart="${key}"] circle`, (cs) => cs.map((c) => Number(c.getAttribute("data-y"))));
      expect(await ys("mean_reward")).toEqual(report.steps.map((s) => s.mean_reward));
      expect(await ys("frac_reward_zero_std")).toEqual(report.steps.map((s) => s.frac_reward_zero_std));
      expect(await ys("median_group_std")).toEqual(report.steps.filter((s) => s.median_group_std !== null).map((s) => s.median_group_std));
      expect(await ys("multiplier")).toEqual(report.steps.filter((s) => s.multiplier !== null).map((s) => s.multiplier));
      // Hover: the nearest step's value, read out in the chart.
      const dot = page.locator('svg[data-chart="mean_reward"] circle[data-x="1"]');
      await dot.hover();
      await page.waitForFunction(() => (document.querySelector('svg[data-chart="mean_reward"]') as HTMLElement).dataset.hoverStep === "1");
      expect(await page.textContent('svg[data-chart="mean_reward"] .readout')).toBe(`step 1 · mean env reward ${report.steps[1].mean_reward.toFixed(4)}`);
      // A point opens its step.
      await dot.click();
      await page.waitForFunction(() => (document.getElementById("gr-train-view") as HTMLElement).dataset.view === "step");
      expect(await view(page)).toMatchObject({ hidden: false, view: "step", step: "1", hash: "#step/1" });
      expect(await page.evaluate(() => document.getElementById("gr-train-view")!.getBoundingClientRect().top)).toBeLessThan(900);
      // Anywhere else on a chart: the nearest step (the right end is the last one).
      await page.locator('svg[data-chart="multiplier"]').scrollIntoViewIfNeeded();
      const box = (await page.locator('svg[data-chart="multiplier"]').boundingBox())!;
      await page.mouse.click(box.x + box.width - 20, box.y + box.height / 2);
      await page.waitForFunction(() => location.hash === "#step/2");
      expect(await view(page)).toMatchObject({ view: "step", step: "2" });
      expect(log.errors).toEqual([]);
      expect(log.requests).toEqual([`file://${pageFile}`]);
    } finally {
      await close();
    }
  });

  it("the charts are what the trainer logged: reward_std beside the median, turns, cost, distance, never guessed, the tool-call mix; every chart `page --help` names", async () => {
    // --help lists every chart the page draws, by name, and nothing else.
    const help = runCli(["page", "--help"]);
    expect(help.code).toBe(0);
    const flat = help.stdout.replace(/\s+/g, " ");
    for (const name of Object.values(CHART_NAMES)) expect(flat, name).toContain(name);
    // In the page's order, all of them (--help writes them out: it loads no environment).
    expect(flat).toContain(`charts: ${Object.values(CHART_NAMES).join(", ")};`);
    expect(flat).not.toContain("in-group spread");
    const { page, log, close } = await open(pageFile);
    try {
      const keys = await page.$$eval("#gr-training-section svg.chart", (s) => s.map((x) => (x as HTMLElement).dataset.chart!));
      expect(keys.sort()).toEqual(Object.keys(CHART_NAMES).sort());
      const ys = (key: string) => page.$$eval(`svg[data-chart="${key}"] circle`, (cs) => cs.map((c) => Number(c.getAttribute("data-y"))));
      expect(await ys("mean_group_std")).toEqual(report.steps.filter((s) => s.mean_group_std !== null).map((s) => s.mean_group_std));
      // What each step's rollouts did, from the rank files themselves.
      const raw = rankFiles.flatMap((f) =>
        readFileSync(f, "utf8")
          .split("\n")
          .filter(Boolean)
          .map((l) => JSON.parse(l)),
      );
      const steps = [...new Set(raw.map((r) => r.step as number))].sort((a, b) => a - b);
      const meanOf = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
      const at = (step: number) => raw.filter((r) => r.step === step);
      expect(await ys("turns")).toEqual(steps.map((st) => meanOf(at(st).map((r) => r.outcome.turns_used))));
      expect(await ys("cost")).toEqual(steps.map((st) => meanOf(at(st).map((r) => r.outcome.action_cost))));
      expect(await ys("km")).toEqual(steps.map((st) => meanOf(at(st).map((r) => r.outcome.distance_km))));
      expect(await ys("never_guessed")).toEqual(steps.map((st) => at(st).filter((r) => r.outcome.guessed === false).length / at(st).length));
      // The tool-call mix: one series per tool (reset is the environment's, not a call); shares of a step's calls sum to 1.
      const calls = (st: number) => at(st).flatMap((r) => r.turns.map((t: { action: { op: string } }) => t.action.op).filter((op: string) => op !== "reset"));
      const lines = await page.$$eval('svg[data-chart="tools"] polyline', (ps) => ps.length);
      const toolNames = [...new Set(steps.flatMap(calls))];
      expect(lines).toBe(toolNames.length);
      const byStep = await page.$$eval('svg[data-chart="tools"] circle', (cs) =>
        cs.map((c) => [Number(c.getAttribute("data-x")), Number(c.getAttribute("data-y"))]),
      );
      for (const st of steps) expect(byStep.filter(([x]) => x === st).reduce((a, [, y]) => a + y, 0)).toBeCloseTo(1, 12);
      expect(await page.textContent(".legend.tools")).toContain("submit_guess");
      // Hover reads every tool's share at that step.
      await page.locator('svg[data-chart="tools"] circle[data-x="1"]').first().hover();
      await page.waitForFunction(() => (document.querySelector('svg[data-chart="tools"]') as HTMLElement).dataset.hoverStep === "1");
      const look = calls(1).filter((op: string) => op === "look").length / calls(1).length;
      expect(await page.textContent('svg[data-chart="tools"] .readout')).toContain(`look ${(Math.round(look * 1000) / 10).toFixed(1)}%`);
      expect(log.errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it("the list shows and the CSV carries step, group mean and std, advantage and zero spread; the filter's fields are named as the columns; reply ~ reads the words", async () => {
    const { page, log, close } = await open(pageFile);
    try {
      expect(await page.$$eval("table.episodes thead th", (ths) => ths.map((t) => t.textContent))).toEqual([
        "episode",
        "model",
        "attempt",
        "country",
        "verdict",
        "reward",
        "env reward",
        "km",
        "turns",
        "step",
        "group mean",
        "group std",
        "advantage",
        "zero spread",
        "status",
      ]);
      const ix = indexTraining(pageData(readFileSync(pageFile, "utf8")));
      const cells = (id: string) =>
        page.$eval(`#gr-rows tr[data-id="${id}"]`, (tr) =>
          Object.fromEntries([...tr.querySelectorAll("[data-stat]")].map((td) => [(td as HTMLElement).dataset.stat, (td as HTMLElement).dataset.value])),
        );
      for (const id of ["rollouts-rank1-L2", "rollouts-rank0-L1"]) {
        const { group: g, at } = ix.byEpisode.get(id)!;
        expect(await cells(id)).toEqual({
          step: String(g.step),
          group_mean: String(g.mean),
          group_std: String(g.std),
          advantage: String(g.advantages[at]),
          zero_spread: String(g.zero_std),
        });
      }
      // A zero-spread row is flagged, and so is its identical sibling.
      expect(await page.$eval('#gr-rows tr[data-id="rollouts-rank0-L1"] td.spread', (td) => td.textContent)).toBe("zero=");
      // Field names follow the columns and the dropdown: status (= flags), zero_spread (= zero_std); identical siblings.
      const shown = async (expr: string) => {
        await page.fill("#f-expr", expr);
        await page.waitForTimeout(50);
        expect(await page.isHidden("#f-expr-error"), expr).toBe(true);
        return (await page.$$eval("#gr-rows tr[data-id]", (trs) => trs.map((t) => (t as HTMLElement).dataset.id!))).sort();
      };
      expect(await shown('status == "clean"')).toEqual(await shown('flags == "clean"'));
      expect(await shown("zero_spread")).toEqual(await shown("zero_std"));
      expect(await shown("identical and zero_spread")).toEqual(["rollouts-rank0-L1", "rollouts-rank0-L9", "rollouts-rank1-L1", "rollouts-rank1-L3"]);
      // Line 5 again with another reward: the same game, scored otherwise.
      expect(await shown("identical and not zero_spread")).toEqual(["rollouts-rank0-L5", "rollouts-rank1-L2"]);
      // reply ~: the episode's words (a training trace has no replies: its feedback and actions).
      const words = rankFiles.flatMap((f) =>
        readFileSync(f, "utf8")
          .split("\n")
          .filter(Boolean)
          .map((l, i): [string, string] => [`${f.split("/").pop()!.replace(".jsonl", "")}-L${i + 1}`, l.toLowerCase()]),
      );
      expect(await shown('reply ~ "captured road ends"')).toEqual(
        words
          .filter(([, l]) => l.includes("captured road ends"))
          .map(([id]) => id)
          .sort(),
      );
      expect((await shown('reply ~ "captured road ends"')).length).toBeGreaterThan(0);
      // The CSV: the rows shown, with the group columns named as the fields.
      await page.fill("#f-expr", "step == 1");
      await page.waitForTimeout(50);
      const [download] = await Promise.all([page.waitForEvent("download"), page.click("#f-csv")]);
      const csv = readFileSync((await download.path())!, "utf8")
        .trim()
        .split("\r\n");
      const head = csv[0].split(",");
      expect(head.slice(-6)).toEqual(["step", "group_mean", "group_std", "advantage", "zero_spread", "identical"]);
      const row = csv.find((l) => l.startsWith("rollouts-rank1-L2,"))!.split(",");
      const { group: g, at } = ix.byEpisode.get("rollouts-rank1-L2")!;
      expect(row.slice(-6)).toEqual([String(g.step), String(g.mean), String(g.std), String(g.advantages[at]), "false", "true"]);
      expect(csv.length - 1).toBe(stepGroups(1).reduce((n, x) => n + x.size, 0));
      expect(log.errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it("identical siblings are flagged in the step and the group; siblings are numbered by rank with file:line; a guess recorded in submit_guess is shown", async () => {
    const { page, log, close } = await open(pageFile, "#step/0");
    try {
      await page.waitForSelector("#gr-train-view table.step-groups");
      expect(await page.$eval('#gr-train-view tr[data-index="2"] .identical', (b) => b.textContent)).toBe("2 identical");
      expect(await page.$$eval('#gr-train-view tr[data-index="3"] .identical', (b) => b.length)).toBe(0);
      await page.evaluate(() => (location.hash = "#group/0/eval/2"));
      await page.waitForSelector("#gr-train-view .grp-heads .grp-col");
      expect(await page.textContent("#gr-train-view .group-facts .identical")).toBe("identical siblings: #1 = #2");
      const cols = await page.$$eval("#gr-train-view .grp-heads .grp-col", (cs) =>
        cs.map((c) => ({
          rank: (c as HTMLElement).dataset.rank,
          identical: (c as HTMLElement).dataset.identical,
          source: c.querySelector(".sib-source")?.textContent,
        })),
      );
      expect(cols).toEqual([
        { rank: "1", identical: "2", source: expect.stringMatching(/rollouts-rank0\.jsonl:1$/) },
        { rank: "2", identical: "1", source: expect.stringMatching(/rollouts-rank1\.jsonl:1$/) },
      ]);
      // The rollout's guess is its submit_guess action's (training traces keep no guess in the outcome).
      const last = JSON.parse(readFileSync(rankFiles[0], "utf8").split("\n")[0]).turns.at(-1).action;
      expect(last.op).toBe("guess");
      await page.evaluate(() => (location.hash = "#rollouts-rank0-L1"));
      await page.waitForFunction(() => (document.getElementById("gr-detail") as HTMLElement).dataset.episode === "rollouts-rank0-L1");
      const guess = await page.$$eval("#gr-detail .outcome dt", (dts) => dts.find((d) => d.textContent === "guess")?.nextElementSibling?.textContent);
      expect(guess).toBe(`${last.lat.toFixed(4)}, ${last.lon.toFixed(4)}`);
      expect(log.errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it("a step shows its groups with their mean, std and advantages, zero-spread ones flagged; the filter expression narrows them", async () => {
    const { page, log, close } = await open(pageFile, "#step/0");
    try {
      expect(await view(page)).toMatchObject({ hidden: false, view: "step", step: "0" });
      const facts = await page.$$eval("#gr-train-view .step-facts [data-stat]", (xs) =>
        Object.fromEntries(xs.map((x) => [(x as HTMLElement).dataset.stat, (x as HTMLElement).dataset.value])),
      );
      const s0 = report.steps[0];
      expect(Number(facts.groups)).toBe(s0.groups);
      expect(Number(facts.episodes)).toBe(s0.episodes);
      expect(Number(facts.mean_reward)).toBe(s0.mean_reward);
      expect(Number(facts.frac_reward_zero_std)).toBe(s0.frac_reward_zero_std);
      expect(Number(facts.median_group_std)).toBe(s0.median_group_std);
      const rows = () =>
        page.$$eval("#gr-train-view table.step-groups tbody tr[data-split]", (trs) =>
          trs.map((tr) => ({
            task: `${(tr as HTMLElement).dataset.split}/${(tr as HTMLElement).dataset.index}`,
            zero: (tr as HTMLElement).dataset.zero === "true",
            flagged: tr.querySelector(".badge")?.textContent ?? null,
            mean: Number((tr.querySelector('[data-stat="mean"]') as HTMLElement).dataset.value),
            std: (tr.querySelector('[data-stat="std"]') as HTMLElement).dataset.value,
            links: [...tr.querySelectorAll("a.ep-link")].map((a) => (a as HTMLElement).dataset.id),
            href: tr.querySelector("a.group-link")!.getAttribute("href"),
          })),
        );
      const got = await rows();
      expect(got.map((r) => r.task)).toEqual(stepGroups(0).map((g) => `${g.task.split}/${g.task.index}`));
      got.forEach((r, i) => {
        const g = stepGroups(0)[i];
        expect(r.mean).toBe(g.mean);
        expect(r.std).toBe(g.std === null ? "" : String(g.std));
        expect(r.zero).toBe(g.zero_std);
        expect(r.flagged).toBe(g.zero_std ? "zero spread" : g.std === null ? "one rollout" : null);
        expect(r.links).toEqual(g.episode_ids);
        expect(r.href).toBe(`#group/0/${g.task.split}/${g.task.index}`);
      });
      expect(got.some((r) => r.zero)).toBe(true);
      // One filter for the list and the step: zero spread only.
      await page.fill("#f-expr", "zero_std");
      await page.waitForFunction(() => document.querySelectorAll("#gr-train-view table.step-groups tbody tr[data-split]").length === 1);
      expect((await rows()).map((r) => r.zero)).toEqual([true]);
      expect(await page.textContent("#gr-train-view .filter-note")).toContain(`1 of ${stepGroups(0).length} groups`);
      // n steps to the next step, the filter kept.
      await page.locator("#gr-train-view h2").click();
      await page.keyboard.press("n");
      await page.waitForFunction(() => (document.getElementById("gr-train-view") as HTMLElement).dataset.step === "1");
      expect(await page.evaluate(() => location.hash)).toBe("#step/1?expr=zero_std");
      expect(log.errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it("a group shows its siblings side by side ranked by advantage, with groups --json's advantages, rewards, mean and std, and each sibling's outcome and turns", async () => {
    const g = report.groups.find((x) => x.step === 1 && x.task.index === 1)!;
    expect(g.size).toBe(3);
    for (const [file, label] of [
      [pageFile, "one file"],
      [join(folderOut, "index.html"), "folder"],
    ] as const) {
      const { page, log, close } = await open(file, "#group/1/eval/1");
      try {
        await page.waitForSelector("#gr-train-view .grp-heads .grp-col");
        expect(await view(page), label).toMatchObject({ hidden: false, view: "group", step: "1", group: "eval/1" });
        const cols = await page.$$eval("#gr-train-view .grp-heads .grp-col", (cs) =>
          cs.map((c) => ({
            id: (c as HTMLElement).dataset.episode,
            rank: Number((c as HTMLElement).dataset.rank),
            advantage: Number((c as HTMLElement).dataset.advantage),
            reward: Number((c as HTMLElement).dataset.reward),
            outcome: c.querySelectorAll(".outcome").length,
          })),
        );
        const want = byAdvantage(g);
        expect(cols.map((c) => c.id)).toEqual(want.map((s) => s.id));
        expect(cols.map((c) => c.rank)).toEqual([1, 2, 3]);
        expect(cols.map((c) => c.advantage)).toEqual(want.map((s) => s.adv));
        expect(cols.map((c) => c.reward)).toEqual(want.map((s) => s.reward));
        expect(cols.every((c) => c.outcome === 1)).toBe(true);
        const stat = (k: string) => page.$eval(`#gr-train-view .group-facts [data-stat="${k}"]`, (x) => (x as HTMLElement).dataset.value);
        expect(Number(await stat("mean"))).toBe(g.mean);
        expect(Number(await stat("std"))).toBe(g.std);
        // Turn by turn, one row per turn index, one card per sibling that has that turn.
        const raw = rankFiles.flatMap((f) =>
          readFileSync(f, "utf8")
            .split("\n")
            .filter(Boolean)
            .map((l, i): [string, number] => [`${f.split("/").pop()!.replace(".jsonl", "")}-L${i + 1}`, JSON.parse(l).turns.length]),
        );
        const turns = new Map<string, number>(raw);
        const rowCells = await page.$$eval("#gr-train-view .grp-turn", (rows) => rows.map((r) => r.querySelectorAll(".turn").length));
        expect(rowCells.length).toBe(Math.max(...want.map((s) => turns.get(s.id)!)));
        expect(rowCells.reduce((a, b) => a + b, 0)).toBe(want.reduce((a, s) => a + turns.get(s.id)!, 0));
        expect(log.errors, label).toEqual([]);
      } finally {
        await close();
      }
    }
    // A zero-spread group says so.
    const { page, close } = await open(pageFile, "#group/0/eval/2");
    try {
      await page.waitForSelector("#gr-train-view .group-facts");
      expect(await page.textContent("#gr-train-view .group-facts")).toContain("zero spread");
    } finally {
      await close();
    }
  });

  it("the folder form's maps carry only their frames; land and borders come from the page's cells, the one-file page's paths", async () => {
    const html = readFileSync(join(folderOut, "index.html"), "utf8");
    expect(html).toContain('id="gr-map-cells"');
    expect(readFileSync(join(folderOut, "data", "episodes-0.js"), "utf8")).not.toContain("landPath");
    const land = async (file: string) => {
      const { page, log, close } = await open(file, "#rollouts-rank0-L9");
      try {
        // Its guess turn's map (turn 10): drawn when it scrolls into view.
        const turn = '[id="t-rollouts-rank0-L9-10"]';
        await page.waitForSelector(turn, { timeout: 30_000 });
        await page.$eval(turn, (t) => t.scrollIntoView());
        const d = await (await page.waitForSelector(`${turn} svg.map > path`, { timeout: 30_000 })).getAttribute("d");
        expect(log.errors).toEqual([]);
        return d;
      } finally {
        await close();
      }
    };
    const own = await land(pageFile);
    expect(own!.length).toBeGreaterThan(100);
    expect(await land(join(folderOut, "index.html"))).toBe(own);
  });

  /** A group's tiles from a page: one clock drives every tile, a shorter video holds its last frame. */
  async function siblingsInStep(file: string, viewFiles = false): Promise<{ requests: string[]; note: string }> {
    const { page, log, close } = await open(file, "#group/1/eval/1");
    try {
      await page.click("#gr-train-view .tiles-slot button.start");
      await page.waitForSelector("#gr-train-view .tiles-player[data-ready]", { timeout: 120_000 });
      expect(await page.locator("#gr-train-view .tiles .tile canvas").count()).toBe(3);
      // Tiles in rank order, labelled with their advantage.
      const g = report.groups.find((x) => x.step === 1 && x.task.index === 1)!;
      expect(await page.$$eval("#gr-train-view .tiles .tile", (ts) => ts.map((t) => (t as HTMLElement).dataset.episode))).toEqual(
        byAdvantage(g).map((s) => s.id),
      );
      const state = () =>
        page.evaluate(() => {
          const p = document.querySelector("#gr-train-view .tiles-player") as HTMLElement;
          return {
            frame: Number(p.dataset.frame),
            totals: p.dataset.totals!.split(" ").map(Number),
            tiles: [...p.querySelectorAll(".tile canvas")].map((c) => Number((c as HTMLElement).dataset.frame)),
            playing: p.dataset.playing === "1",
          };
        });
      const inStep = (s: Awaited<ReturnType<typeof state>>) => s.tiles.every((f, i) => f === Math.min(s.frame, s.totals[i] - 1));
      expect(inStep(await state())).toBe(true);
      // Playing from the one press: the clock moves and every tile shows its frame.
      await page.waitForFunction(() => Number((document.querySelector("#gr-train-view .tiles-player") as HTMLElement).dataset.frame) > 15, null, {
        timeout: 60_000,
      });
      await page.click("#gr-train-view .tiles-player button.play"); // pause
      const played = await state();
      expect(played.playing).toBe(false);
      expect(inStep(played)).toBe(true);
      // Past the shortest video's end: it holds its last frame (its score card), the others go on.
      const s = await state();
      const shortest = Math.min(...s.totals);
      const longest = Math.max(...s.totals);
      const target = shortest < longest ? shortest + Math.floor((longest - shortest) / 2) : shortest - 1;
      await page.$eval(
        "#gr-train-view .tiles-player .scrub input",
        (r, f) => {
          (r as HTMLInputElement).value = String(f);
          r.dispatchEvent(new Event("input"));
        },
        target,
      );
      const after = await state();
      expect(after.frame).toBe(target);
      expect(inStep(after)).toBe(true);
      // Painted: a tile's canvas is not blank. The folder form's are painted from its view files, which over
      // file:// no page may read back (the canvas is "tainted"): that it is says a view file was drawn.
      const lit = await page.$eval("#gr-train-view .tiles .tile canvas", (c) => {
        const cv = c as HTMLCanvasElement;
        let px: Uint8ClampedArray;
        try {
          px = cv.getContext("2d")!.getImageData(0, 0, cv.width, cv.height).data;
        } catch {
          return "tainted";
        }
        let n = 0;
        for (let i = 0; i < px.length; i += 4 * 97) if (px[i] + px[i + 1] + px[i + 2] > 30) n++;
        return n;
      });
      if (viewFiles) expect(lit).toBe("tainted");
      else expect(lit).toBeGreaterThan(100);
      const note = (await page.textContent("#gr-train-view .tiles-player .note")) ?? "";
      // Leaving the group stops the tiles.
      await page.keyboard.press("Escape");
      await page.waitForFunction(() => !document.querySelector(".tiles-player"));
      expect(log.errors).toEqual([]);
      return { requests: log.requests, note };
    } finally {
      await close();
    }
  }

  it("a group of six plays in legible tiles (at least 480 px wide at 1280), fills the screen in theatre (f), and ends on the group video's ranked score card", async () => {
    // Six rollouts of step 0's eval/3 (line 2, rewarded differently): one group, more tiles than two columns of four fit.
    const six = join(dir, "six");
    mkdirSync(six, { recursive: true });
    const line2 = JSON.parse(readFileSync(join(FIXTURES, "train-rollouts.jsonl"), "utf8").split("\n")[1]);
    const rewards = [0.61, 0.72, 0.55, 0.9, 0.3, 0.64];
    writeFileSync(
      join(six, "rollouts-rank0.jsonl"),
      rewards.map((reward) => JSON.stringify({ ...line2, outcome: { ...line2.outcome, reward } })).join("\n") + "\n",
    );
    const sixPage = join(dir, "six.html");
    await buildPage({ episodes: [join(six, "rollouts-rank0.jsonl")], tasks: join(MIXED, "tasks.jsonl"), panos: join(MIXED, "panos"), out: sixPage });
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    try {
      await page.goto(`file://${sixPage}#group/0/eval/3`);
      await page.waitForFunction(() => document.documentElement.dataset.ready === "1");
      await page.click("#gr-train-view .tiles-slot button.start");
      await page.waitForSelector("#gr-train-view .tiles-player[data-ready]", { timeout: 120_000 });
      const tiles = () =>
        page.$$eval("#gr-train-view .tiles .tile canvas", (cs) =>
          cs.map((c) => c.getBoundingClientRect()).map((r) => ({ w: r.width, h: r.height, bottom: r.bottom })),
        );
      const inPage = await tiles();
      expect(inPage).toHaveLength(6);
      for (const t of inPage) expect(t.w).toBeGreaterThanOrEqual(480);
      const backing = () => page.$eval("#gr-train-view .tiles .tile canvas", (c) => (c as HTMLCanvasElement).width);
      expect(await backing()).toBeGreaterThanOrEqual(Math.floor(inPage[0].w));
      // Tiles in rank order: the best reward first.
      const labels = await page.$$eval("#gr-train-view .tiles figcaption", (fs) => fs.map((f) => f.textContent!));
      expect(labels[0]).toMatch(/^#1 · advantage \+\S+ · env reward 0\.900$/);
      // Theatre: every tile on the screen at once, larger than the page's 4-across 295 px, Escape leaves.
      await page.focus("#gr-train-view .tiles-player");
      await page.keyboard.press("f");
      await page.waitForFunction(() => document.querySelector("#gr-train-view .tiles-player")!.classList.contains("theatre"));
      const inTheatre = await tiles();
      for (const t of inTheatre) {
        expect(t.w).toBeGreaterThan(400);
        expect(t.bottom).toBeLessThanOrEqual(800);
      }
      // Sharp: the backing store follows the shown size (device pixels), in the page and in theatre.
      expect(await backing()).toBeGreaterThanOrEqual(Math.floor(inTheatre[0].w));
      await page.keyboard.press("Escape");
      await page.waitForFunction(() => !document.querySelector("#gr-train-view .tiles-player")!.classList.contains("theatre"));
      expect((await tiles())[0].w).toBeCloseTo(inPage[0].w, 0);
      // The clock runs past the longest tile into the score card, painted by the group video's scene.
      const st = await page.$eval("#gr-train-view .tiles-player", (p) => ({
        totals: (p as HTMLElement).dataset.totals!.split(" ").map(Number),
        score: Number((p as HTMLElement).dataset.scoreFrames),
        max: Number((p.querySelector(".scrub input") as HTMLInputElement).max),
      }));
      expect(st.score).toBeGreaterThan(30);
      expect(st.max).toBe(Math.max(...st.totals) + st.score - 1);
      await page.$eval("#gr-train-view .tiles-player .scrub input", (r) => {
        (r as HTMLInputElement).value = (r as HTMLInputElement).max;
        r.dispatchEvent(new Event("input"));
      });
      const card = await page.$eval("#gr-train-view .tiles-player", (p) => {
        const c = p.querySelector("canvas.score-card") as HTMLCanvasElement;
        const px = c.getContext("2d")!.getImageData(0, 0, c.width, c.height).data;
        let lit = 0;
        for (let i = 0; i < px.length; i += 4 * 97) if (px[i] + px[i + 1] + px[i + 2] > 120) lit++;
        return {
          score: (p as HTMLElement).dataset.score,
          grid: (p.querySelector(".tiles") as HTMLElement).hidden,
          shown: c.getBoundingClientRect().width,
          lit,
        };
      });
      expect(card.score).toBe("1");
      expect(card.grid).toBe(true);
      expect(card.shown).toBeGreaterThan(600);
      expect(card.lit).toBeGreaterThan(200);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 300_000);

  it("the siblings play in step: one clock drives every tile; a shorter video holds its last frame", async () => {
    const { requests, note } = await siblingsInStep(pageFile);
    expect(requests).toEqual([`file://${pageFile}`]);
    expect(note).not.toContain("planned in this page");
  }, 180_000);

  it("the folder form's siblings play in step too, each planned in the browser from its detail's PlayRecord", async () => {
    const html = readFileSync(join(folderOut, "index.html"), "utf8");
    // No video is planned in Node: the player's table holds fonts, places and inputs; the panoramas are the page's gr-panos.
    expect(html).toContain('<script type="application/json" id="gr-panos">');
    expect(html).not.toContain('id="gr-player-ids"');
    expect(html).not.toContain('id="gr-player-panos"');
    expect(JSON.parse(/<script type="application\/json" id="gr-player">(.*?)<\/script>/s.exec(html)![1])).toMatchObject({ kind: "board", episodes: {} });
    const { requests, note } = await siblingsInStep(join(folderOut, "index.html"), true);
    expect(note).toContain("planned in this page");
    expect(requests.some((u) => /\/data\/episodes-\d+\.js$/.test(u))).toBe(true);
    expect(requests.filter((u) => !u.startsWith(`file://${folderOut}`))).toEqual([]);
  }, 180_000);

  it("an episode of the folder form plays from its detail, with the timeline `georeplay frames` writes for it", async () => {
    // Every detail as its batch stores it: what the page's client hands the player.
    const details = new Map<string, PageEpisode>();
    for (const f of readdirSync(join(folderOut, "data")).filter((n) => /^episodes-\d+\.js$/.test(n))) {
      const text = readFileSync(join(folderOut, "data", f), "utf8");
      const json = text.slice(text.indexOf("[", text.indexOf(",") + 1), text.lastIndexOf(")"));
      for (const e of JSON.parse(json) as PageEpisode[]) details.set(e.id, e);
    }
    expect(details.size).toBe(rankFiles.reduce((n, f) => n + readFileSync(f, "utf8").split("\n").filter(Boolean).length, 0));
    for (const e of details.values()) expect(e.play, e.id).toBeDefined();
    const id = "rollouts-rank0-L9";
    const e = details.get(id)!;
    // The browser's plan (the pure function it calls, with the batch's episode) is frames's timeline.json.
    const planned = boardVideo(e, e.play!);
    const frames = await generateFrames({
      episodes: [rankFiles[0]],
      tasks: join(MIXED, "tasks.jsonl"),
      panos: join(MIXED, "panos"),
      episode: id,
      publicDir: join(dir, "public"),
      fps: 30,
      jobs: 1,
    });
    const want = JSON.parse(readFileSync(frames.timelinePath, "utf8")) as Timeline;
    expect(sorted(JSON.parse(JSON.stringify(planned.timeline)))).toEqual(sorted(want));
    // Every keyframe is the exact view file of its turn (views/<sha>.jpg).
    const html = readFileSync(join(folderOut, "index.html"), "utf8");
    const images = JSON.parse(/<script type="application\/json" id="gr-images">(.*?)<\/script>/s.exec(html)![1]) as string[];
    const keyframes = want.segments.flatMap((s) => (s.keyframe ? [Number(s.keyframe.file.slice(0, 6))] : []));
    expect(keyframes.length).toBeGreaterThan(0);
    for (const k of keyframes) expect(images[planned.files[k][0]]).toMatch(/^views\/[0-9a-f]{64}\.jpg$/);

    // In the page: its play button plays that video (its length, a mark per turn), planned and laid out by the browser.
    const { page, log, close } = await open(join(folderOut, "index.html"), `#${id}`);
    try {
      await page.click("#gr-detail .player-slot button.start");
      await page.waitForSelector("#gr-detail .player[data-ready]", { timeout: 60_000 });
      const shown = await page.$eval("#gr-detail .player", (p) => ({
        max: Number((p.querySelector("input[type=range]") as HTMLInputElement).max),
        marks: p.querySelectorAll(".mark").length,
        note: p.querySelector(".note")!.textContent!,
      }));
      expect(shown.max).toBe(want.totalFrames - 1);
      expect(shown.marks).toBe(want.trace.length);
      expect(shown.note).toContain("Planned and painted in this page");
      expect(shown.note).toContain("laid out by this browser");
      // Playing from the one press.
      await page.waitForFunction(() => Number((document.querySelector("#gr-detail .player") as HTMLElement).dataset.frame) > 10, null, { timeout: 60_000 });
      await page.click("#gr-detail .player button.play");
      expect(log.requests.some((u) => u.includes("/views/"))).toBe(true);
      expect(log.requests.filter((u) => !u.startsWith(`file://${folderOut}`))).toEqual([]);
      expect(log.errors).toEqual([]);
    } finally {
      await close();
    }
  }, 300_000);

  it("the filter expression picks a step's rollouts; an open rollout links to its group", async () => {
    const { page, log, close } = await open(pageFile, "#?expr=step%20%3D%3D%202");
    try {
      const ids = await page.$$eval("#gr-rows tr[data-id]", (trs) => trs.map((t) => (t as HTMLElement).dataset.id));
      expect(ids.sort()).toEqual(
        stepGroups(2)
          .flatMap((g) => g.episode_ids)
          .sort(),
      );
      // An open rollout names its group, advantage and rank, one click from the siblings.
      await page.click('#gr-rows tr[data-id="rollouts-rank0-L9"]');
      await page.waitForFunction(() => (document.getElementById("gr-detail") as HTMLElement).dataset.episode === "rollouts-rank0-L9");
      expect(await page.getAttribute("#gr-detail .group-line a", "href")).toBe("#group/2/eval/0");
      expect(await page.textContent("#gr-detail .group-line")).toContain("rank 1 of 2");
      await page.click("#gr-detail .group-line a");
      await page.waitForFunction(() => (document.getElementById("gr-train-view") as HTMLElement).dataset.group === "eval/0");
      expect(log.errors).toEqual([]);
    } finally {
      await close();
    }
  });
});

// listRowOf gives training rows their run and step before the groups join (the folder form's rows too).
it("listRowOf carries a training rollout's run and step", () => {
  const row = listRowOf({ id: "x", model: "m", split: "s", index: 0, flags: [], train: { run: "r", step: 4, guessed: true } } as never);
  expect(row.train).toEqual({ run: "r", step: 4, advantage: null, zeroStd: null, groupMean: null, groupStd: null, groupSize: null });
});

describe("a training page's list fits its panel", () => {
  // A training list has the most columns (step, group mean and std, advantage, zero spread) and a
  // mismatch badge in its last one: it shows whole at a laptop's width as at 1920 px.
  it.each([1280, 1440, 1920])("at a %i px window the status column, its mismatch badge too, is not cut", async (width) => {
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    try {
      const page = await context.newPage();
      await page.goto(`file://${pageFile}`);
      await page.waitForFunction(() => document.documentElement.dataset.ready === "1");
      const m = await page.evaluate(() => {
        const aside = document.querySelector("aside.list") as HTMLElement;
        const heads = [...aside.querySelectorAll("table.episodes thead th")].filter((th) => getComputedStyle(th).display !== "none");
        const badges = [...aside.querySelectorAll("table.episodes tbody .badge")];
        return {
          last: heads.at(-1)?.textContent,
          mismatches: badges.filter((b) => /mismatch/.test(b.textContent ?? "")).length,
          badgeRight: Math.max(...badges.map((b) => b.getBoundingClientRect().right)),
          panelRight: aside.getBoundingClientRect().left + aside.clientWidth,
          overflow: aside.scrollWidth - aside.clientWidth,
          detail: (document.querySelector("#gr-detail") as HTMLElement).getBoundingClientRect().width,
        };
      });
      expect(m.last).toBe("status");
      expect(m.mismatches).toBeGreaterThan(0);
      expect(m.overflow).toBeLessThanOrEqual(0);
      expect(m.badgeRight).toBeLessThanOrEqual(m.panelRight + 0.5);
      // The episode's pane keeps room for its turns.
      expect(m.detail).toBeGreaterThan(480);
    } finally {
      await context.close();
    }
  });
});
