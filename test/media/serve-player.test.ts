/**
 * `georeplay serve`: an episode appended while the page is open plays in
 * it, as an episode there at the start does. A real server process and a
 * real Chromium page: the new row has a play button, pressing it makes the
 * server plan the video then (data/player-<n>.js, numbered by the server)
 * and the player's clock advances; what it plays is what the one-file
 * `georeplay page` embeds for the same episode (the timeline and text plan,
 * each frame file from the same view or the same panorama), and the player
 * shows the same duration and turn marks as the folder form's (planned in
 * the browser from the episode's PlayRecord).
 */
import { describe, expect, it, beforeAll, afterAll } from "vitest";
import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { gunzipSync } from "node:zlib";
import type { Browser, Page } from "playwright-core";
import { runCli } from "../helpers.ts";
import { common, episodeLine, LINES, raw, startServe, stopServe, launchChromium, type Served } from "../serve-helpers.ts";
import type { LivePlayerData, PlayerEpisode, PlayerMeta } from "../../envs/geoguesser/src/page/player/format.ts";
import { DEFAULT_IMAGE_SIZE, downscale } from "../../src/page/images.ts";

const dir = join(tmpdir(), `georeplay-serve-player-${process.pid}`);
const run = join(dir, "run", "episodes.jsonl");
const ID = "live-play";

let browser: Browser;
let served: Served;

beforeAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, "run"), { recursive: true });
  writeFileSync(run, LINES.slice(0, 2).join("\n") + "\n");
  browser = await launchChromium();
  served = await startServe(dir, [run], [], "player");
});

afterAll(() => stopServe(browser, served, dir));

/** A page's JSON table (a `<script type="application/json">` element). */
function table<T>(html: string, id: string): T {
  const m = new RegExp(`<script type="application/json" id="${id}">(.*?)</script>`, "s").exec(html);
  if (!m) throw new Error(`no ${id} in the page`);
  return JSON.parse(m[1]) as T;
}

const entry = (meta: PlayerMeta, id: string) => JSON.parse(gunzipSync(Buffer.from(meta.episodes[id], "base64")).toString("utf8")) as PlayerEpisode;

/** Each frame file by what it shows (a view file's name, a panorama's bytes and the camera), not by table index. */
const framesOf = (e: PlayerEpisode, views: string[], panos: string[]) =>
  e.files.map((f) => (f.length === 4 ? { pano: panos[f[0]], camera: f.slice(1) } : { view: views[f[0]], pano: f.length === 5 ? panos[f[1]] : null }));

/** Opens an episode's row, presses its play button, waits for the player; returns what it shows. */
async function playerOf(page: Page, id: string) {
  await page.click(`#gr-rows tr[data-id="${id}"]`);
  await page.waitForFunction((want) => document.querySelector("#gr-detail")?.textContent?.includes(want), id);
  await page.click("#gr-detail .player-slot button.start");
  await page.waitForSelector("#gr-detail .player[data-ready]", { timeout: 60_000 });
  return page.$eval("#gr-detail .player", (p) => ({
    max: (p.querySelector("input[type=range]") as HTMLInputElement).max,
    // Its length (the clock's left part runs: the press plays).
    time: p.querySelector(".time")!.textContent!.split(" / ")[1],
    marks: p.querySelectorAll(".mark").length,
    frameFrom: (p as HTMLElement).dataset.frameFrom,
  }));
}

describe("georeplay serve: an episode added live plays", () => {
  it("gets a play button; the server plans its video when it is pressed; it plays what `page` embeds for it", async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(served.url);
    await page.waitForFunction(() => document.getElementById("gr-live")?.dataset.state?.startsWith("live"));
    // Nothing is planned before a reader asks: an unknown number is not a file.
    expect((await raw(served.port, "/data/player-0.js")).status).toBe(404);
    appendFileSync(run, episodeLine(1, ID));
    await page.waitForSelector(`#gr-rows tr[data-id="${ID}"]`, { timeout: 10_000 });
    const t0 = Date.now();
    const live = await playerOf(page, ID);
    const planned = Date.now() - t0;
    expect(live.frameFrom).toBeTruthy();
    // Playing from the one press: the clock advances.
    const frame = () => page.$eval("#gr-detail .player", (p) => Number((p as HTMLElement).dataset.frame));
    const before = await frame();
    await page.waitForFunction((f) => Number((document.querySelector("#gr-detail .player") as HTMLElement).dataset.frame) > f + 5, before);
    await page.click("#gr-detail .player button.play");
    const marks = await page.$$eval("#gr-detail .player .mark", (m) => m.length);
    expect(marks).toBeGreaterThan(0);
    expect(errors).toEqual([]);

    // The server's file: numbered by it (the first live episode is 0), served read-only, planned once.
    const file = await raw(served.port, "/data/player-0.js");
    expect(file.status).toBe(200);
    const payload = JSON.parse(/^georeplayData\("player",0,([\s\S]*)\);\n$/.exec(file.body)![1]) as LivePlayerData;
    if ("error" in payload) throw new Error(payload.error);
    expect((await raw(served.port, "/data/player-1.js")).status).toBe(404);

    // The one-file `georeplay page` over the file as it is now plans in Node as the server does: the same
    // entry, each view the served file downscaled as that page embeds it.
    const oneFile = join(dir, "built.html");
    runCli(["page", run, ...common, "-o", oneFile]);
    const html = readFileSync(oneFile, "utf8");
    const meta = table<PlayerMeta>(html, "gr-player");
    expect(Object.keys(meta.episodes)).toContain(ID);
    const want = entry(meta, ID);
    const got = entry(payload.meta, ID);
    expect(got.props).toEqual(want.props);
    expect(got.render).toBe(want.render);
    const embedded = await Promise.all(
      payload.views.map(async (v) => {
        const bytes = Buffer.from(await (await fetch(new URL(v, served.url))).arrayBuffer());
        return `data:image/webp;base64,${(await downscale(bytes, DEFAULT_IMAGE_SIZE)).toString("base64")}`;
      }),
    );
    expect(framesOf(got, embedded, payload.panos)).toEqual(framesOf(want, table<string[]>(html, "gr-images"), table<string[]>(html, "gr-player-panos")));

    // The folder form's player (planned in the browser from the episode's record) shows the same video: duration, frame count, turn marks.
    const built = join(dir, "built");
    runCli(["page", run, ...common, "-o", `${built}/`]);
    const other = await browser.newPage();
    await other.goto(pathToFileURL(join(built, "index.html")).href);
    await other.waitForFunction(() => document.documentElement.dataset.ready === "1");
    const shown = await playerOf(other, ID);
    expect({ max: live.max, time: live.time, marks: live.marks }).toEqual({ max: shown.max, time: shown.time, marks: shown.marks });
    await other.close();
    await page.close();
    console.log(`live episode's video: planned and ready in the page ${planned} ms after the press`);
  });
});
