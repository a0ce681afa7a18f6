/**
 * Hold-aware rendering against a full render of every frame, through real
 * Chromium and Remotion's ffmpeg: every image handed to the encoder is the
 * full render's image for that frame number, and the two MP4s decode to the
 * same pictures within the encoder's noise.
 *
 * Pixel for pixel, not byte for byte: a full render is not reproducible in
 * the panorama viewport. Chromium downscales the frame files along one of
 * two paths depending on timing, so two full renders of the same timeline
 * differ there on about a third of the frames (by up to ~40 levels; frames
 * of one run of a full render are byte-identical). Outside the viewport the
 * decoded screenshots must be identical; inside, as close as two full
 * renders are to each other. Also the warm renderer:
 * two episodes through one bundle and browser, and cancellation.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execFileSync } from "node:child_process";
import { PNG } from "pngjs";
import sharp from "sharp";
import { FIXTURES, MIXED, TRIESTE } from "./helpers.ts";
import { generateFrames } from "../replay/frames/frames.ts";
import type { Timeline } from "../replay/timeline/timeline-schema.ts";
import { openSession, type RenderSession } from "../src/mp4/session.ts";
import { resolveBrowser } from "../src/mp4/browser.ts";
import { probeVideo, resolveFfmpeg } from "../src/mp4/ffmpeg.ts";
import { frameRuns } from "../src/mp4/frame-runs.ts";
import { openRenderer } from "../src/mp4/renderer.ts";
import { rolloutSignature } from "../video/frame-state.ts";
import { rolloutLayout, type Rect } from "../video/layout.ts";
import { FRAME_SIGNATURES } from "../video/signatures.ts";
import { compareSignature } from "../video/compare-state.ts";
import { compareLayout } from "../video/compare-layout.ts";
import { ComparePropsSchema } from "../video/compare-props.ts";
import { alignTimelines } from "../replay/timeline/align.ts";

const ARMS = join(FIXTURES, "arms");

const tmp = mkdtempSync(join(tmpdir(), "georeplay-hold-test-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const SIZE = { width: 480, height: 270 };

let timeline: Timeline;
let session: RenderSession;
let twoUp: [Timeline, Timeline];

beforeAll(async () => {
  const publicDir = join(tmp, "public");
  // 5 fps keeps the episode short (every segment kind, holds, the score card) for two renders.
  timeline = (
    await generateFrames({
      episodes: [join(TRIESTE, "episodes.jsonl")],
      episode: "#1",
      tasks: join(TRIESTE, "tasks.jsonl"),
      panos: join(TRIESTE, "panos"),
      publicDir,
      fps: 5,
      jobs: 1,
    })
  ).timeline;
  // base (11 turns) and ckpt200's pass 1 (8 turns) at eval #0: ckpt200 finishes first and holds.
  const gen = async (episode: string, dir: string) =>
    (
      await generateFrames({
        episodes: [ARMS],
        episode,
        tasks: join(MIXED, "tasks.jsonl"),
        panos: join(MIXED, "panos"),
        publicDir,
        out: join(publicDir, dir),
        fps: 5,
        jobs: 1,
      })
    ).timeline;
  twoUp = [await gen("d37a27bd393a", "two-a"), await gen("ff03ebd569bb", "two-b")];
  // The bundle copies the public dir: every frame file exists before it is made.
  session = await openSession({ publicDir, browserExecutable: resolveBrowser() });
}, 600_000);
afterAll(async () => {
  await session?.close();
});

describe("frame signature", () => {
  it("runs cover every frame once, and the Trieste episode at 30 fps holds on many frames", async () => {
    const t30 = (
      await generateFrames({
        episodes: [join(TRIESTE, "episodes.jsonl")],
        episode: "#1",
        tasks: join(TRIESTE, "tasks.jsonl"),
        panos: join(TRIESTE, "panos"),
        publicDir: join(tmp, "p30"),
        fps: 30,
        jobs: 1,
      })
    ).timeline;
    const runs = frameRuns(t30.totalFrames, rolloutSignature(t30, { width: 1280, height: 720 }));
    expect(runs.lengths.reduce((a, b) => a + b, 0)).toBe(t30.totalFrames);
    expect(runs.frames[0]).toBe(0);
    for (let i = 1; i < runs.frames.length; i++) expect(runs.frames[i]).toBe(runs.frames[i - 1] + runs.lengths[i - 1]);
    expect(runs.frames.length).toBeLessThan(t30.totalFrames * 0.6);
    // Every segment starts a run; a moving camera never holds.
    for (const s of t30.segments) expect(runs.frames).toContain(s.startFrame);
    const cam = t30.segments.find((s) => s.kind === "camera" && s.motionFrames > 4)!;
    for (let f = cam.startFrame; f < cam.startFrame + cam.motionFrames; f++) expect(runs.frames).toContain(f);
    // The benchmark baseline has no signature of its own beyond "every frame".
    expect(frameRuns(10, FRAME_SIGNATURES.Trivial(t30, { width: 1280, height: 720 })).frames.length).toBe(10);
  }, 600_000);
});

/** Decodes an MP4 to one PNG per frame with Remotion's ffmpeg (its build has no psnr filter nor raw output). */
function decode(mp4: string, dir: string): PNG[] {
  mkdirSync(dir, { recursive: true });
  execFileSync(resolveFfmpeg().path, ["-v", "error", "-i", mp4, "-c:v", "png", "-pix_fmt", "rgb24", join(dir, "f%05d.png")]);
  return readdirSync(dir)
    .sort()
    .map((n) => PNG.sync.read(readFileSync(join(dir, n))));
}

