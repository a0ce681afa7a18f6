/**
 * Hold-aware native rendering against painting every frame. The runs of
 * equal scenes (frame-runs.ts) decide which frames are painted; the encoder
 * pipes one image per run and ffmpeg's setpts + fps repeat it. Checked three
 * ways: the setpts expression puts every piped image at its run's frame; the
 * raw RGBA the encoder would get (each run's image repeated) equals painting
 * every frame, frame by frame; and the two MP4s (holds on, holds off) decode
 * to identical frames (ffmpeg -f framemd5: x264 is bit-deterministic for
 * identical input, so the files are byte-identical too). Rollout and Compare;
 * and a cancelled encode leaves nothing behind.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// Every environment's compositions, registered before a scene is built.
import "../../envs/compositions.ts";
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { armsTimeline, BT709, colourTags, triesteTimeline, twoUpSpec, tx } from "../video-helpers.ts";
import type { Timeline } from "../../envs/geoguesser/replay/timeline/timeline-schema.ts";
import { RolloutPropsSchema } from "../../envs/geoguesser/video/rollout/props.ts";
import { sceneAt, videoFrames, type VideoSpec } from "../../video/compositions.ts";
import { drawnView, inPaintOrder } from "../../src/film/native/views-ahead.ts";
import type { ShownImage } from "../../src/film/shared/encode-options.ts";
import { rolloutLayout } from "../../video/scene/layout.ts";
import { frameRuns, type FrameRun } from "../../src/film/shared/frame-runs.ts";
import { sameScene } from "../../video/scene/same-scene.ts";
import { pipedFrames, rawEncoderArgs, runsPtsExpr } from "../../src/ffmpeg/raw-encoder.ts";
import { encodeVideo } from "../../src/film/native/encode-video.ts";
import { paintFrames } from "../../src/film/native/paint-frames.ts";
import { resolveFfmpeg } from "../../src/ffmpeg/find.ts";
import { probeVideo } from "../../src/ffmpeg/probe.ts";

const tmp = mkdtempSync(join(tmpdir(), "georeplay-hold-test-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const publicDir = join(tmp, "public");
const SIZE = { width: 480, height: 270 };

let t30: Timeline; // Trieste at 30 fps (runs)
let t5: Timeline; // Trieste at 5 fps (renders): every segment kind, holds, the score card
let twoUp: [Timeline, Timeline]; // base (11 turns) and ckpt200 pass 1 (8 turns) at eval #0, 5 fps

beforeAll(async () => {
  t30 = await triesteTimeline(publicDir, 30, "rollouts/t30");
  t5 = await triesteTimeline(publicDir, 5, "rollouts/t5");
  twoUp = [await armsTimeline(publicDir, "d37a27bd393a", "rollouts/two-a", 5), await armsTimeline(publicDir, "ff03ebd569bb", "rollouts/two-b", 5)];
}, 600_000);

const rollout = (t: Timeline, output = SIZE): VideoSpec => ({ composition: "Rollout", props: RolloutPropsSchema.parse({ ...t, output }) });
const compare = (): VideoSpec => twoUpSpec(twoUp[0], twoUp[1], SIZE);

/** Evaluates runsPtsExpr as ffmpeg would for the n-th piped frame (N = n): only sums of gte(N,k)*c. */
function evalPts(expr: string, n: number): number {
  return expr.split("+").reduce((sum, term) => {
    if (term === "N") return sum + n;
    const m = /^gte\(N\\,(\d+)\)\*(\d+)$/.exec(term);
    if (!m) throw new Error(`unexpected term ${term}`);
    return sum + (n >= Number(m[1]) ? Number(m[2]) : 0);
  }, 0);
}

