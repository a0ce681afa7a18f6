/**
 * The rollout MP4: the Remotion composition rendered by real Chromium from
 * the real frame generator's output, checked with ffprobe, and stills
 * compared with the generator's frame files (viewport) and with reviewed
 * golden images (layout: HUD, trace pane, map, score card).
 *
 * Update goldens after a reviewed layout change: UPDATE_GOLDEN=1 npx vitest run test/render.test.ts
 */
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, chmodSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import pixelmatch from "pixelmatch";
import { PNG } from "pngjs";
import React from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { MIXED, ROOT, TRIESTE, runCli } from "./helpers.ts";
import { execFileSync } from "node:child_process";
import { generateFrames } from "../replay/frames/frames.ts";
import type { Timeline } from "../replay/timeline/timeline-schema.ts";
import { openSession, type RenderSession } from "../src/mp4/session.ts";
import { resolveBrowser, BROWSER_ENV } from "../src/mp4/browser.ts";
import { probeVideo, resolveFfmpeg, resolveFfprobe } from "../src/mp4/ffmpeg.ts";
import { parseSize } from "../src/mp4/size.ts";
import { GeoreplayError } from "../replay/io/errors.ts";
import { rolloutLayout, type Rect } from "../video/layout.ts";
import { creditLine, licenceLabel, panoramaOnScreen, recordedMapFiles, segmentAt, viewportAt } from "../video/lookup.ts";
import { revealFrame, pinsFrame, separationDeg, WORLD_FRAME } from "../video/geo-frame.ts";
import * as pageGeo from "../src/page/geo.ts";
import { TracePane } from "../video/scenes/TracePane.tsx";
import { Hud, hudValues } from "../video/scenes/Hud.tsx";
import { provenance } from "../video/Rollout.tsx";
import type { RolloutProps } from "../video/props.ts";
import { PLACEHOLDER } from "../video/placeholder.ts";

