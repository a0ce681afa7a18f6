/**
 * Maps (issue 51, item 10): pins are never cut at the frame's edge, and the
 * place a pin names is the largest it lies in. fitPoints, over generated
 * framings, keeps every point its margin inside every edge (east-west as well
 * as north-south); the real scene part (worldMap, Skia-measured text, the
 * gazetteer cells from dist/map) draws the pins of an east-west pair at high
 * latitude (Oslo and Helsinki, the environment's reveal framing) and of a
 * pin map across Iceland to Finland whole and at their true spots; a truth in
 * Belgrano, a barrio of Buenos Aires, names Buenos Aires beside it, not
 * Belgrano, while the guess in Quilmes still names Quilmes.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { Draw } from "../../video/scene/draw.ts";
import { measuringLayouter } from "../../video/text/layouter.ts";
import { worldMap, type Marker } from "../../video/parts/world-map.ts";
import { fitPoints, mapProjection } from "../../video/map/projection.ts";
import { pinsFrame, revealFrame, type LatLon, type MapFrame } from "../../video/map/frame.ts";
import { placeLabels } from "../../video/map/labels.ts";
import { placeReachKm } from "../../video/map/reach.ts";
import { nodeMeasure } from "../../src/film/shared/fonts.ts";
import { readPlaces } from "../../src/film/shared/map-data.ts";
import type { Prim } from "../../video/scene/types.ts";

const tx = measuringLayouter(nodeMeasure(), readPlaces);
type Circle = Extract<Prim, { t: "circle" }>;
type Text = Extract<Prim, { t: "text" }>;

/** worldMap in a box at (10, 20): its pins (the large circles, in marker order), its texts, the frame it showed. */
function draw(frame: MapFrame, markers: Marker[], w: number, h: number, unit = 1) {
  const d = new Draw(tx);
  const b = { x: 10, y: 20, w, h };
  worldMap(d, b, frame, markers, unit, null);
  const map = d.prims.find((p): p is Extract<Prim, { t: "map" }> => p.t === "map")!;
  const pins = d.prims.filter((p): p is Circle => p.t === "circle" && p.r >= 10 * unit);
  const texts = d.prims.filter((p): p is Text => p.t === "text");
  return { b, shown: map.frame, pins, texts };
}

describe("pins are never cut at the frame's edge", () => {
  it("fitPoints keeps every point at least its margin inside every edge (400 framings, any latitude, east-west too)", () => {
    fc.assert(
      fc.property(
        fc.double({ min: -75, max: 75, noNaN: true }),
        fc.double({ min: -180, max: 179.9, noNaN: true }),
        fc.double({ min: Math.log(0.05), max: Math.log(40), noNaN: true }),
        fc.array(fc.tuple(fc.double({ min: -2, max: 2, noNaN: true }), fc.double({ min: -2, max: 2, noNaN: true })), { minLength: 1, maxLength: 4 }),
        fc.tuple(fc.integer({ min: 200, max: 1280 }), fc.integer({ min: 200, max: 1080 })),
        fc.double({ min: 0, max: 20, noNaN: true }),
        (lat, lon, logHalf, offsets, [w, h], margin) => {
          const half = Math.exp(logHalf);
          const frame: MapFrame = { center: [lat, lon], halfWidthDeg: half };
          const points: LatLon[] = offsets.map(([a, o]) => [Math.max(-80, Math.min(80, lat + a * half)), lon + o * half]);
          const shown = fitPoints(frame, points, w, h, margin);
          expect(shown.halfWidthDeg).toBeGreaterThanOrEqual(half);
          if (shown.halfWidthDeg >= 180) return;
          const p = mapProjection(shown, w, h);
          for (const pt of points) {
            const [x, y] = p([pt[1], pt[0]]);
            expect(x).toBeGreaterThanOrEqual(margin - 1e-6);
            expect(x).toBeLessThanOrEqual(w - margin + 1e-6);
            expect(y).toBeGreaterThanOrEqual(margin - 1e-6);
            expect(y).toBeLessThanOrEqual(h - margin + 1e-6);
          }
        },
      ),
      { numRuns: 400, seed: 51 },
    );
  });

  const cases: { name: string; frame: (pts: LatLon[]) => MapFrame; markers: Marker[] }[] = [
    {
      name: "a guess in Oslo, the truth in Helsinki (the environment's reveal framing, 7 degrees apart east-west at 60°N)",
      frame: (pts) => revealFrame(pts[0], pts[1]),
      markers: [
        { at: [59.91, 10.75], color: "#c4332a", label: "Guess" },
        { at: [60.17, 24.94], color: "#3f7a55", label: "Truth" },
      ],
    },
    {
      name: "a pin map from Reykjavik to Oulu",
      frame: (pts) => pinsFrame(pts)!,
      markers: [
        { at: [64.15, -21.94], color: "#d08a17", label: "Pin 1" },
        { at: [65.01, 25.47], color: "#d08a17", label: "Pin 2" },
      ],
    },
  ];
  for (const c of cases) {
    for (const [w, h] of [
      [640, 360],
      [280, 280],
    ]) {
      it(`${c.name}: at ${w}x${h} every pin is whole and at its true spot`, () => {
        const { b, shown, pins } = draw(c.frame(c.markers.map((m) => m.at)), c.markers, w, h);
        expect(pins).toHaveLength(c.markers.length);
        const p = mapProjection(shown, w, h);
        pins.forEach((pin, i) => {
          const ring = (pin.lw ?? 0) / 2;
          expect(pin.x - pin.r - ring, `pin ${i} left`).toBeGreaterThanOrEqual(b.x);
          expect(pin.x + pin.r + ring, `pin ${i} right`).toBeLessThanOrEqual(b.x + b.w);
          expect(pin.y - pin.r - ring, `pin ${i} top`).toBeGreaterThanOrEqual(b.y);
          expect(pin.y + pin.r + ring, `pin ${i} bottom`).toBeLessThanOrEqual(b.y + b.h);
          const [x, y] = p([c.markers[i].at[1], c.markers[i].at[0]]);
          expect(Math.hypot(b.x + x - pin.x, b.y + y - pin.y), `pin ${i} at its spot`).toBeLessThan(0.5);
        });
      });
    }
  }
});

