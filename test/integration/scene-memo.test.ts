/**
 * Parts laid out once per layouter (Draw.memo): a part that holds still
 * across frames (the map while it fades in, the HUD between moves, the past
 * turns through a segment) is laid out the first time and its primitives
 * pushed again after. Checked on the memo itself (once per key, per
 * layouter, bounded) and on whole videos: every frame of Trieste and of a
 * two-up built with one layouter (memo hits) equals the frame built with a
 * fresh layouter of its own (no hits), and the hits do happen.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// Every environment's compositions, registered before a scene is built.
import "../../envs/compositions.ts";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { armsTimeline, triesteTimeline, twoUpSpec } from "../video-helpers.ts";
import type { Timeline } from "../../envs/geoguesser/replay/timeline/timeline-schema.ts";
import { RolloutPropsSchema } from "../../envs/geoguesser/video/rollout/props.ts";
import { sceneAt, videoFrames, type VideoSpec } from "../../video/compositions.ts";
import { Draw, identity } from "../../video/scene/draw.ts";
import { measuringLayouter, type TextLayouter } from "../../video/text/layouter.ts";
import { nodeMeasure } from "../../src/film/shared/fonts.ts";
import { readPlaces } from "../../src/film/shared/map-data.ts";
import type { Scene } from "../../video/scene/types.ts";
import { MapReads } from "../../src/film/shared/map-reads.ts";
import { planTextAndMaps } from "../../src/film/shared/text-plan.ts";

const tmp = mkdtempSync(join(tmpdir(), "georeplay-memo-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const SIZE = { width: 640, height: 360 };
const layouter = (): TextLayouter => measuringLayouter(nodeMeasure(), readPlaces);

let trieste: Timeline;
let twoUp: [Timeline, Timeline];
beforeAll(async () => {
  trieste = await triesteTimeline(tmp, 30, "rollouts/t30");
  twoUp = [await armsTimeline(tmp, "d37a27bd393a", "rollouts/two-a", 10), await armsTimeline(tmp, "ff03ebd569bb", "rollouts/two-b", 10)];
}, 600_000);

describe("Draw.memo", () => {
  it("runs a part once per key and layouter, and pushes the same primitives again", () => {
    const tx = layouter();
    let runs = 0;
    const part = (d: Draw, x: number) =>
      d.memo(["part", x], () => {
        runs++;
        d.rect({ x, y: 0, w: 10, h: 10 }, "#fff");
        d.text("label", x, 5, { role: "sans", size: 12, weight: 400 }, "#000");
      });
    const a = new Draw(tx);
    part(a, 1);
    const b = new Draw(tx);
    b.rect({ x: 0, y: 0, w: 1, h: 1 }, "#000"); // what came before a hit stays where it was
    part(b, 1);
    expect(runs).toBe(1);
    expect(b.prims.slice(1)).toEqual(a.prims);
    expect(b.prims[1]).toBe(a.prims[0]); // shared, not copied
    part(b, 2); // another input: laid out afresh
    expect(runs).toBe(2);
    expect(b.prims.at(-2)).toMatchObject({ t: "rect", x: 2 });
    part(new Draw(layouter()), 1); // another layouter: its text is its own, laid out afresh
    expect(runs).toBe(3);
  });

  it("stays bounded, the oldest parts going first, and still answers right after", () => {
    const tx = layouter();
    let runs = 0;
    const part = (d: Draw, i: number) => d.memo(["n", i], () => void (runs++, d.rect({ x: i, y: 0, w: 1, h: 1 }, "#fff")));
    for (let i = 0; i < 2000; i++) part(new Draw(tx), i);
    expect(runs).toBe(2000);
    const d = new Draw(tx);
    part(d, 1999); // recent: kept
    expect(runs).toBe(2000);
    part(d, 0); // the oldest: gone, laid out again, the same
    expect(runs).toBe(2001);
    expect(d.prims.map((p) => (p as { x: number }).x)).toEqual([1999, 0]);
  });

  it("numbers objects by identity, the same object always the same number", () => {
    const a = {};
    const b = {};
    expect(identity(a)).toBe(identity(a));
    expect(identity(a)).not.toBe(identity(b));
  });
});

/** Every frame built with one layouter (the memo's hits) against each built with a layouter of its own; and how many primitives the hits shared. */
function againstFresh(spec: VideoSpec): { frames: number; shared: number } {
  const warm = layouter();
  let shared = 0;
  let previous: Scene | null = null;
  const frames = videoFrames(spec);
  for (let f = 0; f < frames; f++) {
    const scene = sceneAt(spec, f, warm);
    expect(scene, `frame ${f}`).toEqual(sceneAt(spec, f, layouter()));
    if (previous) {
      const before = new Set(previous.prims);
      shared += scene.prims.filter((p) => before.has(p)).length;
    }
    previous = scene;
  }
  return { frames, shared };
}

describe("a video's scenes with parts laid out once", () => {
  it("Trieste: every frame as laid out afresh, most parts shared with the frame before", () => {
    const spec: VideoSpec = { composition: "Rollout", props: RolloutPropsSchema.parse({ ...trieste, output: SIZE }) };
    const { frames, shared } = againstFresh(spec);
    expect(frames).toBeGreaterThan(800);
    expect(shared / frames).toBeGreaterThan(20); // tens of primitives a frame come from the memo
  }, 120_000);

  it("a two-up: every frame as laid out afresh", () => {
    const { shared } = againstFresh(twoUpSpec(twoUp[0], twoUp[1], SIZE));
    expect(shared).toBeGreaterThan(0);
  }, 120_000);
});

describe("plans made with the process's shared layout cache", () => {
  it("equal, entry for entry and in order, the plan of a fresh layouter walking every frame; its map cells too", () => {
    const spec: VideoSpec = { composition: "Rollout", props: RolloutPropsSchema.parse({ ...trieste, output: SIZE }) };
    // The old plan: a layouter of its own (no shared answers) and every object of every scene walked.
    const tx = measuringLayouter(nodeMeasure(), readPlaces);
    const reads = new MapReads();
    for (let f = 0; f < videoFrames(spec); f++) reads.visit(sceneAt(spec, f, tx));
    const fresh = { text: reads.trimPlan(tx.plan()), cells: reads.cells() };
    const cold = planTextAndMaps(spec);
    const warm = planTextAndMaps(spec); // every answer from the shared cache now
    for (const got of [cold, warm]) {
      expect(JSON.stringify(got.text)).toBe(JSON.stringify(fresh.text));
      expect(got.cells).toEqual(fresh.cells);
    }
  });
});
