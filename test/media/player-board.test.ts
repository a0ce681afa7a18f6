/**
 * The in-page player on a board page and in its compare view, on the 4-arm
 * fixture board the page-app test uses (test/board-fixture.ts), in Debian's
 * Chromium from file://: the timeline the browser plans from a chunk's
 * episode (player/board-episode.ts, run here under Node with the very inputs
 * the page carries) is `frames`'s timeline.json; an episode plays in place
 * (the canvas changes, the HUD's turn and the transcript follow); a deep link
 * opens at its time; keys step by turn; the two-up plays both attempts in
 * step; nothing is fetched and the CSP stays pinned; --no-player leaves it
 * all out.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { type Browser, type Page } from "playwright-core";
import { launchChromium } from "../browser.ts";
import { MIXED, sortedKeys as sorted } from "../helpers.ts";
import { makeFourArmBoard } from "../board-fixture.ts";
import { buildPage } from "../../envs/geoguesser/src/page/build.ts";
import { generateFrames } from "../../envs/geoguesser/replay/frames/frames.ts";
import { TimelineSchema, type Timeline } from "../../envs/geoguesser/replay/timeline/timeline-schema.ts";
import type { PageEpisode } from "../../envs/geoguesser/src/page/model.ts";
import type { BoardData, TaskChunk } from "../../envs/geoguesser/src/page/board/data.ts";
/** Replies longer than this were cut in board pages once; now every word is carried. */
const LONG_REPLY = 240;
import { boardVideo } from "../../envs/geoguesser/src/page/player/board-episode.ts";
import { stepTurnFrame, turnMarks } from "../../envs/geoguesser/src/page/player/clock.ts";
import type { PlayerMeta } from "../../envs/geoguesser/src/page/player/format.ts";
import type { PlayerHandle } from "../../envs/geoguesser/src/page/player/main.ts";
import { cspHash } from "../../src/page/escape.ts";
import { PNG } from "pngjs";
import { cropRgb, paintNative, psnr, rolloutRegions } from "../video-helpers.ts";
import { withTextPlan } from "../../src/film/shared/text-plan.ts";
import { RolloutPropsSchema } from "../../envs/geoguesser/video/rollout/props.ts";

const tmp = mkdtempSync(join(tmpdir(), "georeplay-player-board-"));
const boardFile = join(tmp, "board.html");
const plainFile = join(tmp, "board-no-player.html");
const inputs = { tasks: join(MIXED, "tasks.jsonl"), panos: join(MIXED, "panos") };
let fixture: ReturnType<typeof makeFourArmBoard>;
let data: BoardData;
let episodes: Map<string, PageEpisode>;
let browser: Browser;

function table(html: string, id: string): string {
  const start = html.indexOf(`<script type="application/json" id="${id}">`);
  if (start < 0) throw new Error(`no ${id} in the page`);
  const from = html.indexOf(">", start) + 1;
  return html.slice(from, html.indexOf("</script>", from));
}

/** Every episode as its task chunk stores it: what the page's client hands the player. */
function chunkEpisodes(html: string): Map<string, PageEpisode> {
  const out = new Map<string, PageEpisode>();
  for (const b64 of JSON.parse(table(html, "gr-chunks")) as string[])
    for (const e of (JSON.parse(gunzipSync(Buffer.from(b64, "base64")).toString("utf8")) as TaskChunk).episodes) out.set(e.id, e);
  return out;
}

beforeAll(async () => {
  fixture = makeFourArmBoard(join(tmp, "board"));
  // The sweep fixture drifts some views on purpose: the page is written with them (as `page` does, exit 1).
  const common = { episodes: [fixture.dir], ...inputs, baseline: "base", jobs: 1, partial: true };
  await buildPage({ ...common, out: boardFile });
  await buildPage({ ...common, out: plainFile, player: false });
  const html = readFileSync(boardFile, "utf8");
  data = JSON.parse(table(html, "gr-board-data")) as BoardData;
  episodes = chunkEpisodes(html);
  browser = await launchChromium({ webgl: true });
}, 600_000);

afterAll(async () => {
  await browser?.close();
  rmSync(tmp, { recursive: true, force: true });
});

/** The board's timeline for an episode: the pure function the browser calls, with the chunk's episode. */
function planned(id: string): ReturnType<typeof boardVideo> {
  const e = episodes.get(id)!;
  return boardVideo(e, e.play!);
}

const publicDir = join(tmp, "public");
const framesRuns = new Map<string, Promise<Timeline>>();

/** `georeplay frames` for a board episode (its frame files under publicDir), once: its timeline.json. */
function framesTimeline(id: string): Promise<Timeline> {
  let p = framesRuns.get(id);
  if (!p) {
    p = generateFrames({ episodes: [fixture.dir], ...inputs, episode: id, publicDir, fps: 30, jobs: 1, unverified: true }).then(
      (r) => JSON.parse(readFileSync(r.timelinePath, "utf8")) as Timeline,
    );
    framesRuns.set(id, p);
  }
  return p;
}

