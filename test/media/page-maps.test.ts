/**
 * The pages' maps are the video's maps: the map module's primitives
 * (src/page/geo.ts) written as SVG by the page client (envs/geoguesser/src/page/client/maps.ts),
 * screenshotted in Debian's Chromium (playwright-core) and compared with
 * reviewed goldens: the Trieste run page's outcome map (619 m) and its pin
 * map at turn 3 from a real page, then the client's drawMap alone (bundled
 * with esbuild, the page's CSS and fonts) for the framings no fixture has:
 * a 269 km miss inside Nigeria, a pair across the antimeridian, a guess
 * near the pole, a pair east-west at 60°N (both pins whole), a truth in a
 * barrio of Buenos Aires (the city named, not the barrio), and the two maps of a compare row in one shared frame.
 * A board page stores its maps as frames and pins over one table of atlas
 * cells (envs/geoguesser/src/page/board/map-cells.ts): drawn from that table, each is the
 * same SVG and the same golden; the page carries the table once.
 *
 * Update after a reviewed change: UPDATE_GOLDEN=1 npx vitest run test/page-maps.test.ts
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { gunzipSync, gzipSync } from "node:zlib";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRequire } from "node:module";
import { type Browser, type Locator } from "playwright-core";
import { launchChromium } from "../browser.ts";
import { PNG } from "pngjs";
import pixelmatch from "pixelmatch";
import { MIXED, ROOT, TRIESTE, runCli } from "../helpers.ts";
import { makeFourArmBoard } from "../board-fixture.ts";
import { PageMapCells, mapCellsElement } from "../../envs/geoguesser/src/page/board/map-cells.ts";
import type { TaskChunk } from "../../envs/geoguesser/src/page/board/data.ts";
import type { PlayerMeta } from "../../envs/geoguesser/src/page/player/format.ts";
import { mapRings, svgPath } from "../../video/map/paths.ts";
import { atlasFor, cellsFor } from "../../video/map/atlas.ts";
import { mapProjection } from "../../video/map/projection.ts";
import { readMapCell } from "../../src/film/shared/map-data.ts";
import { buildPage } from "../../envs/geoguesser/src/page/build.ts";
import { PAGE_MAP_SIZE, mapSpec, revealFrame, sharedFrame, type MapSpec } from "../../src/page/geo.ts";
import { pageCss } from "../../src/page/view/style.ts";

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
    stdin: {
      contents: `import { drawMap } from "./envs/geoguesser/src/page/client/maps.ts"; import { loadMapCells } from "./envs/geoguesser/src/page/client/map-cells.ts"; Object.assign(globalThis, { drawMap, loadMapCells });`,
      resolveDir: ROOT,
      loader: "ts",
    },
    bundle: true,
    format: "iife",
    write: false,
  }).outputFiles[0].text;
  browser = await launchChromium({ args: ["--font-render-hinting=none"] });
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

/** The client's drawMap in a bare page; `cells`: a board page's cell table (map-cells.ts), read first as the board's client does. */
async function drawn(spec: MapSpec, label: string, cells = ""): Promise<Locator> {
  const p = await browser.newPage({ viewport: { width: 320, height: 320 } });
  await p.setContent(`<!doctype html><html><head><style>${pageCss()}</style></head><body><div id="m" style="width:280px"></div>${cells}</body></html>`);
  await p.addScriptTag({ content: drawMapJs });
  await p.evaluate(
    async ([s, l]) => {
      const g = globalThis as unknown as { drawMap: (m: unknown, l: string) => Node; loadMapCells: () => Promise<void> };
      await g.loadMapCells();
      document.getElementById("m")!.appendChild(g.drawMap(s, l));
    },
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
    // Oslo and Helsinki, 7 degrees apart east-west at 60°N: both pins whole, at their spots (issue 51).
    ["page-map-east-west", () => mapSpec(revealFrame([59.91, 10.75], [60.17, 24.94]), [], [59.91, 10.75], [60.17, 24.94])],
    // The truth in Belgrano, a barrio of Buenos Aires, the guess in Quilmes: Buenos Aires named by the truth.
    ["page-map-buenos-aires", () => mapSpec(revealFrame([-34.729, -58.264], [-34.5627, -58.4583]), [], [-34.729, -58.264], [-34.5627, -58.4583])],
  ];
  for (const [name, spec] of cases)
    it(`draws the map module's primitives: ${name}`, async () => {
      const s = spec();
      expect(s.landPath!.length).toBeGreaterThan(0);
      const own = await drawn(s, name);
      await expectGolden(name, own);
      // Stored as a board stores it (frame and pins), drawn from the page's cells: the same SVG, the same picture.
      const table = new PageMapCells();
      const shared = table.share(s);
      expect(shared).not.toHaveProperty("landPath");
      expect(JSON.stringify(shared).length).toBeLessThan(JSON.stringify(s).length / 2);
      const fromCells = await drawn(shared, name, mapCellsElement(table.cells()));
      expect(await fromCells.evaluate((e) => e.outerHTML)).toBe(await own.evaluate((e) => e.outerHTML));
      await expectGolden(name, fromCells);
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
    const table = new PageMapCells();
    const [sl, sr] = [table.share(left), table.share(right)];
    await expectGolden("page-map-compare-a", await drawn(sl, "A", mapCellsElement(table.cells())));
    await expectGolden("page-map-compare-b", await drawn(sr, "B", mapCellsElement(table.cells())));
  });
});