function psnr(a: PNG, b: PNG): number {
  let se = 0;
  let n = 0;
  for (let i = 0; i < a.data.length; i += 4) {
    for (let c = 0; c < 3; c++) se += (a.data[i + c] - b.data[i + c]) ** 2;
    n += 3;
  }
  return se === 0 ? Infinity : 10 * Math.log10((255 * 255) / (se / n));
}

/** A rect grown to whole 16 px JPEG blocks (a block across its edge carries its noise) and 8 px more (chroma upsampling blends across block edges). */
function grownToBlocks(box: Rect): Rect {
  const near: Rect = { x: Math.floor(box.x / 16) * 16 - 8, y: Math.floor(box.y / 16) * 16 - 8, width: 0, height: 0 };
  near.width = Math.ceil((box.x + box.width) / 16) * 16 + 8 - near.x;
  near.height = Math.ceil((box.y + box.height) / 16) * 16 + 8 - near.y;
  return near;
}

/**
 * Renders `composition` in full and hold-aware, and checks every encoder input against the full
 * render's for that frame: identical outside the panorama viewports, within two full renders'
 * difference inside them; then both MP4s: H.264, every frame, equal within the encoder's noise.
 */
async function expectHoldMatchesFull(
  composition: "Rollout" | "Compare",
  props: Parameters<RenderSession["renderHoldAware"]>[0]["props"],
  viewports: Rect[],
  expectedScreenshots: number,
  name: string,
): Promise<void> {
  const fullImages: Buffer[] = [];
  const holdImages: Buffer[] = [];
  const full = await session.renderHoldAware({
    composition,
    props,
    outputLocation: join(tmp, `${name}-full.mp4`),
    holds: false,
    onImage: (img, first, length) => {
      for (let k = 0; k < length; k++) fullImages[first + k] = img;
    },
  });
  const hold = await session.renderHoldAware({
    composition,
    props,
    outputLocation: join(tmp, `${name}-hold.mp4`),
    onImage: (img, first, length) => {
      for (let k = 0; k < length; k++) holdImages[first + k] = img;
    },
  });
  const total = full.frames;
  expect(full.rendered).toBe(total);
  expect(hold.rendered).toBeLessThan(total);
  expect(hold.rendered).toBe(expectedScreenshots);
  const near = viewports.map(grownToBlocks);
  const inside = (i: number) => {
    const x = i % SIZE.width;
    const y = Math.floor(i / SIZE.width);
    return near.some((r) => x >= r.x && x < r.x + r.width && y >= r.y && y < r.y + r.height);
  };
  let identical = 0;
  let worstViewport = Infinity;
  for (let f = 0; f < total; f++) {
    expect(fullImages[f], `full render image ${f}`).toBeDefined();
    expect(holdImages[f], `hold-aware image ${f}`).toBeDefined();
    if (fullImages[f].equals(holdImages[f])) {
      identical++;
      continue;
    }
    const a = await sharp(fullImages[f]).removeAlpha().raw().toBuffer();
    const b = await sharp(holdImages[f]).removeAlpha().raw().toBuffer();
    let outsideDiff = 0;
    let outsideMax = 0;
    const where: number[] = [1e9, 1e9, -1, -1];
    let se = 0;
    let n = 0;
    for (let i = 0; i < a.length / 3; i++) {
      for (let c = 0; c < 3; c++) {
        const d = a[i * 3 + c] - b[i * 3 + c];
        if (inside(i)) {
          se += d * d;
          n++;
        } else if (d !== 0) {
          outsideDiff++;
          outsideMax = Math.max(outsideMax, Math.abs(d));
          const x = i % SIZE.width;
          const y = Math.floor(i / SIZE.width);
          where[0] = Math.min(where[0], x);
          where[1] = Math.min(where[1], y);
          where[2] = Math.max(where[2], x);
          where[3] = Math.max(where[3], y);
        }
      }
    }
    expect(outsideDiff, `${name} frame ${f}: differing values outside the viewport (max ${outsideMax}, in ${where.join(",")})`).toBe(0);
    const db = se === 0 ? Infinity : 10 * Math.log10((255 * 255) / (se / n));
    worstViewport = Math.min(worstViewport, db);
    expect(db, `${name} frame ${f}: viewport PSNR against the full render (dB)`).toBeGreaterThan(33);
  }
  // The rest differ only where two full renders of the same timeline do.
  console.log(
    `${name} hold-aware vs full: ${hold.rendered}/${total} screenshots; ${identical}/${total} encoder inputs byte-identical, lowest viewport PSNR of the rest ${worstViewport.toFixed(1)} dB`,
  );

  for (const mp4 of [`${name}-full.mp4`, `${name}-hold.mp4`]) {
    const p = probeVideo(join(tmp, mp4));
    expect(p).toMatchObject({
      codec: "h264",
      pixFmt: "yuv420p",
      colorSpace: "bt709",
      width: SIZE.width,
      height: SIZE.height,
      fps: 5,
      frames: total,
      faststart: true,
    });
  }
  const a = decode(join(tmp, `${name}-full.mp4`), join(tmp, `${name}-dec-full`));
  const b = decode(join(tmp, `${name}-hold.mp4`), join(tmp, `${name}-dec-hold`));
  expect([a.length, b.length]).toEqual([total, total]);
  let worst = Infinity;
  for (let f = 0; f < total; f++) worst = Math.min(worst, psnr(a[f], b[f]));
  console.log(`${name} MP4s: lowest per-frame PSNR ${worst.toFixed(1)} dB`);
  expect(worst, "lowest per-frame PSNR between the two MP4s (dB)").toBeGreaterThan(33);
}