const GOLDEN = join(ROOT, "test", "golden");
const UPDATE = process.env.UPDATE_GOLDEN === "1";
const tmp = mkdtempSync(join(tmpdir(), "georeplay-render-test-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const triesteArgs = [join(TRIESTE, "episodes.jsonl"), "--episode", "#1", "--tasks", join(TRIESTE, "tasks.jsonl"), "--panos", join(TRIESTE, "panos")];

// ---------- pure parts ----------

describe("options and resolvers", () => {
  it("parses even sizes and rejects odd or malformed ones with a reason", () => {
    expect(parseSize("1280x720")).toEqual({ width: 1280, height: 720 });
    expect(parseSize(" 854X480 ")).toEqual({ width: 854, height: 480 });
    expect(() => parseSize("1281x720")).toThrow(/width must be even/);
    expect(() => parseSize("1280x")).toThrow(/WIDTHxHEIGHT/);
    expect(() => parseSize("8x8")).toThrow(/between 16 and 7680/);
  });

  it("finds Chromium from the env var, then the system path, else names apt-get install chromium", () => {
    expect(resolveBrowser({}, ["/usr/bin/chromium"])).toBe("/usr/bin/chromium");
    const fake = join(tmp, "my-chrome");
    writeFileSync(fake, "#!/bin/sh\n");
    chmodSync(fake, 0o755);
    expect(resolveBrowser({ [BROWSER_ENV]: fake }, [])).toBe(fake);
    expect(() => resolveBrowser({ [BROWSER_ENV]: join(tmp, "missing") }, ["/usr/bin/chromium"])).toThrow(/GEOREPLAY_CHROMIUM=.*no such file/);
    let err: unknown;
    try {
      resolveBrowser({}, [join(tmp, "nowhere", "chromium")]);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(GeoreplayError);
    expect((err as Error).message).toMatch(/apt-get install chromium/);
  });

  it("finds ffmpeg and ffprobe (ffmpeg-static if installed, else Remotion's compositor, else the system)", () => {
    const ff = resolveFfmpeg();
    expect(existsSync(ff.path)).toBe(true);
    expect(["ffmpeg-static", "remotion", "system"]).toContain(ff.source);
    expect(existsSync(resolveFfprobe().path)).toBe(true);
  });
});

describe("composition maths", () => {
  it("frames the reveal map like the environment", () => {
    const far = revealFrame([48.85, 2.35], [-33.87, 151.2]);
    expect(far).toEqual({ center: [-33.87, 151.2], halfWidthDeg: 12 });
    const near = revealFrame([45.6471, 13.7758], [45.6499, 13.7689]);
    const sep = separationDeg([45.6471, 13.7758], [45.6499, 13.7689]);
    expect(near.halfWidthDeg).toBeCloseTo(Math.max(0.05, 0.75 * sep + 0.4), 12);
    expect(near.center[0]).toBeCloseTo((45.6471 + 45.6499) / 2, 12);
    expect(near.center[1]).toBeCloseTo((13.7758 + 13.7689) / 2, 12);
    // Across the antimeridian the midpoint is on the short side.
    expect(Math.abs(revealFrame([0, 179], [0, -179]).center[1])).toBeCloseTo(180, 9);
    expect(pinsFrame([[45.6, 13.7]]).center).toEqual([45.6, 13.7]);
    // Before the first pin the map shows the world.
    expect(pinsFrame([])).toEqual(WORLD_FRAME);
  });

  it("frames maps with the same rule as the page (one source: replay/rules/map-frame.ts)", () => {
    expect(revealFrame).toBe(pageGeo.revealFrame);
    expect(separationDeg).toBe(pageGeo.separationDeg);
    const pins: [number, number][] = [
      [45.6, 13.7],
      [46.1, 14.5],
    ];
    expect(pinsFrame(pins)).toEqual(pageGeo.pinsFrame(pins));
  });

  it("credits the imagery with the creator and a readable licence", () => {
    expect(licenceLabel("CC-BY-SA-4.0")).toBe("CC BY-SA 4.0");
    expect(licenceLabel("custom")).toBe("custom");
  });

  it("shows model replies as text, never as markup, and marks failed turns", () => {
    const hostile = {
      turn: 2,
      status: "ok",
      failed: false,
      actionName: "look",
      toolCall: "look(heading_deg=90)",
      reply: `<script>alert(1)</script><img src=x onerror=alert(2)> **bold**`,
      reasoning: null,
      feedback: "<b>fb</b>",
      tokensIn: 1,
      tokensOut: 2,
      latencyS: 0.5,
      errors: [],
    };
    const failed = {
      turn: 1,
      status: "unparseable",
      failed: true,
      actionName: null,
      toolCall: null,
      reply: "no json here",
      reasoning: null,
      feedback: null,
      tokensIn: null,
      tokensOut: null,
      latencyS: null,
      errors: ["no action found"],
    };
    const pane = (activeTurn: number) =>
      renderToStaticMarkup(
        React.createElement(TracePane, { trace: [failed, hostile], activeTurn, width: 600, height: 500, progress: 0.5, offset: 10, unit: 1 }),
      );
    const html = pane(2);
    expect(html).not.toMatch(/<script|<img|<b>/);
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain("&lt;b&gt;fb&lt;/b&gt;");
    expect(html).toMatch(/✗ unparseable/); // the failed past turn is marked
    const active = pane(1);
    expect(active).toMatch(/✗ unparseable/);
    expect(active).toContain("no action parsed: no action found");
  });
  it("shows — for HUD fields the recording does not hold, never a made-up zero", () => {
    const hud = {
      heading: 12,
      pitch: 0,
      fov: 90,
      stepsRemaining: 7,
      cost: 0.05,
      frameIndex: 0,
      metres: 0,
      unknown: ["pitch" as const, "frameIndex" as const, "metres" as const],
    };
    expect(Object.fromEntries(hudValues(hud))).toEqual({ Heading: "012°", FOV: "90°", Pitch: "—", "Actions left": "7", Cost: "0.05", Walked: "—" });
    const known = { ...hud, unknown: undefined };
    expect(Object.fromEntries(hudValues(known))).toMatchObject({ Pitch: "+0°", Walked: "0.0 m" });
    const html = renderToStaticMarkup(React.createElement(Hud, { hud, width: 600, unit: 1 }));
    expect(html).not.toContain("+0°");
    expect(html).not.toContain(" m<");
  });

  it("says why a training turn has no reply, and still shows its tool call and feedback", () => {
    const turn = {
      turn: 2,
      status: "ok",
      failed: false,
      actionName: "look",
      toolCall: "look(heading_deg=90)",
      reply: null,
      reasoning: null,
      feedback: "Facing 90 deg.",
      tokensIn: null,
      tokensOut: null,
      latencyS: null,
      errors: [],
    };
    const html = renderToStaticMarkup(
      React.createElement(TracePane, {
        trace: [turn],
        activeTurn: 2,
        width: 600,
        height: 500,
        progress: 0.9,
        offset: 20,
        unit: 1,
        noReply: "training traces keep no model reply, only the parsed tool call",
      }),
    );
    expect(html).toContain("(no reply recorded: training traces keep no model reply, only the parsed tool call)");
    expect(html).toContain("▶ look(heading_deg=90)");
    expect(html).toContain("◀ Facing 90 deg.");
  });
});

// ---------- the real generator, Remotion and Chromium ----------

let timeline: Timeline;
/** An example-rollout episode: a slideshow of recorded images (view images and map .png files). */
let slideshow: Timeline;
/** A GRPO training rollout: a verified replay whose trace has no replies. */
let train: Timeline;
let publicDir: string;
let session: RenderSession;

beforeAll(async () => {
  publicDir = join(tmp, "public");
  // All three into the one public dir before bundling (the bundle copies it).
  slideshow = (await generateFrames({ episodes: [join(ROOT, "test", "fixtures", "example-rollout")], episode: "#3", publicDir, fps: 30, jobs: 1 })).timeline;
  train = (
    await generateFrames({
      episodes: [join(ROOT, "test", "fixtures", "train-rollouts.jsonl")],
      episode: "train-rollouts-L1",
      tasks: join(MIXED, "tasks.jsonl"),
      panos: join(MIXED, "panos"),
      publicDir,
      fps: 30,
      jobs: 1,
    })
  ).timeline;
  const r = await generateFrames({
    episodes: [join(TRIESTE, "episodes.jsonl")],
    episode: "#1",
    tasks: join(TRIESTE, "tasks.jsonl"),
    panos: join(TRIESTE, "panos"),
    publicDir,
    fps: 30,
    jobs: 1,
  });
  timeline = r.timeline;
  session = await openSession({ publicDir, browserExecutable: resolveBrowser() });
}, 600_000);
afterAll(async () => {
  await session?.close();
});

async function still(frame: number, props: Partial<RolloutProps> = {}, base: Timeline = timeline): Promise<PNG> {
  const file = join(tmp, `still-${frame}-${Math.random().toString(36).slice(2)}.png`);
  await session.renderStillPng("Rollout", { ...base, ...props }, frame, file);
  return PNG.sync.read(readFileSync(file));
}

async function crop(png: PNG, r: Rect): Promise<Buffer> {
  return sharp(PNG.sync.write(png)).extract({ left: r.x, top: r.y, width: r.width, height: r.height }).removeAlpha().raw().toBuffer();
}

function psnr(a: Buffer, b: Buffer): number {
  let se = 0;
  for (let i = 0; i < a.length; i++) se += (a[i] - b[i]) ** 2;
  const mse = se / a.length;
  return mse === 0 ? Infinity : 10 * Math.log10((255 * 255) / mse);
}

/** The generator's frame file, scaled to the on-screen viewport size the way a browser would (roughly). */
async function frameFileAt(file: string, r: Rect): Promise<Buffer> {
  return sharp(join(publicDir, timeline.framesDir, file))
    .resize(r.width, r.height, { kernel: "lanczos3" })
    .removeAlpha()
    .raw()
    .toBuffer();
}

/** First frame of the n-th segment of a kind, plus an offset. */
function frameIn(kind: string, offset: number, nth = 0, t: Timeline = timeline): number {
  const segs = t.segments.filter((s) => s.kind === kind);
  const s = segs[nth];
  expect(s, `a ${kind} segment`).toBeDefined();
  return s.startFrame + Math.min(offset, s.durationFrames - 1);
}

describe("Rollout metadata", () => {
  it("takes duration and fps from the timeline, size from the optional output prop (default 1280x720)", async () => {
    const c = await session.select("Rollout", timeline);
    expect([c.durationInFrames, c.fps, c.width, c.height]).toEqual([timeline.totalFrames, timeline.fps, 1280, 720]);
    const small = await session.select("Rollout", { ...timeline, output: { width: 640, height: 360 } });
    expect([small.width, small.height]).toEqual([640, 360]);
    const trivial = await session.select("Trivial", timeline);
    expect([trivial.durationInFrames, trivial.width, trivial.height]).toEqual([timeline.totalFrames, 1280, 720]);
  });

  it("without a timeline (Studio, no --props) previews the one in the public dir", async () => {
    const c = await session.select("Rollout", PLACEHOLDER);
    expect(c.durationInFrames).toBe(timeline.totalFrames);
    expect((c.props as RolloutProps).episode.episodeId).toBe(timeline.episode.episodeId);
  });

  it("rejects props that are not a timeline, naming the field", async () => {
    await expect(session.select("Rollout", { ...timeline, fps: -3 } as RolloutProps)).rejects.toThrow(/fps/);
  });
});

describe("Rollout stills", () => {
  it("shows the generator's frame file in the viewport (camera motion, keyframe, crossfade)", async () => {
    const L = rolloutLayout(1280, 720, timeline.viewport);
    const cam = timeline.segments.find((s) => s.kind === "camera" && s.frames.length > 4)!;
    for (const f of [cam.startFrame + 3, cam.startFrame + cam.keyframe!.offset]) {
      const png = await still(f);
      const pos = segmentAt(timeline.segments, f);
      const view = viewportAt(timeline.segments, pos);
      expect(view.blend).toBeNull();
      const got = await crop(png, L.viewport);
      const want = await frameFileAt(view.file!, L.viewport);
      expect(psnr(got, want), `frame ${f} viewport vs ${view.file}`).toBeGreaterThan(30);
      // And it is not just any panorama frame: a different file compares much worse.
      const other = await frameFileAt(timeline.segments[0].frames[0], L.viewport);
      if (view.file !== timeline.segments[0].frames[0]) expect(psnr(got, other)).toBeLessThan(psnr(got, want) - 3);
    }
    const move = timeline.segments.find((s) => s.kind === "move" && s.crossfade)!;
    const cf = move.crossfade!;
    const mid = move.startFrame + Math.floor(cf.blendFrames / 2) - 1;
    const a = Math.floor(cf.blendFrames / 2) / cf.blendFrames;
    const got = await crop(await still(mid), L.viewport);
    const from = await frameFileAt(cf.from, L.viewport);
    const to = await frameFileAt(cf.to, L.viewport);
    const blend = Buffer.from(from.map((v, i) => Math.round(v * (1 - a) + to[i] * a)));
    expect(psnr(got, blend), "crossfade mid-frame vs the blend of both frame files").toBeGreaterThan(30);
  });

  const square = { output: { width: 1080, height: 1080 } };
  const goldens: [string, () => number, Partial<RolloutProps>?, (() => Timeline)?][] = [
    ["opening", () => frameIn("opening", 20)],
    ["camera", () => frameIn("camera", 60, 1)],
    ["map", () => frameIn("map", 30)],
    ["move", () => frameIn("move", 40)],
    ["score", () => frameIn("score", 80)],
    // Square and portrait videos stack the panel under the viewport.
    ["square-camera", () => frameIn("camera", 60, 1), square],
    ["square-score", () => frameIn("score", 80), square],
    // A slideshow: the RECORDED IMAGES label in the header, "—" for the HUD fields it does not record.
    ["slideshow-camera", () => frameIn("camera", 40, 1, slideshow), {}, () => slideshow],
    // A recorded map image: no imagery credit under it.
    ["slideshow-map", () => frameIn("map", 30, 0, slideshow), {}, () => slideshow],
    // A training rollout: the tool call and feedback, and why there is no reply.
    ["train-camera", () => frameIn("camera", 40, 0, train), {}, () => train],
  ];
  for (const [name, pick, props, base] of goldens) {
    it(`matches the reviewed layout: ${name}`, async () => {
      const png = await still(pick(), props, base?.());
      const file = join(GOLDEN, `rollout-${name}.png`);
      if (UPDATE) {
        mkdirSync(GOLDEN, { recursive: true });
        writeFileSync(file, PNG.sync.write(png));
      }
      expect(existsSync(file), `${file} (create with UPDATE_GOLDEN=1 and review it)`).toBe(true);
      const want = PNG.sync.read(readFileSync(file));
      expect([png.width, png.height]).toEqual([want.width, want.height]);
      const diffImg = new PNG({ width: png.width, height: png.height });
      const diff = pixelmatch(png.data, want.data, diffImg.data, png.width, png.height, { threshold: 0.1 });
      // Per region, so one wrong number in the HUD or the score card fails, not only a missing
      // panel. Renders here are pixel-identical run to run (0 differing pixels); one changed
      // glyph is roughly 40-100 pixels; the small allowance is for another machine's rasteriser.
      const w = props?.output?.width ?? 1280;
      const h = props?.output?.height ?? 720;
      const L = rolloutLayout(w, h, (base?.() ?? timeline).viewport);
      const whole: [string, Rect] = ["whole", { x: 0, y: 0, width: w, height: h }];
      const regions: [string, Rect][] = name.includes("score")
        ? [whole] // the score card has its own layout
        : [["header", L.header], ["viewport", L.viewportBox], ["credit", L.credit], ["hud", L.hud], ["trace", L.trace], whole];
      for (const [region, r] of regions) {
        let n = 0;
        for (let y = r.y; y < Math.min(h, r.y + r.height); y++) {
          for (let x = r.x; x < Math.min(w, r.x + r.width); x++) if (diffImg.data[(y * w + x) * 4] === 255 && diffImg.data[(y * w + x) * 4 + 1] === 0) n++;
        }
        expect(n, `${name}: differing pixels in the ${region} region (whole image: ${diff})`).toBeLessThanOrEqual(region === "whole" ? 60 : 30);
      }
    });
  }

  it("says UNVERIFIED REPLAY on every kind of frame of an unverified timeline, and credits imagery only with a panorama", async () => {
    const L = rolloutLayout(1280, 720, timeline.viewport);
    const banner: Rect = { x: 540, y: 0, width: 200, height: 24 };
    const isRed = (px: Buffer) => {
      let red = 0;
      for (let i = 0; i < px.length; i += 3) if (px[i] > 150 && px[i + 1] < 70 && px[i + 2] < 70) red++;
      return red / (px.length / 3);
    };
    const unverified = { episode: { ...timeline.episode, verified: false } };
    for (const f of [frameIn("opening", 5), frameIn("camera", 10), frameIn("score", 60)]) {
      expect(isRed(await crop(await still(f, unverified), banner)), `banner at frame ${f}`).toBeGreaterThan(0.3);
      expect(isRed(await crop(await still(f), banner)), `no banner at frame ${f} when verified`).toBeLessThan(0.01);
    }
    // Credit line: text pixels in its box while the panorama shows, none on the score card.
    const ink = (px: Buffer) => px.reduce((n, v) => n + (v > 100 ? 1 : 0), 0);
    expect(ink(await crop(await still(frameIn("camera", 10)), L.credit))).toBeGreaterThan(100);
    expect(ink(await crop(await still(frameIn("score", 60)), L.credit))).toBe(0);
    expect(creditLine(timeline)).toBe("Imagery: mircozorzo / Mapillary, CC BY-SA 4.0");
  });
});

describe("slideshow and training-rollout stills", () => {
  const bannerRect: Rect = { x: 540, y: 0, width: 200, height: 24 };
  /** Share of pixels near a colour (the banners are flat fills). */
  const share = (px: Buffer, rgb: [number, number, number]) => {
    let n = 0;
    for (let i = 0; i < px.length; i += 3) if (Math.abs(px[i] - rgb[0]) + Math.abs(px[i + 1] - rgb[1]) + Math.abs(px[i + 2] - rgb[2]) < 30) n++;
    return n / (px.length / 3);
  };
  const RED: [number, number, number] = [0xb3, 0x26, 0x1e];
  const BLUE: [number, number, number] = [0x2f, 0x5d, 0x8a];

  it("the timelines are what these tests are about", () => {
    expect(slideshow.episode).toMatchObject({ source: "slideshow", verified: false, recordFormat: "example" });
    expect(slideshow.segments.every((s) => s.hud.every((h) => (h.unknown ?? []).includes("pitch") && (h.unknown ?? []).includes("metres")))).toBe(true);
    expect(train.episode).toMatchObject({ source: "replay", verified: true, recordFormat: "train" });
    expect(train.trace.every((e) => e.reply === null)).toBe(true);
  });

  it("a slideshow is labelled RECORDED IMAGES · NOT A REPLAY on every kind of frame, never UNVERIFIED REPLAY", async () => {
    const L = rolloutLayout(1280, 720, slideshow.viewport);
    // The label sits at the right of the header; on the score card, top right.
    const headerRight: Rect = { x: L.header.x + L.header.width - 420, y: L.header.y, width: 420, height: L.header.height };
    const scoreTopRight: Rect = { x: 880, y: 0, width: 384, height: 28 };
    for (const f of [
      frameIn("opening", 5, 0, slideshow),
      frameIn("camera", 10, 0, slideshow),
      frameIn("map", 20, 0, slideshow),
      frameIn("hold", 5, 0, slideshow),
      frameIn("score", 60, 0, slideshow),
    ]) {
      const png = await still(f, {}, slideshow);
      expect(share(await crop(png, bannerRect), RED), `no UNVERIFIED banner at frame ${f}`).toBeLessThan(0.01);
      const onScore = segmentAt(slideshow.segments, f).segment.kind === "score";
      expect(share(await crop(png, onScore ? scoreTopRight : headerRight), BLUE), `slideshow label at frame ${f}`).toBeGreaterThan(0.25);
    }
    // The intro says what the pictures are.
    expect(provenance(slideshow.episode)).toMatch(/images the environment recorded.*nothing is re-rendered, and nothing is verified/);
    // An unverified replay keeps its red banner and has no slideshow label.
    const png = await still(frameIn("camera", 10), { episode: { ...timeline.episode, verified: false } });
    expect(share(await crop(png, bannerRect), RED)).toBeGreaterThan(0.3);
    expect(share(await crop(png, headerRight), BLUE)).toBeLessThan(0.01);
  });

  it("a slideshow credits the imagery while a panorama shows, not over a recorded map image", async () => {
    const L = rolloutLayout(1280, 720, slideshow.viewport);
    const maps = recordedMapFiles(slideshow);
    const mapSeg = slideshow.segments.find((s) => s.kind === "map")!;
    expect(maps.has(mapSeg.frames[0])).toBe(true);
    expect(maps.has(slideshow.segments[0].frames[0])).toBe(false); // the opening view
    expect(recordedMapFiles(timeline).size).toBe(0); // a replay draws its maps itself
    // Mid-crossfade from a view into the map both show, so the credit stays until the map is alone.
    const cf = mapSeg.crossfade!;
    expect(panoramaOnScreen(viewportAt(slideshow.segments, { index: slideshow.segments.indexOf(mapSeg), segment: mapSeg, offset: 2 }), maps)).toBe(true);
    const ink = (px: Buffer) => px.reduce((n, v) => n + (v > 100 ? 1 : 0), 0);
    expect(ink(await crop(await still(frameIn("camera", 20, 0, slideshow), {}, slideshow), L.credit))).toBeGreaterThan(100);
    expect(ink(await crop(await still(mapSeg.startFrame + cf.blendFrames + 2, {}, slideshow), L.credit))).toBe(0);
  });

  it("a slideshow whose images a later episode overwrote says so over the viewport", async () => {
    const L = rolloutLayout(1280, 720, slideshow.viewport);
    const f = frameIn("camera", 20, 0, slideshow);
    const strip: Rect = { x: L.viewportBox.x, y: L.viewportBox.y + L.viewportBox.height - 28, width: L.viewportBox.width, height: 28 };
    const accent = (px: Buffer) => share(px, [0xe8, 0xb5, 0x4a]);
    const plain = accent(await crop(await still(f, {}, slideshow), strip));
    const noted = accent(await crop(await still(f, { episode: { ...slideshow.episode, imagesOverwritten: true } }, slideshow), strip));
    expect(noted, "accent-coloured note text over the bottom of the viewport").toBeGreaterThan(plain + 0.02);
  });
});

// ---------- the command ----------

describe("georeplay render", () => {
  it("renders a real MP4: h264, yuv420p, the timeline's frame count and duration, even size, faststart, nothing left behind", async () => {
    const outDir = join(tmp, "out");
    // Short: Chromium's socket path under TMPDIR must stay within 107 bytes.
    const childTmp = mkdtempSync("/tmp/grt-");
    onTestFinished(() => rmSync(childTmp, { recursive: true, force: true }));
    mkdirSync(outDir, { recursive: true });
    const out = join(outDir, "trieste.mp4");
    const r = runCli(["render", ...triesteArgs, "-o", out, "--fps", "10", "--size", "640x360", "--jobs", "1", "--json"], {
      env: { TMPDIR: childTmp },
      timeoutMs: 600_000,
    });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    // The same episode at 10 fps, from the generator directly: the video must have exactly its frames.
    const t10 = (
      await generateFrames({
        episodes: [join(TRIESTE, "episodes.jsonl")],
        episode: "#1",
        tasks: join(TRIESTE, "tasks.jsonl"),
        panos: join(TRIESTE, "panos"),
        publicDir: join(tmp, "p10"),
        fps: 10,
        jobs: 1,
      })
    ).timeline;
    const p = probeVideo(out);
    expect(p.codec).toBe("h264");
    expect(p.pixFmt).toBe("yuv420p");
    expect(p.colorSpace).toBe("bt709");
    expect([p.width, p.height]).toEqual([640, 360]);
    expect((p.width % 2) + (p.height % 2)).toBe(0);
    expect(p.fps).toBe(10);
    expect(p.frames).toBe(t10.totalFrames);
    expect(p.durationS).toBeCloseTo(t10.totalFrames / 10, 1);
    expect(p.faststart).toBe(true);
    // --json: exactly one object on stdout, its fields as documented, agreeing with the file.
    const report = JSON.parse(r.stdout);
    expect(report).toEqual({
      out,
      bytes: statSync(out).size,
      width: 640,
      height: 360,
      fps: 10,
      frames: p.frames,
      seconds: Math.round((t10.totalFrames / 10) * 1000) / 1000,
      codec: "h264",
      pix_fmt: "yuv420p",
      episode_id: t10.episode.episodeId,
      format: "eval",
      source: "replay",
      verified: true,
      views: { checked: 8, match: 8, resolved: 0, mismatch: 0 },
    });
    expect(r.stdout.trim().split("\n").at(-1)).toBe("}"); // nothing after it
    expect(readdirSync(outDir)).toEqual(["trieste.mp4"]); // no temp file beside it
    expect(readdirSync(childTmp)).toEqual([]); // bundle, Chromium profile, frame files: all removed
  }, 900_000);

  it("refuses a drifted episode (exit 1, no file) unless --unverified, which marks every frame UNVERIFIED REPLAY", () => {
    const outDir = mkdtempSync("/tmp/gru-");
    try {
      const args = [
        "render",
        join(MIXED, "episodes.jsonl"),
        "--episode",
        "0ec192c0f90d",
        "--tasks",
        join(MIXED, "tasks.jsonl"),
        "--panos",
        join(MIXED, "panos"),
        "--jobs",
        "1",
      ];
      const out = join(outDir, "drift.mp4");
      const refused = runCli([...args, "-o", out]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/turn 5/);
      expect(readdirSync(outDir)).toEqual([]);
      const r = runCli([...args, "-o", out, "--unverified", "--fps", "5", "--size", "480x270"], { timeoutMs: 600_000 });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain("UNVERIFIED REPLAY");
      const p = probeVideo(out);
      expect([p.codec, p.pixFmt, p.width, p.height]).toEqual(["h264", "yuv420p", 480, 270]);
      // Every video frame: the red banner at the top centre (decoded and cropped by ffmpeg; its
      // cut-down build has the png encoder and image2 muxer, not rawvideo output).
      const framesDir = join(outDir, "png");
      mkdirSync(framesDir);
      execFileSync(resolveFfmpeg().path, [
        "-v",
        "error",
        "-i",
        out,
        "-vf",
        "crop=100:10:190:0",
        "-c:v",
        "png",
        "-pix_fmt",
        "rgb24",
        join(framesDir, "f%05d.png"),
      ]);
      const pngs = readdirSync(framesDir).sort();
      expect(pngs.length).toBe(p.frames);
      for (const name of pngs) {
        const img = PNG.sync.read(readFileSync(join(framesDir, name)));
        let red = 0;
        for (let i = 0; i < img.data.length; i += 4) if (img.data[i] > 140 && img.data[i + 1] < 80 && img.data[i + 2] < 80) red++;
        expect(red / (img.width * img.height), `banner in ${name}`).toBeGreaterThan(0.3);
      }
    } finally {
      rmSync(outDir, { recursive: true, force: true });
    }
  }, 900_000);

  it("renders an example-rollout episode as a slideshow of its recorded images, without --tasks/--panos", async () => {
    const outDir = mkdtempSync("/tmp/gre-");
    try {
      const input = join(ROOT, "test", "fixtures", "example-rollout");
      const out = join(outDir, "example.mp4");
      const r = runCli(["render", input, "--episode", "#3", "-o", out, "--fps", "5", "--size", "640x360", "--jobs", "1"], { timeoutMs: 600_000 });
      expect(r.code, r.stderr).toBe(0);
      const t = (await generateFrames({ episodes: [input], episode: "#3", publicDir: join(outDir, "p"), fps: 5, jobs: 1 })).timeline;
      expect(t.episode.source).toBe("slideshow");
      const p = probeVideo(out);
      expect(p).toMatchObject({ codec: "h264", pixFmt: "yuv420p", width: 640, height: 360, fps: 5, frames: t.totalFrames });
    } finally {
      rmSync(outDir, { recursive: true, force: true });
    }
  }, 900_000);

  it("refuses bad options before doing any work, with exit 2 and a reason", () => {
    const out = join(tmp, "bad", "x.mp4");
    const odd = runCli(["render", ...triesteArgs, "-o", out, "--size", "641x360"]);
    expect(odd.code).toBe(2);
    expect(odd.stderr).toMatch(/width must be even/);
    const notMp4 = runCli(["render", ...triesteArgs, "-o", join(tmp, "bad", "x.webm")]);
    expect(notMp4.code).toBe(2);
    expect(notMp4.stderr).toMatch(/must be an \.mp4 file/);
    const noChrome = runCli(["render", ...triesteArgs, "-o", out], { env: { [BROWSER_ENV]: join(tmp, "no-such-chrome") } });
    expect(noChrome.code).toBe(2);
    expect(noChrome.stderr).toMatch(/GEOREPLAY_CHROMIUM=.*no such file/);
    expect(noChrome.stderr).not.toMatch(/\n\s+at /); // no stack trace
    const noEpisode = runCli([
      "render",
      join(TRIESTE, "episodes.jsonl"),
      "--episode",
      "nope",
      "--tasks",
      join(TRIESTE, "tasks.jsonl"),
      "--panos",
      join(TRIESTE, "panos"),
      "-o",
      out,
    ]);
    expect(noEpisode.code).toBe(2);
    expect(noEpisode.stderr).toMatch(/not found/);
    const noTasks = runCli(["render", join(TRIESTE, "episodes.jsonl"), "--episode", "#1", "-o", out]);
    expect(noTasks.code).toBe(2);
    expect(noTasks.stderr).toMatch(/--tasks and --panos are needed/);
    const bad = join(tmp, "bad");
    expect(!existsSync(bad) || readdirSync(bad).length === 0, "nothing written").toBe(true);
  });
});
