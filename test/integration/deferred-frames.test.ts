/**
 * Deferred in-between frames (what `render` asks for with the native
 * engine): the frames run writes the keyframes and the same timeline, and
 * lists every other frame instead of writing it; the painter's reprojection
 * of a deferred frame is the frame file's image before its JPEG encode
 * (the same pixels the file holds, up to JPEG's loss).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { generateFrames, type FramesResult } from "../../envs/geoguesser/replay/frames/frames.ts";
import { reprojectedViews } from "../../src/film/native/reprojected-views.ts";
import { deferredImages } from "../../envs/geoguesser/src/film/render-episode.ts";
import { TRIESTE } from "../helpers.ts";

const tmp = mkdtempSync(join(tmpdir(), "georeplay-deferred-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const args = { episodes: [join(TRIESTE, "episodes.jsonl")], episode: "#1", tasks: join(TRIESTE, "tasks.jsonl"), panos: join(TRIESTE, "panos"), jobs: 1 };

describe("frames with deferred in-between frames", () => {
  let files: FramesResult;
  let deferred: FramesResult;
  beforeAll(async () => {
    files = await generateFrames({ ...args, out: join(tmp, "files"), publicDir: tmp });
    deferred = await generateFrames({ ...args, out: join(tmp, "deferred"), publicDir: tmp, deferInBetween: true });
  });

  it("writes only the keyframes, the same timeline, and lists the other frames in plan order", () => {
    const written = readdirSync(join(tmp, "files", "frames")).filter((f) => f.endsWith(".jpg"));
    const kept = readdirSync(join(tmp, "deferred", "frames")).filter((f) => f.endsWith(".jpg"));
    expect(files.deferred).toEqual([]);
    expect(kept.length).toBe(deferred.stats.keyframes);
    expect([...kept, ...deferred.deferred.map((d) => d.file)].sort()).toEqual(written.sort());
    expect(deferred.deferred.map((d) => d.file)).toEqual(
      written.filter((f) => !kept.includes(f)).sort(), // frame files are numbered in plan order
    );
    for (const f of kept) expect(readFileSync(join(tmp, "deferred", "frames", f))).toEqual(readFileSync(join(tmp, "files", "frames", f)));
    const { framesDir: _a, ...a } = files.timeline;
    const { framesDir: _b, ...b } = deferred.timeline;
    expect(b).toEqual(a);
  });

  it("paints each deferred frame as the frame file's image (within JPEG's loss)", async () => {
    const images = deferredImages(deferred);
    expect(images[0].src).toBe(`${deferred.timeline.framesDir}/${deferred.deferred[0].file}`);
    const views = reprojectedViews(images);
    for (const i of [0, Math.floor(images.length / 2), images.length - 1]) {
      const canvas = await views.get(images[i].src);
      const { width: w, height: h } = images[i].view;
      const painted = canvas.getContext("2d").getImageData(0, 0, w, h).data;
      const file = await sharp(join(tmp, "files", "frames", deferred.deferred[i].file))
        .raw()
        .toBuffer();
      let sum = 0;
      for (let p = 0, q = 0; p < file.length; p += 3, q += 4) for (let c = 0; c < 3; c++) sum += Math.abs(file[p + c] - painted[q + c]);
      expect(sum / (w * h * 3)).toBeLessThan(3); // q85 JPEG of the same pixels; another view would differ by tens
      expect(painted[3]).toBe(255);
      views.release(canvas); // the next view is put into this canvas: nothing of this one may show
    }
  });
});
