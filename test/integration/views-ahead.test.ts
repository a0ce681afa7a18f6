/**
 * The ring of views reprojected ahead of the painter (src/film/native/views-ahead.ts), with a real
 * second thread on the compiled modules (`npm test` builds dist/ first): views arrive in order and
 * intact, skipped ones free their slots, a view asked for again or after the producer failed is left
 * to the painter, and nothing waits forever. Then the real producer: the views it reprojects are
 * the painter's own, pixel for pixel.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { ROOT, triesteDeferred } from "../helpers.ts";
import type { FramesResult } from "../../envs/geoguesser/replay/frames/frames.ts";
import { deferredImages } from "../../envs/geoguesser/src/film/render-episode.ts";
import { viewPixels, wordStore } from "../../envs/geoguesser/src/film/view-pixels.ts";
import type { ReprojectWorkerData } from "../../src/film/native/reproject-worker.ts";
import { deferredViewsOf } from "../../envs/deferred-views.ts";

const dist = (p: string) => pathToFileURL(join(ROOT, "dist", p)).href;
const tmp = mkdtempSync(join(tmpdir(), "georeplay-ahead-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("views reprojected ahead of the painter", () => {
  it("hands over views in order, frees skipped slots, leaves revisits and views past a failure to the painter", async () => {
    const { aheadRing, ringReader } = (await import(dist("src/film/native/views-ahead.js"))) as typeof import("../../src/film/native/views-ahead.ts");
    const views = Array.from({ length: 20 }, (_, i) => ({
      src: `f${i}`,
      env: "geoguesser",
      pano: "p",
      view: { headingDeg: 0, pitchDeg: 0, fovDeg: 90, width: 8, height: 4 },
    }));
    const ring = aheadRing(views);
    // The producer fills view i with i + 1000 and fails at view 15.
    const producer = new Worker(
      `(async () => {
         const { fillRing } = await import(${JSON.stringify(dist("src/film/native/views-ahead.js"))});
         const { workerData } = require("node:worker_threads");
         await fillRing(workerData, 20, async (i, out) => { if (i === 15) throw new Error("no such panorama"); out.fill(i + 1000); }).catch(() => {});
       })();`,
      { eval: true, workerData: ring },
    );
    const reader = ringReader(ring);
    const out = new Uint32Array(32);
    const got: (number | null)[] = [];
    for (const i of [0, 1, 2, 5, 6, 4, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 19]) got.push(reader.take(i, out) ? out[0] : null);
    expect(got).toEqual([1000, 1001, 1002, 1005, 1006, null, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014, null, null, null]);
    expect(reader.take(3, out)).toBe(false); // behind what was taken: the painter makes it
    await producer.terminate();
  });

  it("a producer that never starts costs one bounded wait, then the painter makes every view", async () => {
    const { aheadRing, ringReader } = (await import(dist("src/film/native/views-ahead.js"))) as typeof import("../../src/film/native/views-ahead.ts");
    const ring = aheadRing([{ src: "f0", env: "geoguesser", pano: "p", view: { headingDeg: 0, pitchDeg: 0, fovDeg: 90, width: 2, height: 2 } }]);
    const reader = ringReader(ring, 100);
    const out = new Uint32Array(4);
    const t0 = performance.now();
    expect(reader.take(0, out)).toBe(false);
    expect(reader.take(1, out)).toBe(false);
    expect(reader.take(2, out)).toBe(false);
    expect(performance.now() - t0).toBeLessThan(1000); // one wait of 100 ms, not one per view
  });

  it("views of an environment with no maker: the producer stops at once, and the painter's thread names the environment", async () => {
    const { aheadRing, ringReader } = (await import(dist("src/film/native/views-ahead.js"))) as typeof import("../../src/film/native/views-ahead.ts");
    const deferred = [{ src: "f0", env: "crops", pano: "p", view: { width: 2, height: 2 } }];
    const ring = aheadRing(deferred);
    const producer = new Worker(new URL(dist("src/film/native/reproject-worker.js")), { workerData: { env: "crops" } satisfies ReprojectWorkerData });
    producer.postMessage({ ring, deferred });
    // The failure flag, not the reader's bounded wait (given 60 s here): the producer failed on its first view.
    expect(ringReader(ring, 60_000).take(0, new Uint32Array(4))).toBe(false);
    await producer.terminate();
    await expect(deferredViewsOf("crops")).rejects.toThrow('a deferred view of "crops", an environment that defers none');
    expect((await deferredViewsOf("geoguesser")).lookahead).toBeGreaterThan(0);
  });

  describe("the real producer", () => {
    let frames: FramesResult;
    beforeAll(async () => {
      frames = await triesteDeferred(tmp);
    });

    it("reprojects exactly the pixels the painter's own thread makes", async () => {
      const { aheadRing, ringReader } = (await import(dist("src/film/native/views-ahead.js"))) as typeof import("../../src/film/native/views-ahead.ts");
      const deferred = deferredImages(frames);
      const ring = aheadRing(deferred);
      // Started as the painter's threads start it: naming the environment whose maker makes the views.
      const producer = new Worker(new URL(dist("src/film/native/reproject-worker.js")), { workerData: { env: "geoguesser" } satisfies ReprojectWorkerData });
      producer.postMessage({ ring, deferred });
      const reader = ringReader(ring);
      const store = wordStore();
      let compared = 0;
      for (let i = 0; i < deferred.length; i += 7) {
        const { width: w, height: h } = deferred[i].view;
        const ahead = new Uint32Array(w * h);
        expect(reader.take(i, ahead), `view ${i}`).toBe(true);
        const here = new Uint32Array(w * h);
        await viewPixels(store, deferred[i], here);
        expect(Buffer.compare(Buffer.from(ahead.buffer), Buffer.from(here.buffer)), `view ${i}`).toBe(0);
        compared++;
      }
      expect(compared).toBeGreaterThan(10);
      await producer.terminate();
    });
  });
});