describe("runs of equal scenes", () => {
  it("cover every frame once, in order; the Trieste episode at 30 fps paints well under two thirds of its frames", () => {
    const spec = rollout(t30, { width: 1280, height: 720 });
    const runs = frameRuns(spec, tx());
    expect(runs.reduce((a, r) => a + r.length, 0)).toBe(t30.totalFrames);
    expect(runs[0].start).toBe(0);
    for (let i = 1; i < runs.length; i++) expect(runs[i].start).toBe(runs[i - 1].start + runs[i - 1].length);
    expect(runs.length).toBeLessThan(t30.totalFrames * 0.6);
    // Every segment starts a run; a moving camera never holds.
    const starts = new Set(runs.map((r) => r.start));
    for (const s of t30.segments) expect(starts.has(s.startFrame), `segment at ${s.startFrame}`).toBe(true);
    const cam = t30.segments.find((s) => s.kind === "camera" && s.motionFrames > 4)!;
    for (let f = cam.startFrame; f < cam.startFrame + cam.motionFrames; f++) expect(starts.has(f), `moving frame ${f}`).toBe(true);
    // Without holds: one run per frame.
    expect(frameRuns(spec, tx(), false)).toHaveLength(t30.totalFrames);
  });

  it("are the runs of frames whose scenes serialise alike (the rule they are defined by), for a rollout at 30 fps and a two-up", () => {
    for (const spec of [rollout(t30, { width: 1280, height: 720 }), compare()]) {
      const byJson: FrameRun[] = [];
      let prev: string | null = null;
      for (let f = 0; f < videoFrames(spec); f++) {
        const key = JSON.stringify(sceneAt(spec, f, tx()));
        if (key === prev) byJson[byJson.length - 1].length++;
        else byJson.push({ start: f, length: 1 });
        prev = key;
      }
      expect(frameRuns(spec, tx())).toEqual(byJson);
    }
  });

  it("compare scenes as JSON values: absent and undefined keys alike, key order ignored, any other difference found", () => {
    const a = { width: 2, height: 2, background: "#000", prims: [{ t: "rect", x: 0, y: 0, w: 1, h: 1, fill: "#fff", r: undefined }, { t: "pop" }] };
    expect(sameScene(a, structuredClone(a))).toBe(true);
    expect(sameScene(a, { ...a, prims: [{ fill: "#fff", h: 1, w: 1, y: 0, x: 0, t: "rect" }, { t: "pop" }] })).toBe(true);
    expect(sameScene(a, { ...a, prims: [{ t: "rect", x: 0, y: 0, w: 1, h: 1, fill: "#fff", r: 0 }, { t: "pop" }] })).toBe(false);
    expect(sameScene(a, { ...a, prims: [{ t: "rect", x: 0, y: 0, w: 1, h: 1.5, fill: "#fff" }, { t: "pop" }] })).toBe(false);
    expect(sameScene(a, { ...a, prims: [a.prims[0]] })).toBe(false);
    expect(sameScene(a, { ...a, prims: {} })).toBe(false);
    expect(sameScene({ pts: [1, 2] }, { pts: [1, 2, 3] })).toBe(false);
    expect(sameScene({ x: null }, { x: 0 })).toBe(false);
    expect(sameScene({ x: 1 }, { x: 1, y: 2 })).toBe(false);
    expect(sameScene({ x: 1, y: undefined }, { x: 1 })).toBe(true);
  });

  it("name each image the first time a piped frame shows it, in the order the painter meets them (the order views are reprojected ahead), with or without holds", () => {
    for (const spec of [rollout(t30), compare()])
      for (const holds of [true, false]) {
        const shown: ShownImage[] = [];
        const runs = frameRuns(spec, tx(), holds, (src, w, h) => shown.push({ src, w, h }));
        // What the painter asks for: the images of each piped frame's scene, first showings only, and the box each is drawn into.
        const met: ShownImage[] = [];
        for (const f of pipedFrames(runs))
          for (const p of sceneAt(spec, f, tx()).prims) if (p.t === "image" && !met.some((m) => m.src === p.src)) met.push({ src: p.src, w: p.w, h: p.h });
        expect(shown).toEqual(met);
        expect(shown.length).toBeGreaterThan(spec.composition === "Compare" ? 10 : 20);
      }
    // The deferred views in that order; a view no frame shows comes last.
    const view = { width: 2, height: 2, headingDeg: 0, pitchDeg: 0, fovDeg: 90 };
    const d = (src: string) => ({ src, env: "geoguesser", pano: "p.jpg", view });
    const at = (src: string) => ({ src, w: 2, h: 2 });
    expect(inPaintOrder([d("c"), d("x"), d("a"), d("b")], [at("a"), at("q"), at("b"), at("c")]).map((v) => v.src)).toEqual(["a", "b", "c", "x"]);
  });

  it("reprojects an in-between view at the size it is drawn when that is smaller and of its shape, else at its own", () => {
    const view = { width: 640, height: 640, headingDeg: 10, pitchDeg: -5, fovDeg: 90 };
    expect(drawnView(view, 628, 628)).toEqual({ ...view, width: 628, height: 628 });
    expect(drawnView(view, 300.4, 300.4)).toEqual({ ...view, width: 300, height: 300 });
    expect(drawnView(view, 640, 640)).toBe(view);
    expect(drawnView(view, 900, 900)).toBe(view); // larger: the in-betweens would be sharper than the keyframes
    expect(drawnView(view, 628, 400)).toBe(view); // another shape would show another field
    expect(drawnView(view, 0.2, 0.2)).toBe(view);
    const wide = { ...view, width: 640, height: 480 };
    expect(drawnView(wide, 628, 471)).toEqual({ ...wide, width: 628, height: 471 });
    // In paint order, each view takes the size of the box it is first drawn into: a rollout's viewport (628 px at 1280x720).
    const d = { src: "e/frames/000007.jpg", env: "geoguesser", pano: "p.jpg", view };
    expect(inPaintOrder([d], [{ src: d.src, w: 628, h: 628 }])).toEqual([{ ...d, view: { ...view, width: 628, height: 628 } }]);
    expect(rolloutLayout(1280, 720, view).viewport).toMatchObject({ width: 628, height: 628 });
    for (const size of [SIZE, { width: 1280, height: 720 }]) {
      const boxes: ShownImage[] = [];
      frameRuns(rollout(t30, size), tx(), true, (src, w, h) => boxes.push({ src, w, h }));
      const { width, height } = rolloutLayout(size.width, size.height, t30.viewport).viewport;
      expect(new Set(boxes.map((b) => `${b.w}x${b.h}`))).toEqual(new Set([`${width}x${height}`]));
    }
  });

  it("the setpts expression puts every piped image at its run's first frame (and the last frame again when the video ends on a hold)", () => {
    for (const spec of [rollout(t30), rollout(t5), compare()]) {
      const runs = frameRuns(spec, tx());
      const piped = pipedFrames(runs);
      const expr = runsPtsExpr(runs);
      expect(piped.slice(0, runs.length)).toEqual(runs.map((r) => r.start));
      const last = runs[runs.length - 1];
      expect(piped.length).toBe(runs.length + (last.length > 1 ? 1 : 0));
      piped.forEach((frame, n) => expect(evalPts(expr, n), `piped image ${n}`).toBe(frame));
      expect(piped.at(-1)).toBe(videoFrames(spec) - 1);
    }
    // The filter graph ffmpeg gets: the colour conversion, then setpts, then fps repeats.
    const runs: FrameRun[] = [
      { start: 0, length: 1 },
      { start: 1, length: 3 },
      { start: 4, length: 2 },
    ];
    expect(pipedFrames(runs)).toEqual([0, 1, 4, 5]);
    const args = rawEncoderArgs({ out: "x.mp4", width: 16, height: 16, fps: 5, runs });
    expect(args[args.indexOf("-vf") + 1]).toBe("scale=out_color_matrix=bt709:out_range=tv,setpts=(N+gte(N\\,2)*2)/(5*TB),fps=5");
    expect(args).toEqual(expect.arrayContaining(["-pix_fmt", "yuv420p", "-colorspace", "bt709", "-movflags", "+faststart", "-c:v", "libx264"]));
  });
});