describe("a board page's maps over one table of atlas cells", () => {
  const board = join(dir, "board.html");
  const read = (html: string, id: string) => {
    const from = html.indexOf(">", html.indexOf(`<script type="application/json" id="${id}">`)) + 1;
    return html.slice(from, html.indexOf("</script>", from));
  };
  const chunksOf = (html: string) =>
    (JSON.parse(read(html, "gr-chunks")) as string[]).map((b) => JSON.parse(gunzipSync(Buffer.from(b, "base64")).toString("utf8")) as TaskChunk);
  const mapsOf = (c: TaskChunk): MapSpec[] => [
    ...(c.maps ?? []),
    ...c.episodes.flatMap((e) => (e.outcomeMap ? [e.outcomeMap] : [])),
    ...Object.values(c.compare?.maps ?? {}).map((m) => ({ ...c.compare!.paints[m.paint], size: m.size, prims: m.prims, has: m.has })),
  ];

  beforeAll(() => {
    const fixture = makeFourArmBoard(join(dir, "four-arm"));
    const r = runCli([
      "page",
      fixture.dir,
      "--tasks",
      join(MIXED, "tasks.jsonl"),
      "--panos",
      join(MIXED, "panos"),
      "--no-progress",
      "--baseline",
      "base",
      "-o",
      board,
    ]);
    expect(r.code, r.stderr).toBe(1); // the fixture's drifted views on purpose: exit 1, page written
  }, 300_000);

  it("carries the cells once (no map, no player table holds land or borders) and every map's cells are in it", () => {
    const html = readFileSync(board, "utf8");
    expect(html.split('id="gr-map-cells"').length - 1).toBe(1);
    expect(html.split('id="gr-player"').length - 1).toBe(1);
    expect((JSON.parse(read(html, "gr-player")) as PlayerMeta).cells).toBeUndefined();
    const table = JSON.parse(gunzipSync(Buffer.from(JSON.parse(read(html, "gr-map-cells")) as string, "base64")).toString("utf8")) as Record<string, unknown>;
    const chunks = chunksOf(html);
    const maps = chunks.flatMap(mapsOf);
    expect(maps.length).toBeGreaterThan(100);
    for (const m of maps) {
      expect(m).not.toHaveProperty("landPath");
      expect(m.prims.some((p) => p.t === "inset" && "landPath" in p)).toBe(false);
      const frames = [{ frame: m.frame, w: m.size, h: m.size }, ...m.prims.flatMap((p) => (p.t === "inset" ? [{ frame: p.frame, w: p.w, h: p.h }] : []))];
      for (const f of frames)
        for (const ref of cellsFor(atlasFor(f.frame), mapProjection(f.frame, f.w, f.h).view)) expect(ref.key in table, ref.key).toBe(true);
    }
  });

  it("its chunks are a fraction of what they were with each map's land and borders in them", () => {
    const chunks = chunksOf(readFileSync(board, "utf8"));
    const inline = (m: MapSpec): MapSpec => {
      const r = mapRings(m.frame, m.size, m.size, readMapCell);
      return { ...m, landPath: svgPath(r.land, m.size, m.size, true), bordersPath: svgPath(r.borders, m.size, m.size, false) };
    };
    // Each chunk as it was: its maps with their path data (the compare table's once per frame, as before).
    const before = chunks.map((c) => ({
      ...c,
      maps: c.maps?.map(inline),
      episodes: c.episodes.map((e) => ({ ...e, outcomeMap: e.outcomeMap && inline(e.outcomeMap) })),
      compare: c.compare && {
        ...c.compare,
        paints: c.compare.paints.map((p) => inline({ ...p, size: PAGE_MAP_SIZE, prims: [], has: { guess: false, truth: false, pins: false } })),
      },
    }));
    const gz = (v: unknown) => gzipSync(JSON.stringify(v), { level: 9 }).length;
    const now = chunks.reduce((n, c) => n + gz(c), 0);
    const was = before.reduce((n, c) => n + gz(c), 0);
    expect(now).toBeLessThan(was / 3);
  });
});
