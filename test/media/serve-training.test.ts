/**
 * A served training page follows its run: the server keeps the groups
 * (seeded with the built page's rollouts) and after each batch sends the
 * steps it touched; the page merges them, redraws its charts and facts, and
 * an open step or group view is drawn again in place. First the merge in
 * Node (the server's events merged into the built table give the table of
 * the whole run), then a real `serve` process and Chromium, checked against
 * `georeplay groups --json` over the full file. Needs `npm run build`.
 */
import { describe, expect, it, beforeAll, afterAll } from "vitest";
import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { FIXTURES, runCli } from "../helpers.ts";
import { startServe, until, type Served, stopServe, launchChromium } from "../serve-helpers.ts";
import { TrainingGroups, type TrainingRollout } from "../../envs/geoguesser/src/page/training.ts";
import { LiveTraining } from "../../envs/geoguesser/src/serve/live-training.ts";
import { mergeTraining } from "../../envs/geoguesser/src/page/client/state/training.ts";
import { computeGroups, GroupCollector } from "../../replay/groups/groups.ts";
import type { GroupsReport } from "../../replay/groups/groups-schema.ts";

const LINES = readFileSync(join(FIXTURES, "train-rollouts.jsonl"), "utf8")
  .split("\n")
  .filter((l) => l.trim());

/** Fixture line n (1-based), its reward changed where given. */
const line = (n: number, reward?: number): string => {
  const r = JSON.parse(LINES[n - 1]);
  if (reward !== undefined) r.outcome.reward = reward;
  return JSON.stringify(r) + "\n";
};

describe("the server's training updates (pure)", () => {
  const rollout = (i: number, step: number, index: number, reward: number | null, file = "rollouts-rank0.jsonl"): TrainingRollout => ({
    id: `${file.replace(".jsonl", "")}-L${i}`,
    run: "r",
    step,
    split: "eval",
    index,
    groupId: null,
    reward,
    file,
    line: i,
    turns: 3,
    cost: 0.1,
    km: 100,
    guessed: true,
    tools: ["look", "guess"],
    trajectory: null,
  });
  // Three steps, siblings across two files (rank2 sorts before rank10), one rollout without a reward.
  const all = [
    rollout(1, 0, 1, 0.5),
    rollout(2, 0, 1, 0.5),
    rollout(3, 0, 2, 0.9),
    rollout(1, 0, 2, 0.1, "rollouts-rank10.jsonl"),
    rollout(4, 1, 1, 0.3),
    rollout(2, 1, 1, 0.8, "rollouts-rank10.jsonl"),
    rollout(5, 1, 3, null),
    rollout(3, 0, 1, 0.2, "rollouts-rank10.jsonl"),
    rollout(6, 2, 0, 0.7),
    rollout(1, 2, 0, 0.7, "rollouts-rank2.jsonl"),
    rollout(7, 1, 1, 0.4),
  ];

  it("the built table plus each batch's event is the table of the whole run", () => {
    const full = new TrainingGroups();
    for (const r of all) full.add(r);
    for (const seed of [1, 3, 5]) {
      const groups = new TrainingGroups();
      for (const r of all.slice(0, seed)) groups.add(r);
      let table = groups.data()!;
      const live = new LiveTraining(groups);
      for (const batch of [all.slice(seed, seed + 2), all.slice(seed + 2, seed + 5), all.slice(seed + 5)]) {
        for (const r of batch) live.add(r);
        const e = live.take();
        if (e) {
          // Small: only the touched steps and their groups.
          expect(new Set(e.groups.map((g) => g.step))).toEqual(new Set(batch.filter((r) => r.reward !== null).map((r) => r.step)));
          table = mergeTraining(table, e);
        }
      }
      expect(live.take()).toBeNull();
      expect(table).toEqual(full.data());
    }
  });

  it("a step recomputed alone has report()'s numbers under every scale_rewards (batch: an advantage depends on the whole step)", () => {
    const c = new GroupCollector();
    for (const r of all) if (r.reward !== null) c.add({ ...r, reward: r.reward });
    for (const mode of ["group", "batch", "none"] as const) {
      const report = c.report(mode);
      for (const s of report.steps) expect(c.step(s.run, s.step, mode)).toEqual({ step: s, groups: report.groups.filter((g) => g.step === s.step) });
      expect(c.summary()).toEqual(report.summary);
    }
    // The summary after more rollouts recomputes the steps added to.
    c.add({ ...all[0], line: 99, reward: 0.1 });
    expect(c.summary()).toEqual(c.report().summary);
    expect(c.report()).toEqual(computeGroups([...all.filter((r) => r.reward !== null), { ...all[0], line: 99, reward: 0.1 }] as never));
  });
});

const dir = join(tmpdir(), `georeplay-serve-training-${process.pid}`);
const file = join(dir, "train", "rollouts-rank0.jsonl");
let browser: Browser;
let served: Served;

beforeAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, "train"), { recursive: true });
  // Steps 0 and 1 (step 1: one group, eval/1, of two siblings).
  writeFileSync(file, [1, 2, 3, 4, 5, 6].map((n) => line(n)).join(""));
  browser = await launchChromium();
  served = await startServe(dir, [file], [], "train-live");
}, 180_000);

afterAll(() => stopServe(browser, served, dir));

async function open(hash: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(served.url + hash);
  await page.waitForFunction(() => document.documentElement.dataset.ready === "1");
  await page.waitForFunction(() => document.getElementById("gr-live")?.dataset.state?.startsWith("live"));
  return page;
}
const errors: string[] = [];