describe("hold-aware render", () => {
  it("hands the encoder exactly the full render's image for every frame, and the MP4s agree", async () => {
    const props = { ...timeline, output: SIZE };
    const box = rolloutLayout(SIZE.width, SIZE.height, timeline.viewport).viewportBox;
    await expectHoldMatchesFull("Rollout", props, [box], frameRuns(timeline.totalFrames, rolloutSignature(timeline, SIZE)).frames.length, "rollout");
  }, 900_000);

  it("two-up: the same for Compare (a side holding its guess while the other plays on, the score card)", async () => {
    const [a, b] = twoUp;
    const props = ComparePropsSchema.parse({
      version: 1,
      a: { timeline: a, arm: "base", pass: 0, label: "base" },
      b: { timeline: b, arm: "ckpt200", pass: 1, label: "ckpt200" },
      output: SIZE,
    });
    const clock = alignTimelines(a, b);
    expect(clock.turns[0]).not.toBe(clock.turns[1]); // one side holds while the other plays on
    const L = compareLayout(SIZE.width, SIZE.height, [a.viewport, b.viewport]);
    const runs = frameRuns(clock.totalFrames, compareSignature(props));
    await expectHoldMatchesFull("Compare", props, [L.columns[0].viewportBox, L.columns[1].viewportBox], runs.frames.length, "compare");
  }, 900_000);
});

