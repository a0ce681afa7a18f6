/**
 * The pages' maps are the video's maps: the map module's primitives
 * (src/page/geo.ts) written as SVG by the page client (src/page/client/maps.ts),
 * screenshotted in Debian's Chromium (playwright-core) and compared with
 * reviewed goldens: the Trieste run page's outcome map (619 m) and its pin
 * map at turn 3 from a real page, then the client's drawMap alone (bundled
 * with esbuild, the page's CSS and fonts) for the framings no fixture has:
 * a 269 km miss inside Nigeria, a pair across the antimeridian, a guess
 * near the pole, and the two maps of a compare row in one shared frame.
 *
 * Update after a reviewed change: UPDATE_GOLDEN=1 npx vitest run test/page-maps.test.ts
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRequire } from "node:module";
import { chromium, type Browser, type Locator } from "playwright-core";
import { PNG } from "pngjs";
import pixelmatch from "pixelmatch";
import { ROOT, TRIESTE } from "./helpers.ts";
import { buildPage } from "../src/page/build.ts";
import { mapSpec, revealFrame, sharedFrame, type MapSpec } from "../src/page/geo.ts";
import { pageCss } from "../src/page/view/style.ts";

const GOLDEN = join(ROOT, "test", "golden");
const UPDATE = process.env.UPDATE_GOLDEN === "1";
const dir = mkdtempSync(join(tmpdir(), "georeplay-page-maps-"));
const page = join(dir, "trieste.html");
let browser: Browser;
let drawMapJs: string;

beforeAll(async () => {
  await buildPage({ episodes: [join(TRIESTE, "episodes.jsonl")], tasks: join(TRIESTE, "tasks.jsonl"), panos: join(TRIESTE, "panos"), out: page });
  const esbuild = createRequire(import.meta.url)("esbuild") as typeof import("esbuild");
  drawMapJs = esbuild.buildSync({
    stdin: { contents: `import { drawMap } from "./src/page/client/maps.ts"; (globalThis as any).drawMap = drawMap;`, resolveDir: ROOT, loader: "ts" },
    bundle: true,
    format: "iife",
    write: false,
  }).outputFiles[0].text;
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--headless", "--no-sandbox", "--disable-gpu", "--font-render-hinting=none"] });
}, 300_000);
afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function expectGolden(name: string, shot: Locator): Promise<void> {
  const png = PNG.sync.read(await shot.screenshot());
  const file = join(GOLDEN, `${name}.png`);
  if (UPDATE) {
    mkdirSync(GOLDEN, { recursive: true });
    writeFileSync(file, PNG.sync.write(png));
  }
  expect(existsSync(file), `${file} (create with UPDATE_GOLDEN=1 and review it)`).toBe(true);
  const want = PNG.sync.read(readFileSync(file));
  expect([png.width, png.height]).toEqual([want.width, want.height]);
  const diff = pixelmatch(png.data, want.data, undefined, png.width, png.height, { threshold: 0.1 });
  expect(diff, `${name}: differing pixels`).toBeLessThanOrEqual(60);
}

async function drawn(spec: MapSpec, label: string): Promise<Locator> {
  const p = await browser.newPage({ viewport: { width: 320, height: 320 } });
  await p.setContent(`<!doctype html><html><head><style>${pageCss()}</style></head><body><div id="m" style="width:280px"></div></body></html>`);
  await p.addScriptTag({ content: drawMapJs });
  await p.evaluate(
    ([s, l]) => document.getElementById("m")!.appendChild((globalThis as unknown as { drawMap: (m: unknown, l: string) => Node }).drawMap(s, l)),
    [spec, label] as const,
  );
  await p.evaluate(() => document.fonts.ready);
  return p.locator("svg.map");
}

describe("page maps (Chromium)", () => {
  it("the Trieste run page: the outcome map (619 m) names the towns, draws the pins apart, has a scale bar", async () => {
    const p = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await p.goto(`file://${page}#90a9d3eba5ce`);
    await p.waitForFunction(() => document.documentElement.dataset.ready === "1");
    const map = p.locator("section.outcome svg.map");
    const texts = await map.locator("text").allTextContents();
    // Trieste, under the pins, is named beside them (ahead of the villages around).
    expect(texts).toEqual(expect.arrayContaining(["Guess", "Truth", "Trieste", "Koper", "Izola"]));
    expect(
      texts.some((t) => / k?m$/.test(t)),
      "a scale bar",
    ).toBe(true);
    // The guess 619 m from the truth is moved off it, joined by a leader line.
    expect(await map.locator("polyline:not([stroke-dasharray])").count()).toBeGreaterThan(0);
    // Ajdovščina is drawn with the page's own Inter: its Latin Extended face was
    // loaded for them (without each face's unicode-range, the Latin face claimed every character
    // and Chromium drew the caron over the next letter).
    expect(texts).toEqual(expect.arrayContaining(["Ajdovščina"]));
    const faces = await p.evaluate(async () => {
      await document.fonts.ready;
      return [...document.fonts].map((f) => ({ family: f.family.replace(/"/g, ""), range: f.unicodeRange, status: f.status }));
    });
    expect(faces.every((f) => f.range !== "U+0-10FFFF")).toBe(true);
    const latinExt = faces.filter((f) => f.family === "Inter" && f.range.includes("U+100-2BA"));
    expect(latinExt.length).toBe(2); // 400 and 600
    expect(latinExt.some((f) => f.status === "loaded")).toBe(true);
    await expectGolden("page-map-score", map);
    await p.goto(`file://${page}#90a9d3eba5ce/3`);
    await p.waitForFunction(() => document.documentElement.dataset.ready === "1");
    const pins = p.locator('.turn[data-turn="3"] svg.map');
    expect(await pins.locator("text").allTextContents()).toEqual(expect.arrayContaining(["Pin 1"]));
    await expectGolden("page-map-pins", pins);
    // The turn's badge sits over the map's top left corner: no name, pin or label under it, on a
    // wide page and on a phone's.
    for (const width of [1280, 390]) {
      await p.setViewportSize({ width, height: 900 });
      const overlaps = await p.evaluate(() => {
        const media = document.querySelector('.turn[data-turn="3"] .media')!;
        const badge = media.querySelector(".badge")!.getBoundingClientRect();
        const hit = (r: DOMRect) => r.left < badge.right && r.right > badge.left && r.top < badge.bottom && r.bottom > badge.top;
        return [...media.querySelectorAll("svg.map text, svg.map circle")].filter((e) => hit(e.getBoundingClientRect())).map((e) => e.textContent || e.tagName);
      });
      expect(overlaps, `at ${width} px`).toEqual([]);
    }
    await p.close();
  });

  const cases: [string, () => MapSpec][] = [
    ["page-map-in-country", () => mapSpec(revealFrame([11.4955, 7.3986], [9.0765, 7.3986]), [], [11.4955, 7.3986], [9.0765, 7.3986])],
    ["page-map-antimeridian", () => mapSpec(revealFrame([-16.4, -179.6], [-18.14, 178.44]), [], [-16.4, -179.6], [-18.14, 178.44])],
    ["page-map-pole", () => mapSpec(revealFrame([86.5, 30.0], [78.22, 15.65]), [], [86.5, 30.0], [78.22, 15.65])],
  ];
  for (const [name, spec] of cases)
    it(`draws the map module's primitives: ${name}`, async () => {
      const s = spec();
      expect(s.landPath.length).toBeGreaterThan(0);
      await expectGolden(name, await drawn(s, name));
    });

  it("a compare row's two maps share one frame (the same truth, both guesses in view)", async () => {
    const truth: [number, number] = [38.8678, -104.7918];
    const a: [number, number] = [40.9622, -94.8697];
    const b: [number, number] = [38.9436, -116.673];
    const frame = sharedFrame(truth, [a, b]);
    const left = mapSpec(frame, [], a, truth);
    const right = mapSpec(frame, [], b, truth);
    // Same frame: the same land, the same truth spot, the same scale bar.
    expect(left.landPath).toBe(right.landPath);
    const truthAt = (m: MapSpec) => m.prims.find((p) => p.t === "circle" && p.fill === "#3f7a55" && p.r > 5);
    expect(truthAt(left)).toEqual(truthAt(right));
    await expectGolden("page-map-compare-a", await drawn(left, "A"));
    await expectGolden("page-map-compare-b", await drawn(right, "B"));
  });
});