const md5 = (b: Uint8Array) => createHash("md5").update(b).digest("hex");

/** md5 of each frame the encoder would receive: every frame painted, or each run's image repeated over its run. */
async function rawStream(spec: VideoSpec, holds: boolean): Promise<string[]> {
  const runs = frameRuns(spec, tx(), holds);
  const out: string[] = [];
  let i = 0;
  for await (const f of paintFrames(
    spec,
    runs.map((r) => r.start),
    { publicDir, text: {} },
  )) {
    expect(f.frame).toBe(runs[i].start);
    const h = md5(f.rgba);
    for (let k = 0; k < runs[i].length; k++) out.push(h);
    i++;
  }
  return out;
}

/** Per-frame md5 of the decoded video (ffmpeg's framemd5 muxer), plus the frame count. */
function decodedMd5(mp4: string): string[] {
  const text = execFileSync(resolveFfmpeg().path, ["-v", "error", "-i", mp4, "-map", "0:v", "-f", "framemd5", "-"], {
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  return text
    .split("\n")
    .filter((l) => l && !l.startsWith("#"))
    .map((l) => l.split(",").at(-1)!.trim());
}

async function expectHoldsEqualEveryFrame(spec: VideoSpec, name: string): Promise<void> {
  const total = videoFrames(spec);
  // What the encoder receives: identical, frame by frame.
  const every = await rawStream(spec, false);
  const held = await rawStream(spec, true);
  expect(every).toHaveLength(total);
  expect(held).toEqual(every);
  // The MP4s: every frame, the same pictures.
  const outs = { hold: join(tmp, `${name}-hold.mp4`), full: join(tmp, `${name}-full.mp4`) };
  const hold = await encodeVideo(spec, { publicDir, out: outs.hold, holds: true, preset: "ultrafast" });
  const full = await encodeVideo(spec, { publicDir, out: outs.full, holds: false, preset: "ultrafast" });
  expect(full.painted).toBe(total);
  expect(hold.painted).toBe(frameRuns(spec, tx()).length);
  expect(hold.painted).toBeLessThan(total * 0.8);
  for (const f of Object.values(outs)) {
    expect(probeVideo(f)).toMatchObject({ codec: "h264", pixFmt: "yuv420p", colorSpace: "bt709", ...SIZE, fps: 5, frames: total, faststart: true });
    expect(colourTags(f)).toEqual(BT709);
  }
  const a = decodedMd5(outs.hold);
  const b = decodedMd5(outs.full);
  expect(a).toHaveLength(total);
  expect(a).toEqual(b);
  expect(md5(readFileSync(outs.hold))).toBe(md5(readFileSync(outs.full)));
  console.log(`${name}: ${hold.painted}/${total} frames painted hold-aware; decoded frames and files identical to painting every frame`);
}

describe("hold-aware output equals painting every frame", () => {
  it("Rollout (Trieste at 5 fps: every segment kind, the score card)", async () => {
    await expectHoldsEqualEveryFrame(rollout(t5), "rollout");
  }, 600_000);

  it("Compare (a side holding its guess while the other plays on, the settled score card)", async () => {
    await expectHoldsEqualEveryFrame(compare(), "compare");
  }, 600_000);
});

describe("a cancelled encode", () => {
  it("rejects, and leaves no MP4, no temp file and no ffmpeg behind", async () => {
    const dir = join(tmp, "cancel");
    mkdirSync(dir);
    const out = join(dir, "x.mp4");
    const ac = new AbortController();
    const p = encodeVideo(rollout(t5), {
      publicDir,
      out,
      holds: false,
      preset: "ultrafast",
      signal: ac.signal,
      onProgress: (done) => {
        if (done >= 20 && !ac.signal.aborted) ac.abort(new Error("stop"));
      },
    });
    await expect(p).rejects.toThrow();
    expect(ac.signal.aborted, "it was mid-encode when cancelled").toBe(true);
    expect(readdirSync(dir)).toEqual([]);
    expect(existsSync(out)).toBe(false);
    // No ffmpeg writing into that folder is left running.
    const procs = execFileSync("ps", ["-eo", "args"], { encoding: "utf8" });
    expect(procs.split("\n").filter((l) => l.includes("ffmpeg") && l.includes(dir))).toEqual([]);
  }, 300_000);
});