/**
 * What a render added to the temp dir, after Chromium has had a moment to exit. Chromium's own
 * singleton folders (org.chromium.Chromium.*: SingletonCookie/Socket) are left by every
 * openBrowser/close, with or without this renderer, and are listed apart.
 */
async function leftInTmp(before: Set<string>): Promise<{ ours: string[]; chromiumSingletons: string[] }> {
  let added: string[] = [];
  for (let i = 0; i < 20; i++) {
    added = readdirSync(tmpdir()).filter((f) => !before.has(f));
    if (added.length === 0) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  const singleton = (f: string) => /^org\.chromium\.Chromium\./.test(f) && readdirSync(join(tmpdir(), f)).every((n) => n.startsWith("Singleton"));
  return { ours: added.filter((f) => !singleton(f)), chromiumSingletons: added.filter(singleton) };
}

describe("openRenderer", () => {
  const example = join(FIXTURES, "example-rollout");
  // A temp dir of their own (other processes on the machine use the shared one); short, since
  // Chromium's socket path under it must stay within 107 bytes.
  let privateTmp = "";
  const savedTmp = process.env.TMPDIR;
  beforeAll(() => {
    privateTmp = mkdtempSync("/tmp/grh-");
    process.env.TMPDIR = privateTmp;
  });
  afterAll(() => {
    if (savedTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = savedTmp;
    rmSync(privateTmp, { recursive: true, force: true });
  });

  it("renders several episodes with one bundle and one browser, and removes everything on close", async () => {
    const before = new Set(readdirSync(tmpdir()));
    const renderer = openRenderer();
    const outs = [join(tmp, "r", "a.mp4"), join(tmp, "r", "b.mp4")];
    try {
      const ra = await renderer.renderEpisode({ episodes: [example], episode: "#3", out: outs[0], fps: 5, size: { width: 320, height: 180 }, jobs: 1 });
      const session = await renderer.ready();
      const rb = await renderer.renderEpisode({ episodes: [example], episode: "#1", out: outs[1], fps: 5, size: { width: 320, height: 180 }, jobs: 1 });
      expect(await renderer.ready()).toBe(session); // the same bundle and browser
      for (const [r, out] of [
        [ra, outs[0]],
        [rb, outs[1]],
      ] as const) {
        expect(probeVideo(out)).toMatchObject({ codec: "h264", pixFmt: "yuv420p", width: 320, height: 180, frames: r.frames });
        expect(r.screenshots).toBeLessThan(r.frames);
      }
    } finally {
      await renderer.close();
    }
    expect(readdirSync(join(tmp, "r")).sort()).toEqual(["a.mp4", "b.mp4"]);
    const left = await leftInTmp(before);
    expect(left.ours, "bundle, frame files, profiles: all removed").toEqual([]);
    expect(left.chromiumSingletons.length, "one browser for both renders").toBeLessThanOrEqual(1);
  }, 900_000);

  it("an aborted render rejects, leaves nothing at the output path and no temp folders", async () => {
    const before = new Set(readdirSync(tmpdir()));
    const outDir = join(tmp, "aborted");
    const out = join(outDir, "x.mp4");
    const ac = new AbortController();
    const renderer = openRenderer({ signal: ac.signal });
    let rendering = false;
    const p = renderer.renderEpisode({
      episodes: [example],
      episode: "#3",
      out,
      fps: 10,
      size: { width: 320, height: 180 },
      jobs: 1,
      signal: ac.signal,
      onProgress: (stage, done) => {
        if (stage === "render" && done >= 5 && !rendering) {
          rendering = true;
          ac.abort(new Error("stop"));
        }
      },
    });
    await expect(p).rejects.toThrow();
    await renderer.close();
    expect(rendering, "it was mid-render when aborted").toBe(true);
    expect(existsSync(outDir) ? readdirSync(outDir) : []).toEqual([]);
    expect((await leftInTmp(before)).ours).toEqual([]);
  }, 900_000);
});
