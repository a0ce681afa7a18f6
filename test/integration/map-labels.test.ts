/**
 * The map's labels never collide: over a few hundred generated framings
 * (anywhere on Earth, a town to the whole world, maps from thumbnail to
 * full frame, up to six pins, some on the same spot), the real scene part
 * (video/parts/world-map.ts's worldMap, with Skia-measured text and the real
 * gazetteer cells from dist/map) never draws two label boxes that
 * intersect, never a label over a pin, and never two pins on one another.
 * The place under the pins is named (beside them, ahead of smaller places):
 * Trieste on the sample Trieste episode's real score card. Also the scale
 * bar's round lengths and the cells a view reads.
 */
import { describe, expect, it } from "vitest";
// Every environment's compositions, registered before a scene is built.
import "../../envs/compositions.ts";
import fc from "fast-check";
import { Draw, lineBox } from "../../video/scene/draw.ts";
import { measuringLayouter } from "../../video/text/layouter.ts";
import { worldMap, type Marker } from "../../video/parts/world-map.ts";
import { scaleBar } from "../../video/map/scale-bar.ts";
import { cellsFor } from "../../video/map/atlas.ts";
import { nodeMeasure } from "../../src/film/shared/fonts.ts";
import { readPlaces } from "../../src/film/shared/map-data.ts";
import type { Prim } from "../../video/scene/types.ts";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../helpers.ts";
import { EpisodeSchema } from "../../envs/geoguesser/replay/schema/episode.ts";
import { TaskRowSchema } from "../../envs/geoguesser/replay/schema/task.ts";
import { planEpisode } from "../../envs/geoguesser/replay/plan/segments.ts";
import { buildTimeline } from "../../envs/geoguesser/replay/frames/build-timeline.ts";
import { RolloutPropsSchema } from "../../envs/geoguesser/video/rollout/props.ts";
import { sceneAt } from "../../video/compositions.ts";
import { placeLabels } from "../../video/map/labels.ts";

const tx = measuringLayouter(nodeMeasure(), readPlaces);

interface R {
  x: number;
  y: number;
  w: number;
  h: number;
}
const EPS = 0.01;
const meet = (a: R, b: R) => a.x + EPS < b.x + b.w && b.x + EPS < a.x + a.w && a.y + EPS < b.y + b.h && b.y + EPS < a.y + a.h;

function textBox(p: Extract<Prim, { t: "text" }>): R {
  const w = tx.width(p.text, p.font);
  const left = p.align === "center" ? p.x - w / 2 : p.align === "right" ? p.x - w : p.x;
  const h = lineBox(p.font.size);
  return { x: left, y: p.y - h / 2, w, h };
}

const latLon = fc.tuple(fc.double({ min: -80, max: 80, noNaN: true }), fc.double({ min: -180, max: 179.99, noNaN: true }));

// Half the framings over populated places (so names compete with pins), half anywhere (mostly sea).
const somewhere = fc.oneof(
  latLon,
  fc.constantFrom<[number, number]>(
    [45.65, 13.77],
    [9.06, 7.49],
    [35.68, 139.69],
    [40.71, -74.0],
    [-17.8, 178.0],
    [78.2, 15.6],
    [51.5, -0.12],
    [-23.55, -46.63],
  ),
);

const framing = fc.record({
  center: somewhere,
  // log-uniform half-widths: a town (0.05 degrees) to the world.
  logHalf: fc.double({ min: Math.log(0.05), max: Math.log(180), noNaN: true }),
  size: fc.tuple(fc.integer({ min: 220, max: 1080 }), fc.integer({ min: 220, max: 1080 })),
  unit: fc.constantFrom(0.75, 1, 1.5),
  // Pins as offsets from the centre, in half-widths (some outside the frame, some on the same spot).
  pins: fc.array(fc.tuple(fc.double({ min: -1.3, max: 1.3, noNaN: true }), fc.double({ min: -1.3, max: 1.3, noNaN: true }), fc.boolean()), {
    minLength: 1,
    maxLength: 6,
  }),
});