/** An episode whose every reply is short. */
const uncut = () => [...episodes.values()].find((e) => e.turns.every((t) => (t.reply?.length ?? 0) <= LONG_REPLY && (t.reasoning?.length ?? 0) <= LONG_REPLY))!;

describe("one timeline", () => {
  it("every replayable episode of the board carries a play record the browser can plan", () => {
    expect(data.episodes.length).toBeGreaterThan(50);
    for (const r of data.episodes) {
      const e = episodes.get(r.id)!;
      expect(e.play, r.id).toBeDefined();
      expect(() => boardVideo(e, e.play!), r.id).not.toThrow();
    }
  });

  it("the timeline planned from a chunk's episode is frames's timeline.json, a long reply's every word included", async () => {
    const ids = [...episodes.values()];
    const short = uncut();
    const long = ids.find((e) => e.turns.some((t) => (t.reply?.length ?? 0) > LONG_REPLY))!;
    const drifted = ids.find((e) => e.views.mismatch > 0 && e !== long && e !== short)!;
    expect(short && long && drifted).toBeTruthy();
    for (const e of [short, long, drifted]) {
      const want = await framesTimeline(e.id);
      const got = planned(e.id).timeline;
      // The schema accepts it (the browser has no zod to check it with).
      expect(() => TimelineSchema.parse(got)).not.toThrow();
      if (e === long) expect(got.trace.some((t) => (t.reply?.length ?? 0) > LONG_REPLY)).toBe(true);
      expect(sorted(JSON.parse(JSON.stringify(got))), e.id).toEqual(sorted(want));
    }
  }, 300_000);
});

async function openAt(file: string, hash: string): Promise<{ page: Page; requests: string[]; errors: string[]; close: () => Promise<void> }> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  const page = await context.newPage();
  const requests: string[] = [];
  const errors: string[] = [];
  page.on("request", (r) => requests.push(r.url()));
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => {
    if (m.type() === "error" || m.type() === "warning") errors.push(m.text());
  });
  await page.goto(`file://${file}${hash}`);
  await page.waitForFunction(() => document.documentElement.dataset.ready === "1");
  return { page, requests, errors, close: () => context.close() };
}

const player = (page: Page) =>
  page.evaluate(() => {
    const p = document.querySelector<HTMLElement>(".player")!;
    return { frame: Number(p.dataset.frame), turn: p.dataset.turn ?? null, a: p.dataset.slotA ?? null, b: p.dataset.slotB ?? null };
  });

/** The canvas's picture, as a PNG data URL's digest (toDataURL: no getImageData readback warning from the test itself). */
const canvasDigest = (page: Page) =>
  page.evaluate(async () => {
    const url = document.querySelector<HTMLCanvasElement>(".player canvas")!.toDataURL("image/png");
    const d = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(url));
    return Array.from(new Uint8Array(d), (x) => x.toString(16).padStart(2, "0")).join("");
  });

