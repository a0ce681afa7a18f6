/**
 * Where a native `georeplay render`'s painting CPU goes, stage by stage: the
 * painter's work done in turn on one thread, each stage's CPU time measured
 * (the process's user + system time, so the threads sharp and Skia start
 * count): Node's start with the program's modules; verifying the recorded
 * views and planning the camera path (what the render runs); laying out
 * every frame's scene; decoding the panoramas the in-between views come
 * from; reprojecting those views; painting the piped frames with Skia and
 * reading their pixels out; writing them into a pipe (to `cat`, whose
 * reading is not counted: ffmpeg reads as much when x264 runs alone from a
 * file); freeing each frame's buffer. Not a floor: the render spreads this
 * over three threads, which on two cores keep each other's caches apart,
 * and it usually costs less in all than this one thread does.
 *
 *   node dist/bench/render-stages.js EPISODES TASKS PANOS EPISODE
 *
 * Prints one JSON line: { stages: { name: CPU seconds }, painted, views }.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { createCanvas, ImageData, loadImage, Path2D, type Canvas, type Image } from "@napi-rs/canvas";
import { prepareEpisode } from "../envs/geoguesser/src/film/render-episode.ts";
import { planVideo } from "../src/film/native/plan-video.ts";
import { inPaintOrder } from "../src/film/native/views-ahead.ts";
import { readMapCell } from "../src/film/shared/map-data.ts";
import { paint, type Ctx } from "../video/paint.ts";
// Every environment's compositions, registered before a spec is read.
import "../envs/compositions.ts";
import { videoSize } from "../video/compositions.ts";
import type { Scene } from "../video/scene/types.ts";
import { wordStore } from "../envs/geoguesser/src/film/view-pixels.ts";
import { viewWords } from "../envs/geoguesser/replay/render/reproject.ts";
import { pipedFrames } from "../src/ffmpeg/raw-encoder.ts";

const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
const stages: Record<string, number> = { "Node's start and the program's modules": cpu() };
let mark = cpu();
/** Closes a stage: the CPU spent since the last mark. */
const stage = (name: string) => {
  const now = cpu();
  stages[name] = (stages[name] ?? 0) + now - mark;
  mark = now;
};

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as (o: { type: "minor" }) => void;
const [episodes, tasks, panos, episode] = process.argv.slice(2);
const prepared = await prepareEpisode({ episodes: [episodes], episode, tasks, panos, engine: "native", jobs: 1 });
try {
  stage("verify the recorded views, plan the camera path");

  const scenes = new Map<number, Scene>();
  const plan = planVideo(prepared.spec, true, true, (f, s) => scenes.set(f, s));
  stage("lay out every frame's scene");

  const deferred = inPaintOrder(prepared.deferred, plan.shown);
  // Bounded as the reprojecting thread's store is: a camera path uses its panoramas in turn, and
  // hundreds of megabytes held in this one heap would make V8 collect it over and over.
  const store = wordStore();

  const { width, height } = videoSize(prepared.spec);
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext("2d") as unknown as Ctx;
  const bySrc = new Map(deferred.map((d) => [d.src, d]));
  const images = new Map<string, Image | Canvas>();
  const env = {
    image: (src: string) => (images.get(src) as unknown as CanvasImageSource) ?? null,
    path2d: () => new Path2D() as unknown as globalThis.Path2D,
    cell: readMapCell,
  };
  const sink = spawn("cat", [], { stdio: ["pipe", "ignore", "inherit"] });
  const closed = new Promise((resolve) => sink.on("close", resolve));
  const piped = pipedFrames(plan.runs);
  let views = 0;
  let out: ImageData | undefined;
  const spare: Canvas[] = [];
  stage("write the frames into ffmpeg's pipe");
  for (const frame of piped) {
    const scene = scenes.get(frame) ?? scenes.get(plan.runs[plan.runs.length - 1].start)!;
    // Only what this frame shows is kept (as the painter does): views rarely come back.
    const wanted = new Set(scene.prims.flatMap((p) => (p.t === "image" ? [p.src] : [])));
    for (const [src, img] of images) {
      if (wanted.has(src)) continue;
      images.delete(src);
      if (bySrc.has(src)) spare.push(img as Canvas);
    }
    for (const p of scene.prims) {
      if (p.t !== "image" || images.has(p.src)) continue;
      const d = bySrc.get(p.src);
      stage("paint with Skia, read the pixels out");
      if (!d) {
        images.set(p.src, await loadImage(join(prepared.publicDir, p.src)));
        stage("decode the recorded views' files");
        continue;
      }
      const pano = await store.get(d.pano);
      stage("decode the in-between views' panoramas");
      const { width: w, height: h } = d.view;
      if (out?.width !== w || out.height !== h) out = new ImageData(w, h);
      viewWords(
        d.view,
        pano.width,
        pano.height,
        new Uint32Array(pano.data.buffer, pano.data.byteOffset, pano.data.byteLength >> 2),
        pano.top * pano.width,
        new Uint32Array(out.data.buffer),
      );
      views++;
      stage("reproject the in-between views");
      // One pixel buffer and a few canvases, reused (reprojected-views.ts): a new one per view
      // would make V8 collect its whole heap over and over for the external memory.
      const at = spare.findIndex((c) => c.width === w && c.height === h);
      const c = at >= 0 ? spare.splice(at, 1)[0] : createCanvas(w, h);
      c.getContext("2d").putImageData(out, 0, 0);
      images.set(p.src, c);
    }
    paint(ctx, scene, env);
    const rgba = canvas.data();
    stage("paint with Skia, read the pixels out");
    if (!sink.stdin.write(rgba)) await new Promise((r) => sink.stdin.once("drain", r));
    stage("write the frames into ffmpeg's pipe");
    // As the painter does: a frame's buffer freed before the next is read out (paint-worker.ts).
    gc({ type: "minor" });
    await new Promise((r) => setImmediate(r));
    stage("free each frame's buffer (a minor collection)");
  }
  sink.stdin.end();
  await closed;
  stage("write the frames into ffmpeg's pipe");
  console.log(JSON.stringify({ stages, painted: piped.length, views }));
} finally {
  prepared.dispose();
}