/** What the test reads of a page: the chart's points, the open view and its numbers, the marker set before the appends. */
const snapshot = (page: Page) =>
  page.evaluate(() => {
    const v = document.getElementById("gr-train-view") as HTMLElement;
    const num = (e: Element | null) => (e as HTMLElement | null)?.dataset.value ?? null;
    return {
      marker: (window as unknown as { marker?: number }).marker ?? null,
      hash: location.hash,
      scrollY: window.scrollY,
      view: v.dataset.view ?? null,
      points: [...document.querySelectorAll('svg[data-chart="mean_reward"] circle')].map((c) => [
        Number(c.getAttribute("data-x")),
        Number(c.getAttribute("data-y")),
      ]),
      facts: document.querySelector("#gr-train-summary .train-facts")?.textContent ?? "",
      rows: [...v.querySelectorAll("table.step-groups tbody tr[data-split]")].map((tr) => ({
        task: `${(tr as HTMLElement).dataset.split}/${(tr as HTMLElement).dataset.index}`,
        mean: Number(num(tr.querySelector('[data-stat="mean"]'))),
        std: num(tr.querySelector('[data-stat="std"]')),
        advantages: num(tr.querySelector('[data-stat="advantages"]'))!.split(" ").map(Number),
        ids: [...tr.querySelectorAll("a.ep-link")].map((a) => (a as HTMLElement).dataset.id),
      })),
      siblings: [...v.querySelectorAll(".grp-heads .grp-col")].map((c) => ({
        id: (c as HTMLElement).dataset.episode,
        advantage: Number((c as HTMLElement).dataset.advantage),
      })),
      groupMean: num(v.querySelector('.group-facts [data-stat="mean"]')),
    };
  });

/** The page's snapshot, read again and again in the background (the helpers' `until` polls a sync check). */
function watch(page: Page): { latest: () => Snapshot; stop: () => Snapshot } {
  let last: Snapshot | null = null;
  let on = true;
  const loop = async () => {
    while (on) last = await snapshot(page).catch(() => last);
  };
  void loop();
  return {
    latest: () => last ?? ({ siblings: [], points: [], rows: [] } as unknown as Snapshot),
    stop: () => {
      on = false;
      return last!;
    },
  };
}

type Snapshot = Awaited<ReturnType<typeof snapshot>>;

describe("georeplay serve: a training page follows the run", () => {
  it("new steps reach the charts and facts, an open step or group view is drawn again in place, with groups --json's numbers", async () => {
    const group = await open("#group/1/eval/1");
    const step = await open("#step/1");
    await group.waitForFunction(() => document.querySelectorAll("#gr-train-view .grp-heads .grp-col").length === 2);
    for (const p of [group, step]) await p.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
    const before = { group: await snapshot(group), step: await snapshot(step) };
    expect(before.group.points.map(([x]) => x)).toEqual([0, 1]);
    expect(before.step.rows.map((r) => r.task)).toEqual(["eval/1"]);

    // Step 1 gets a new group (eval/0) and a third sibling of eval/1; step 2 is new.
    appendFileSync(file, line(7) + line(8) + line(5, 0.3) + line(9) + line(10));
    const r = runCli(["groups", file, "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as GroupsReport;
    const rowsOf = (n: number) =>
      report.groups
        .filter((g) => g.step === n)
        .map((g) => ({
          task: `${g.task.split}/${g.task.index}`,
          mean: g.mean,
          std: g.std === null ? "" : String(g.std),
          advantages: g.advantages,
          ids: g.episode_ids,
        }));

    const gw = watch(group);
    // Verified, grouped and drawn about a second after the write (the server polls every 0.5 s); how soon is the bench's to measure.
    await until(() => gw.latest().siblings.length === 3 && gw.latest().points.length === 3, 30_000, "the group's third sibling and step 2's point");
    const g = gw.stop();
    const want = report.groups.find((x) => x.step === 1 && x.task.index === 1)!;
    expect(g.siblings.map((s) => s.id).sort()).toEqual([...want.episode_ids].sort());
    for (const s of g.siblings) expect(s.advantage).toBe(want.advantages[want.episode_ids.indexOf(s.id!)]);
    expect(Number(g.groupMean)).toBe(want.mean);
    // In place: no reload (the marker lives), the same address, the reader's scroll.
    expect(g.marker).toBe(1);
    expect(g.hash).toBe("#group/1/eval/1");
    expect(Math.abs(g.scrollY - before.group.scrollY)).toBeLessThan(40);
    expect(g.points).toEqual(report.steps.map((s) => [s.step, s.mean_reward]));
    expect(g.facts).toContain(`${report.summary.steps} steps · ${report.summary.groups} groups · ${report.rollouts} rollouts`);

    // The open step view: step 1's two groups, then step 2 (new) a click away.
    const sw = watch(step);
    await until(() => sw.latest().rows.length === 2, 30_000, "step 1's new group");
    const s1 = sw.stop();
    expect(s1.rows).toEqual(rowsOf(1));
    expect([s1.marker, s1.hash, s1.view]).toEqual([1, "#step/1", "step"]);
    await step.evaluate(() => (location.hash = "#step/2"));
    await step.waitForFunction(() => (document.getElementById("gr-train-view") as HTMLElement).dataset.step === "2");
    const s2 = await snapshot(step);
    expect(s2.rows).toEqual(rowsOf(2));
    expect(s2.marker).toBe(1);
    // The list's rows carry their group's numbers: the filter expression finds the new step's rollouts.
    await step.fill("#f-expr", "step == 2");
    await step.waitForFunction(() => document.querySelectorAll("#gr-rows tr[data-id]").length === 2);
    expect(errors).toEqual([]);
    await group.close();
    await step.close();
  }, 60_000);
});