describe("an episode plays on the board page", () => {
  it("inert until played; plays (the canvas changes, the HUD's turn and the transcript follow); keys step by turn; copy link names the moment", async () => {
    const id = data.episodes[0].id;
    const { timeline } = planned(id);
    const marks = turnMarks(timeline);
    const { page, requests, errors, close } = await openAt(boardFile, `#${encodeURIComponent(id)}`);
    try {
      await page.waitForSelector(".player-slot button.start");
      expect(await page.locator(".player canvas").count()).toBe(0);
      await page.click(".player-slot button.start");
      await page.waitForSelector(".player[data-ready]", { timeout: 60_000 });
      // The press played it; paused and back at the start, the keys are checked from frame 0.
      await page.click(".player button.play");
      await page.$eval(".player input[type=range]", (r) => {
        (r as HTMLInputElement).value = "0";
        r.dispatchEvent(new Event("input"));
      });
      expect(await player(page)).toMatchObject({ frame: 0, turn: "0" });
      const first = await canvasDigest(page);
      await page.focus(".player");
      await page.keyboard.press("Shift+ArrowRight");
      expect((await player(page)).frame).toBe(marks[1].frame);
      await page.keyboard.press("Shift+ArrowRight");
      expect(await player(page)).toMatchObject({ frame: marks[2].frame, turn: String(marks[2].turn) });
      // The transcript follows the player.
      expect(await page.evaluate(() => document.querySelector("#gr-detail .turn.current")?.id)).toBe(`t-${id}-${marks[2].turn}`);
      await page.keyboard.press("Shift+ArrowLeft");
      expect((await player(page)).frame).toBe(stepTurnFrame(marks, marks[2].frame, -1, timeline.totalFrames));
      expect(await canvasDigest(page)).not.toBe(first);
      // Space plays: the frame moves on and the canvas with it.
      const before = await canvasDigest(page);
      const at = (await player(page)).frame;
      await page.keyboard.press("Space");
      await page.waitForFunction((f) => Number(document.querySelector<HTMLElement>(".player")!.dataset.frame) > f + 20, at, { timeout: 30_000 });
      await page.keyboard.press("Space");
      expect(await canvasDigest(page)).not.toBe(before);
      await page.click(".player button.link");
      const frame = (await player(page)).frame;
      expect(await page.evaluate(() => location.hash)).toBe(`#${encodeURIComponent(id)}/t=${Number((frame / 30).toFixed(3))}`);
      expect(await page.locator(".player code.cmd").textContent()).toContain(`--episode ${id}`);
      expect(requests).toEqual([`file://${boardFile}`]);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  }, 180_000);

  it("a deep link (#<id>/t=<seconds>) opens the episode with its video at that time", async () => {
    const id = data.episodes[5].id;
    const { timeline } = planned(id);
    const t = Number((turnMarks(timeline)[2].frame / 30 + 0.5).toFixed(3));
    const { page, requests, errors, close } = await openAt(boardFile, `#${encodeURIComponent(id)}/t=${t}`);
    try {
      await page.waitForSelector(".player[data-ready]", { timeout: 60_000 });
      expect((await player(page)).frame).toBe(Math.round(t * 30));
      expect(await page.evaluate(() => document.querySelector("#gr-detail")!.getAttribute("data-episode"))).toBe(id);
      expect(requests).toEqual([`file://${boardFile}`]);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  }, 120_000);
});

/**
 * Outside the viewport the board's frames are the native engine's within font-rasteriser noise: the
 * browser lays the text out itself (Chromium's measureText against Skia's, the same font files), so
 * a word may start a fraction of a pixel apart and its antialiasing differ (the header measures
 * ~28.5 dB where the run page, painting Node's own layout, measures over 30); the lines are the same.
 */
const OUTSIDE_DB = 25;

describe("the board's player paints the native engine's frames", () => {
  it("outside the viewport (HUD, trace pane, score card: text laid out by the browser) >= 25 dB at four moments, and the same lines as Node lays out; the viewport is a reprojection or an exact zoom", async () => {
    const e = uncut();
    const timeline = await framesTimeline(e.id);
    const spec = withTextPlan({ composition: "Rollout", props: RolloutPropsSchema.parse({ ...timeline, output: { width: 1280, height: 720 } }) });
    const marks = turnMarks(timeline);
    const frames = [30, marks[1].frame, marks[Math.min(3, marks.length - 1)].frame + 10, timeline.totalFrames - 5];
    const { page, errors, close } = await openAt(boardFile, `#${encodeURIComponent(e.id)}/t=${frames[0] / 30}`);
    const measured: string[] = [];
    try {
      for (const frame of frames) {
        await page.evaluate((h) => (location.hash = h), `#${encodeURIComponent(e.id)}/t=${Number((frame / 30).toFixed(3))}`);
        await page.waitForFunction((f) => document.querySelector<HTMLElement>(".player[data-ready]")?.dataset.frame === String(f), frame, { timeout: 60_000 });
        const url = await page.evaluate(() => document.querySelector<HTMLCanvasElement>(".player canvas")!.toDataURL("image/png"));
        const browserPng = PNG.sync.read(Buffer.from(url.split(",")[1], "base64"));
        const [native] = await paintNative(spec, [frame], publicDir);
        const line: string[] = [];
        for (const [region, r] of rolloutRegions(timeline, { width: 1280, height: 720 })) {
          const db = psnr(cropRgb(browserPng, r), cropRgb(native, r));
          line.push(`${region} ${db === Infinity ? "inf" : db.toFixed(1)}`);
          if (region !== "viewport") expect(db, `frame ${frame}: ${region}`).toBeGreaterThanOrEqual(OUTSIDE_DB);
        }
        measured.push(`frame ${frame}: ${line.join(", ")}`);
      }
      // The lines themselves: every frame laid out by the browser, against Node's text plan for the same video.
      const browserPlan = await page.evaluate(
        async ({ id, episode, total }) => {
          const load = (window as unknown as { grPlayerLoad: () => { mount: (c: HTMLElement, id: string, o: object) => PlayerHandle } }).grPlayerLoad;
          const div = document.createElement("div");
          document.body.appendChild(div);
          const h = load().mount(div, id, { source: { kind: "board", episode } });
          await h.ready;
          for (let f = 0; f < total; f++) h.paintFrame(f);
          return h.textPlan();
        },
        { id: e.id, episode: e, total: timeline.totalFrames },
      );
      const nodePlan = spec.props.text!;
      const laid = Object.keys(nodePlan).filter((k) => !k.startsWith("places|"));
      expect(
        Object.keys(browserPlan!)
          .filter((k) => !k.startsWith("places|"))
          .sort(),
      ).toEqual(laid.sort());
      let widest = { px: 0, share: 0, key: "" };
      for (const k of laid) {
        const [n, b] = [nodePlan[k], browserPlan![k]];
        if (typeof n !== "number") expect(b, k).toEqual(n);
        else if (Math.abs(n - (b as number)) > widest.px)
          widest = { px: Math.abs(n - (b as number)), share: Math.abs(n - (b as number)) / Math.max(1, n), key: k };
      }
      measured.push(
        `text plan: ${laid.length} layouts, the same lines; widths within ${widest.px.toFixed(2)} px (${(100 * widest.share).toFixed(2)}%, ${widest.key.slice(0, 80)})`,
      );
      expect(widest.share).toBeLessThan(0.01);
      expect(errors).toEqual([]);
    } finally {
      console.info(`board player vs native PSNR (dB), episode ${e.id}:\n${measured.join("\n")}`);
      await close();
    }
  }, 240_000);
});

describe("the compare view plays the two-up", () => {
  it("both attempts on one clock: in step after a deep link, after play and after seeking by turn; its link and command name the pair", async () => {
    const hash = "#compare/1/sonnet-5/base/t=4";
    const { page, requests, errors, close } = await openAt(boardFile, hash);
    try {
      await page.waitForSelector(".cmp-attempt .player[data-ready]", { timeout: 60_000 });
      let s = await player(page);
      expect(s.frame).toBe(120);
      expect(s.a).not.toBeNull();
      expect(s.a).toBe(s.b);
      // Both sides of the same attempt of task 1.
      const slot = page.locator(".cmp-attempt .player-slot").first();
      const [a, b] = [await slot.getAttribute("data-a"), await slot.getAttribute("data-b")];
      expect(episodes.get(a!)!.model).toBe("sonnet-5");
      expect(episodes.get(b!)!.model).toBe("base");
      const first = await canvasDigest(page);
      await page.focus(".player");
      await page.keyboard.press("Space");
      await page.waitForFunction(() => Number(document.querySelector<HTMLElement>(".player")!.dataset.frame) > 150, null, { timeout: 30_000 });
      await page.keyboard.press("Space");
      s = await player(page);
      expect(s.a).toBe(s.b);
      expect(await canvasDigest(page)).not.toBe(first);
      for (let i = 0; i < 3; i++) {
        await page.keyboard.press("Shift+ArrowRight");
        s = await player(page);
        expect(s.a, `step ${i}`).toBe(s.b);
        expect(s.turn).not.toBeNull();
      }
      await page.click(".player button.link");
      expect(await page.evaluate(() => location.hash)).toBe(`#compare/1/sonnet-5/base/t=${Number((s.frame / 30).toFixed(3))}`);
      expect(await page.locator(".player code.cmd").textContent()).toContain(`--episode ${a} --versus ${b}`);
      // Closing the view stops the two-up (it would go on painting a detached canvas).
      await page.keyboard.press("Space");
      await page.keyboard.press("Escape");
      await page.waitForFunction(() => document.querySelector("#gr-compare")!.hasAttribute("hidden"));
      expect(await page.locator(".player").count()).toBe(0);
      expect(requests).toEqual([`file://${boardFile}`]);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  }, 180_000);
});

describe("the page around it", () => {
  it("keeps one pinned script hash, and --no-player leaves the player, its records and tables out", () => {
    const html = readFileSync(boardFile, "utf8");
    const plain = readFileSync(plainFile, "utf8");
    const csp = /content="([^"]+)"/.exec(html)![1].replace(/&#39;/g, "'");
    const scripts = [...html.matchAll(/<script>(.*?)<\/script>/gs)].map((m) => m[1]);
    expect(scripts).toHaveLength(1);
    expect(csp).toContain(`script-src ${cspHash(scripts[0])};`);
    expect(csp).toContain("default-src 'none'");
    expect(html.includes("window.grPlayerLoad=function")).toBe(true);
    const meta = JSON.parse(table(html, "gr-player")) as PlayerMeta;
    expect(meta.kind).toBe("board");
    expect(meta.fonts.length).toBeGreaterThan(0);
    expect(plain.includes("window.grPlayerLoad=function")).toBe(false);
    expect(plain.includes('id="gr-player')).toBe(false);
    expect([...chunkEpisodes(plain).values()].some((e) => e.play !== undefined)).toBe(false);
    console.info(
      `board page (fixture, ${data.episodes.length} episodes): ${statSync(boardFile).size} bytes with the player, ${statSync(plainFile).size} without`,
    );
  });
});