describe("among the places under a pin the largest is named", () => {
  it("a place whose reach holds the pin is named beside it ahead of a smaller one whose dot the pin covers", () => {
    const opts = { width: 400, height: 300, reserved: [], gap: 6, dot: 3, maxNames: 5 };
    const laid = placeLabels(
      [{ x: 200, y: 150, r: 11 }],
      [
        { x: 260, y: 170, w: 80, h: 15, reach: 90 }, // the city, its centre 63 px off
        { x: 202, y: 151, w: 50, h: 15, reach: 3 }, // the barrio under the pin
      ],
      opts,
    );
    expect(laid.names.map((n) => [n.index, n.dot])).toEqual([[0, false]]);
  });

  it("a truth in Belgrano names Buenos Aires beside it (not Belgrano); the guess in Quilmes names Quilmes", () => {
    expect(placeReachKm(13_076_300)).toBeGreaterThan(30);
    const truth: LatLon = [-34.5627, -58.4583]; // Belgrano, 10.7 km from Buenos Aires' gazetteer point
    const guess: LatLon = [-34.729, -58.264]; // Quilmes
    for (const [w, h] of [
      [672, 420],
      [280, 280],
    ]) {
      const { pins, texts } = draw(
        revealFrame(guess, truth),
        [
          { at: truth, color: "#3f7a55", label: "Truth" },
          { at: guess, color: "#c4332a", label: "Guess" },
        ],
        w,
        h,
        w < 400 ? 0.8 : 1,
      );
      const names = texts.filter((t) => t.text !== "Truth" && t.text !== "Guess" && !/km|GeoNames/.test(t.text));
      const nearest = (pin: Circle) => names.reduce((a, t) => (Math.hypot(t.x - pin.x, t.y - pin.y) < Math.hypot(a.x - pin.x, a.y - pin.y) ? t : a)).text;
      expect(
        names.map((t) => t.text),
        `${w}x${h}`,
      ).toContain("Buenos Aires");
      expect(names.map((t) => t.text)).not.toContain("Belgrano");
      expect(nearest(pins[0]), `${w}x${h}: beside the truth`).toBe("Buenos Aires");
      expect(nearest(pins[1]), `${w}x${h}: beside the guess`).toBe("Quilmes");
    }
  });
});
