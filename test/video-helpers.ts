/**
 * Shared pieces of the video tests: the fixtures' timelines, scenes as data
 * (text and image primitives, groups), native frames painted with the real
 * painter (Skia), crops, PSNR and ffprobe's colour tags.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { expect } from "vitest";
// Every environment's compositions, registered before a scene is built.
import "../envs/compositions.ts";
import pixelmatch from "pixelmatch";
import { join } from "node:path";
import { createCanvas, loadImage, Path2D, type Image } from "@napi-rs/canvas";
import { PNG } from "pngjs";
import { FIXTURES, MIXED, ROOT, TRIESTE } from "./helpers.ts";
import { generateFrames } from "../envs/geoguesser/replay/frames/frames.ts";
import type { Timeline } from "../envs/geoguesser/replay/timeline/timeline-schema.ts";
import { paint, type Ctx } from "../video/paint.ts";
import { readMapCell, readPlaces } from "../src/film/shared/map-data.ts";
import { rolloutLayout, type Rect } from "../video/scene/layout.ts";
import { compareLayout } from "../video/parts/compare-layout.ts";
import type { Box, Prim, Scene } from "../video/scene/types.ts";
import { measuringLayouter, type TextLayouter } from "../video/text/layouter.ts";
import { nodeMeasure } from "../src/film/shared/fonts.ts";
import { paintFrames } from "../src/film/native/paint-frames.ts";
import type { VideoSpec } from "../video/compositions.ts";
import type { GeoVideoSpec } from "../envs/geoguesser/video/composition.ts";
import type { DeferredImage } from "../src/film/shared/encode-options.ts";
import { ComparePropsSchema } from "../envs/geoguesser/video/compare/props.ts";
import { resolveFfprobe } from "../src/ffmpeg/find.ts";
import { cssFont } from "../video/text/fonts.ts";

export const ARMS = join(FIXTURES, "arms");
export const EXAMPLE = join(FIXTURES, "example-rollout");

/** The Trieste episode (eval, 10 turns, verified) into `publicDir`. */
export async function triesteTimeline(publicDir: string, fps = 30, out?: string): Promise<Timeline> {
  return (
    await generateFrames({
      episodes: [join(TRIESTE, "episodes.jsonl")],
      episode: "#1",
      tasks: join(TRIESTE, "tasks.jsonl"),
      panos: join(TRIESTE, "panos"),
      publicDir,
      ...(out ? { out: join(publicDir, out) } : {}),
      fps,
      jobs: 1,
    })
  ).timeline;
}

/** An episode of the arms board (base and ckpt200 on the mixed tasks). */
export async function armsTimeline(publicDir: string, episode: string, out: string, fps = 30): Promise<Timeline> {
  return (
    await generateFrames({
      episodes: [ARMS],
      episode,
      tasks: join(MIXED, "tasks.jsonl"),
      panos: join(MIXED, "panos"),
      publicDir,
      out: join(publicDir, out),
      fps,
      jobs: 1,
    })
  ).timeline;
}

/** An example-rollout episode: a slideshow of its recorded images. */
export async function slideshowTimeline(publicDir: string, fps = 30, episode = "#3"): Promise<Timeline> {
  return (await generateFrames({ episodes: [EXAMPLE], episode, publicDir, fps, jobs: 1 })).timeline;
}

/** A GRPO training rollout: a verified replay whose trace has tool calls and no replies. */
export async function trainTimeline(publicDir: string, fps = 30): Promise<Timeline> {
  return (
    await generateFrames({
      episodes: [join(FIXTURES, "train-rollouts.jsonl")],
      episode: "train-rollouts-L1",
      tasks: join(MIXED, "tasks.jsonl"),
      panos: join(MIXED, "panos"),
      publicDir,
      fps,
      jobs: 1,
    })
  ).timeline;
}

let layouter: TextLayouter | undefined;
/** Skia-measured text layout (what a native render's plan holds). */
/** The sample's two-up (armsTimeline's d37a27bd393a and ff03ebd569bb: base against ckpt200's second pass at eval #0) as a Compare spec. */
export function twoUpSpec(a: Timeline, b: Timeline, output: { width: number; height: number }): GeoVideoSpec {
  return {
    composition: "Compare",
    props: ComparePropsSchema.parse({
      version: 1,
      a: { timeline: a, arm: "base", pass: 0, label: "A · base" },
      b: { timeline: b, arm: "ckpt200", pass: 1, label: "B · ckpt200" },
      output,
    }),
  };
}

export function tx(): TextLayouter {
  return (layouter ??= measuringLayouter(nodeMeasure(), readPlaces));
}

export type TextPrim = Extract<Prim, { t: "text" }>;
export type ImagePrim = Extract<Prim, { t: "image" }>;