describe("map labels", () => {
  it("no two label boxes intersect, no label covers a pin, no pin covers another (300 framings)", () => {
    let named = 0;
    let moved = 0;
    fc.assert(
      fc.property(framing, (f) => {
        const halfWidthDeg = Math.exp(f.logHalf);
        const [w, h] = f.size;
        const box = { x: 0, y: 0, w, h };
        const markers: Marker[] = f.pins.map(([dx, dy, same], i) => ({
          // "same": on the first pin's spot (a guess on the truth).
          at: same && i > 0 ? [f.center[0], f.center[1]] : [f.center[0] + dy * halfWidthDeg * 0.5, f.center[1] + dx * halfWidthDeg],
          color: "#f00",
          label: i === 0 ? "Truth" : `Pin ${i}`,
        }));
        const d = new Draw(tx);
        worldMap(d, box, { center: f.center, halfWidthDeg }, markers, f.unit);
        const texts = d.prims.filter((p): p is Extract<Prim, { t: "text" }> => p.t === "text").map(textBox);
        const pins = d.prims.filter((p): p is Extract<Prim, { t: "circle" }> => p.t === "circle" && p.r >= 10 * f.unit);
        expect(pins.length).toBe(markers.length);
        for (let i = 0; i < texts.length; i++) for (let j = i + 1; j < texts.length; j++) expect(meet(texts[i], texts[j]), `labels ${i} and ${j}`).toBe(false);
        for (const t of texts) for (const p of pins) expect(meet(t, { x: p.x - p.r, y: p.y - p.r, w: 2 * p.r, h: 2 * p.r }), "a label over a pin").toBe(false);
        // Pins apart (when the map has room for them: six pins always fit a 220 px map).
        for (let i = 0; i < pins.length; i++)
          for (let j = i + 1; j < pins.length; j++)
            expect(Math.hypot(pins[i].x - pins[j].x, pins[i].y - pins[j].y)).toBeGreaterThanOrEqual(pins[i].r + pins[j].r);
        named += texts.length - markers.length - 2 > 0 ? 1 : 0;
        moved += d.prims.some((p) => p.t === "poly" && !p.dash) ? 1 : 0;
      }),
      { numRuns: 300, seed: 23 },
    );
    // The generator reaches the cases that matter: framings with place names, and pins moved apart.
    expect(named).toBeGreaterThan(60);
    expect(moved).toBeGreaterThan(20);
  });

  it("Trieste's score card names Trieste, under its pins, beside them and first; no village takes its place", () => {
    const sample = join(ROOT, "rollouts", "sample");
    const episode = EpisodeSchema.parse(JSON.parse(readFileSync(join(sample, "episodes.jsonl"), "utf8").split("\n")[0]));
    expect(episode.episode_id).toBe("90a9d3eba5ce");
    const rows = readFileSync(join(sample, "tasks.jsonl"), "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => TaskRowSchema.parse(JSON.parse(l)));
    const row = rows.find((r) => r.task_id === episode.task.task_id) ?? null;
    const timeline = buildTimeline(planEpisode(episode, { fps: 30 }), episode, row, {
      fps: 30,
      width: 640,
      height: 640,
      framesDir: "frames",
      verified: true,
      keyframeSha: new Map(),
    });
    for (const output of [
      { width: 1280, height: 720 },
      { width: 1080, height: 1080 },
    ]) {
      const props = RolloutPropsSchema.parse({ ...timeline, output });
      const scene = sceneAt({ composition: "Rollout", props }, props.totalFrames - 1, tx);
      const texts = scene.prims.filter((p): p is Extract<Prim, { t: "text" }> => p.t === "text");
      const trieste = texts.find((t) => t.text === "Trieste");
      expect(trieste, `${output.width}x${output.height}: Trieste named`).toBeDefined();
      // Beside the pins, never under them: its box meets neither pin.
      const pins = scene.prims.filter((p): p is Extract<Prim, { t: "circle" }> => p.t === "circle" && p.r >= 10);
      expect(pins.length).toBe(2);
      const box = textBox(trieste!);
      for (const p of pins) expect(meet(box, { x: p.x - p.r, y: p.y - p.r, w: 2 * p.r, h: 2 * p.r })).toBe(false);
      // ...and close to them: within two pin widths of the nearer pin.
      const near = Math.min(...pins.map((p) => Math.hypot(box.x + box.w / 2 - p.x, box.y + box.h / 2 - p.y)));
      expect(near).toBeLessThan(box.w / 2 + 4 * pins[0].r);
    }
  });

  it("a place under a pin is named beside it ahead of more populous places elsewhere, without its dot; one name per pin", () => {
    const opts = { width: 400, height: 300, reserved: [], gap: 6, dot: 3, maxNames: 1 };
    const laid = placeLabels(
      [{ x: 200, y: 150, r: 11, label: { w: 40, h: 18 } }],
      [
        { x: 60, y: 60, w: 50, h: 15 }, // a bigger city away from the pin
        { x: 202, y: 151, w: 50, h: 15 }, // the place under the pin
        { x: 198, y: 149, w: 40, h: 15 }, // a village under it too
      ],
      opts,
    );
    expect(laid.names).toHaveLength(1);
    expect(laid.names[0]).toMatchObject({ index: 1, dot: false });
    const l = laid.names[0].label;
    // Beside the pin (right of it), clear of it and of its label (above).
    expect(l.x).toBeGreaterThanOrEqual(200 + 11);
    expect(Math.abs(l.y + l.h / 2 - 150)).toBeLessThan(1);
    const all = placeLabels(
      [{ x: 200, y: 150, r: 11 }],
      [
        { x: 60, y: 60, w: 50, h: 15 },
        { x: 202, y: 151, w: 50, h: 15 },
        { x: 198, y: 149, w: 40, h: 15 },
      ],
      {
        ...opts,
        maxNames: 5,
      },
    );
    expect(all.names.map((n) => [n.index, n.dot])).toEqual([
      [1, false],
      [0, true],
    ]);
  });

  it("the scale bar is a round length in km, or m below 1 km, no longer than asked", () => {
    expect(scaleBar(0.05, 200)).toEqual({ px: 200, label: "10 km" });
    expect(scaleBar(0.0123, 120).label).toBe("1 km");
    expect(scaleBar(0.004, 150).label).toBe("500 m");
    expect(scaleBar(30, 160).label).toBe("2,000 km");
    fc.assert(
      fc.property(fc.double({ min: 1e-4, max: 100, noNaN: true }), fc.integer({ min: 40, max: 500 }), (kmPerPx, maxPx) => {
        const b = scaleBar(kmPerPx, maxPx);
        expect(b.px).toBeLessThanOrEqual(maxPx + 1e-9);
        expect(b.px).toBeGreaterThan(maxPx / 5 - 1e-9);
        expect(b.label).toMatch(/^(1|2|5)(0|,000)* (k?m)$/);
      }),
    );
  });

  it("a view across the antimeridian reads the cells on both sides, shifted by a whole turn", () => {
    const refs = cellsFor("10m", { lon: [175, 185], lat: [-20, -15] });
    expect(refs).toEqual([
      { key: "10m/35_7", shift: 0 },
      { key: "10m/0_7", shift: 360 },
    ]);
  });
});