export const texts = (s: Scene): TextPrim[] => s.prims.filter((p): p is TextPrim => p.t === "text");
export const textStrings = (s: Scene): string[] => texts(s).map((p) => p.text);
export const images = (s: Scene): ImagePrim[] => s.prims.filter((p): p is ImagePrim => p.t === "image");

export const boxOf = (r: Rect): Box => ({ x: r.x, y: r.y, w: r.width, h: r.height });
const sameBox = (a: Box, b: Box) => a.x === b.x && a.y === b.y && a.w === b.w && a.h === b.h;

/** Index range [open, close] of the group opened by a push whose clip is `box`; null when absent. */
export function groupClippedTo(scene: Scene, box: Box): [number, number] | null {
  const open = scene.prims.findIndex((p) => p.t === "push" && p.clip !== undefined && sameBox(p.clip, box));
  if (open < 0) return null;
  let depth = 0;
  for (let i = open; i < scene.prims.length; i++) {
    const p = scene.prims[i];
    if (p.t === "push") depth++;
    else if (p.t === "pop" && --depth === 0) return [open, i];
  }
  throw new Error("unbalanced push/pop");
}

/** The text prims inside a clipped group, with the group translation applied (dx, dy). */
export function textsInGroup(scene: Scene, box: Box): TextPrim[] {
  const g = groupClippedTo(scene, box);
  if (!g) return [];
  const out: TextPrim[] = [];
  const shift: [number, number][] = [[0, 0]];
  for (let i = g[0]; i <= g[1]; i++) {
    const p = scene.prims[i];
    const [dx, dy] = shift[shift.length - 1];
    if (p.t === "push") shift.push([dx + (p.dx ?? 0), dy + (p.dy ?? 0)]);
    else if (p.t === "pop") shift.pop();
    else if (p.t === "text") out.push({ ...p, x: p.x + dx, y: p.y + dy });
  }
  return out;
}

/** Horizontal extent of a text prim as Skia measures it. */
export function textExtent(p: TextPrim): [number, number] {
  const w = nodeMeasure()(p.text, p.font) + (p.spacing ?? 0) * [...p.text].length;
  const align = p.align ?? "left";
  return align === "left" ? [p.x, p.x + w] : align === "right" ? [p.x - w, p.x] : [p.x - w / 2, p.x + w / 2];
}

/** Whether a point lies in a layout rect. */
export const inRect = (x: number, y: number, r: Rect | Box) => {
  const b = "w" in r ? r : boxOf(r);
  return x >= b.x && x <= b.x + b.w && y >= b.y && y <= b.y + b.h;
};

// ---------- native painting ----------

/** Frames painted by the engine's own loop (paint-frames.ts), as PNGs (RGBA). */
export async function paintNative(spec: VideoSpec, frames: number[], publicDir: string, deferred?: DeferredImage[]): Promise<PNG[]> {
  const { width, height } = spec.props.output ?? { width: 1280, height: 720 };
  const out: PNG[] = [];
  for await (const f of paintFrames(spec, frames, { publicDir, text: spec.props.text ?? {}, deferred })) {
    const png = new PNG({ width, height });
    Buffer.from(f.rgba.buffer, f.rgba.byteOffset, f.rgba.byteLength).copy(png.data);
    out.push(png);
  }
  return out;
}

/** Paints a scene (possibly a modified one) exactly as paint-frames.ts does: Skia, the same painter and env. */
export async function paintScene(scene: Scene, publicDir: string): Promise<PNG> {
  nodeMeasure(); // registers the fonts
  const canvas = createCanvas(scene.width, scene.height);
  const ctx = canvas.getContext("2d") as unknown as Ctx;
  const loaded = new Map<string, Image>();
  for (const p of scene.prims) if (p.t === "image" && !loaded.has(p.src)) loaded.set(p.src, await loadImage(readFileSync(join(publicDir, p.src))));
  paint(ctx, scene, {
    image: (src) => (loaded.get(src) as unknown as CanvasImageSource) ?? null,
    path2d: () => new Path2D() as unknown as globalThis.Path2D,
    cell: readMapCell,
  });
  const png = new PNG({ width: scene.width, height: scene.height });
  const data = canvas.data();
  Buffer.from(data.buffer, data.byteOffset, data.byteLength).copy(png.data);
  return png;
}

// ---------- comparing pictures ----------

/** Reviewed golden frames (update after a reviewed layout change: UPDATE_GOLDEN=1 npx vitest run <test file>). */
export const GOLDEN = join(ROOT, "test", "golden");
const UPDATE = process.env.UPDATE_GOLDEN === "1";

export /**
 * Compares a frame with its golden, region by region. Native frames are pixel-identical run to
 * run on one machine (0 differing pixels); one changed glyph is roughly 40-100 pixels; the small
 * allowance is for another machine's Skia build.
 */
function expectGolden(name: string, png: PNG, regions: [string, Rect][]): void {
  const file = join(GOLDEN, `${name}.png`);
  if (UPDATE) {
    mkdirSync(GOLDEN, { recursive: true });
    writeFileSync(file, PNG.sync.write(png));
  }
  expect(existsSync(file), `${file} (create with UPDATE_GOLDEN=1 and review it)`).toBe(true);
  const want = PNG.sync.read(readFileSync(file));
  const { width: w, height: h } = png;
  expect([w, h]).toEqual([want.width, want.height]);
  const diffImg = new PNG({ width: w, height: h });
  const diff = pixelmatch(png.data, want.data, diffImg.data, w, h, { threshold: 0.1 });
  const all: [string, Rect][] = [...regions, ["whole", { x: 0, y: 0, width: w, height: h }]];
  for (const [region, r] of all) {
    let n = 0;
    for (let y = r.y; y < Math.min(h, r.y + r.height); y++)
      for (let x = r.x; x < Math.min(w, r.x + r.width); x++) if (diffImg.data[(y * w + x) * 4] === 255 && diffImg.data[(y * w + x) * 4 + 1] === 0) n++;
    expect(n, `${name}: differing pixels in the ${region} region (whole image: ${diff})`).toBeLessThanOrEqual(region === "whole" ? 60 : 30);
  }
}

/** RGB bytes of a region (alpha dropped). */
export function cropRgb(png: PNG, r: Rect): Buffer {
  const out = Buffer.alloc(r.width * r.height * 3);
  let o = 0;
  for (let y = r.y; y < r.y + r.height; y++)
    for (let x = r.x; x < r.x + r.width; x++) {
      const i = (y * png.width + x) * 4;
      out[o++] = png.data[i];
      out[o++] = png.data[i + 1];
      out[o++] = png.data[i + 2];
    }
  return out;
}

export function psnr(a: Buffer, b: Buffer): number {
  if (a.length !== b.length) throw new Error(`psnr: ${a.length} vs ${b.length} bytes`);
  let se = 0;
  for (let i = 0; i < a.length; i++) se += (a[i] - b[i]) ** 2;
  const mse = se / a.length;
  return mse === 0 ? Infinity : 10 * Math.log10((255 * 255) / mse);
}

export const wholeRect = (png: PNG): Rect => ({ x: 0, y: 0, width: png.width, height: png.height });

/** Share of a region's pixels within `tol` (sum of channel differences) of a colour. */
export function share(png: PNG, r: Rect, rgb: [number, number, number], tol = 30): number {
  const px = cropRgb(png, r);
  let n = 0;
  for (let i = 0; i < px.length; i += 3) if (Math.abs(px[i] - rgb[0]) + Math.abs(px[i + 1] - rgb[1]) + Math.abs(px[i + 2] - rgb[2]) < tol) n++;
  return n / (px.length / 3);
}

export const hex = (c: string): [number, number, number] => [1, 3, 5].map((i) => parseInt(c.slice(i, i + 2), 16)) as [number, number, number];

// ---------- ffprobe ----------

export interface ColourTags {
  color_space?: string;
  color_primaries?: string;
  color_transfer?: string;
  color_range?: string;
}

/** The first video stream's colour tags, as ffprobe reads them. */
export function colourTags(file: string): ColourTags {
  const out = execFileSync(
    resolveFfprobe().path,
    ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=color_space,color_primaries,color_transfer,color_range", "-of", "json", file],
    { encoding: "utf8" },
  );
  return (JSON.parse(out) as { streams: ColourTags[] }).streams[0];
}

export const BT709: ColourTags = { color_space: "bt709", color_primaries: "bt709", color_transfer: "bt709", color_range: "tv" };

export { cssFont };

/** The regions of a Rollout frame that goldens and parity checks compare one by one. */
export function rolloutRegions(t: Timeline, output: { width: number; height: number }): [string, Rect][] {
  const L = rolloutLayout(output.width, output.height, t.viewport);
  return [
    ["header", L.header],
    ["viewport", L.viewportBox],
    ["credit", L.credit],
    ["hud", L.hud],
    ["trace", L.trace],
  ];
}

/** The regions of a Compare frame, per column (A, B); `credit: false` leaves out the imagery credit lines. */
export function compareRegions(
  output: { width: number; height: number },
  viewports: Parameters<typeof compareLayout>[2],
  { credit = true } = {},
): [string, Rect][] {
  const L = compareLayout(output.width, output.height, viewports);
  return [
    ["header", L.header],
    ...L.columns.flatMap((c, i): [string, Rect][] => [
      [`caption ${"AB"[i]}`, c.caption],
      [`viewport ${"AB"[i]}`, c.viewportBox],
      ...(credit ? [[`credit ${"AB"[i]}`, c.credit] as [string, Rect]] : []),
      [`hud ${"AB"[i]}`, c.hud],
      [`trace ${"AB"[i]}`, c.trace],
    ]),
  ];
}
