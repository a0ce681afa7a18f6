/**
 * A map as scene primitives: Natural Earth land and borders (one `map`
 * primitive, painted from the atlas cells by the painter), place names from
 * the gazetteer, a dashed great-circle line, pins drawn apart with labels
 * that meet nothing, a scale bar and the credit line. Every map of every
 * video goes through worldMap; the page draws the same primitives.
 */
import { geoInterpolate } from "d3-geo";
import { honestFrame, unwrapLon, type MapFrame } from "../map/frame.ts";
import { C } from "../scene/theme.ts";
import { Draw, font, lineBox } from "../scene/draw.ts";
import { fitPoints, mapProjection, type MapProjection } from "../map/projection.ts";
import { placeLabels, type NameIn, type PinIn, type Rect } from "../map/labels.ts";
import { placeCellsFor, placesIn, type Place } from "../map/places.ts";
import { placeReachKm } from "../map/reach.ts";
import { scaleBar } from "../map/scale-bar.ts";
import type { Box } from "../scene/types.ts";

type LatLon = readonly [number, number];

export interface Marker {
  at: LatLon;
  color: string;
  label?: string;
  scale?: number; // 0..1 pop-in; the layout reserves the pin's place before it appears, so nothing moves when it does
}

/** A pin's radius and the width of its white ring, in design units. */
const PIN_R = 11;
const PIN_RING = 3;

/** Natural Earth is public domain; GeoNames (the place names) asks for CC BY 4.0 attribution. */
export const MAP_CREDIT = "Natural Earth · places: GeoNames (CC BY 4.0)";

/** Places the scene can name, through the layouter (which records them into the text plan for the browser). */
export type Gazetteer = (cellKey: string) => readonly Place[];

/** `keepClear`: boxes (in the map's own pixels) that something drawn over the map covers: no pin or name goes there. */
export function worldMap(
  d: Draw,
  b: Box,
  frame: MapFrame,
  markers: Marker[],
  unit: number,
  line: { from: LatLon; to: LatLon; progress: number } | null = null,
  keepClear: Rect[] = [],
): void {
  d.memo(["worldMap", b, frame, markers, unit, line, keepClear], () => drawWorldMap(d, b, frame, markers, unit, line, keepClear));
}

function drawWorldMap(
  d: Draw,
  b: Box,
  frame: MapFrame,
  markers: Marker[],
  unit: number,
  line: { from: LatLon; to: LatLon; progress: number } | null,
  keepClear: Rect[],
): void {
  // Every pin whole inside the map: its radius and the outer half of its ring kept from the edges.
  const shown = fitPoints(
    honestFrame(frame),
    markers.map((m) => m.at),
    b.w,
    b.h,
    PIN_R * unit + PIN_RING * unit,
  );
  d.prims.push({ t: "map", x: b.x, y: b.y, w: b.w, h: b.h, frame: shown, sea: C.sea, land: C.land, border: C.border, lw: 0.8 * unit });
  const projection = mapProjection(shown, b.w, b.h);
  d.group({ clip: b }, () => {
    if (line && line.progress > 0) {
      const interp = geoInterpolate([line.from[1], line.from[0]], [line.to[1], line.to[0]]);
      const n = 64;
      const pts: number[] = [];
      // Unwrapped from the centre, then point to point: a line across the antimeridian does not jump across the map.
      let prev = shown.center[1];
      for (let i = 0; i <= n; i++) {
        const [lon, lat] = interp((i / n) * Math.min(1, line.progress));
        prev = unwrapLon(lon, prev);
        const xy = projection.raw(prev, lat);
        pts.push(b.x + xy[0], b.y + xy[1]);
      }
      if (pts.length >= 4) d.prims.push({ t: "poly", pts, closed: false, stroke: "#f4f1ea", lw: 2.5 * unit, dash: [8 * unit, 6 * unit], cap: "round" });
    }
    mapMarks(d, b, projection, shown, markers, unit, keepClear);
  });
}

/** Place names, pins, their labels, the scale bar and the credit, laid out together so nothing covers anything. */
function mapMarks(d: Draw, b: Box, projection: MapProjection, frame: MapFrame, markers: Marker[], unit: number, keepClear: Rect[]): void {
  const { nameFont, creditFont, barFont, pad } = marksStyle(unit);
  // Laid out once while the pins pop in and the reveal line draws (a pin's place is kept before it appears).
  const pinsKey = markers.map((m) => [m.at, m.label ?? null]);
  const { credit, creditBox, bar, barBox, places, laid, inset } = d.memoValue(["mapMarks", b, frame, pinsKey, unit, keepClear], () =>
    marksLayout(d, b, projection, frame, markers, unit, keepClear),
  );

  const halo = { color: "rgba(10,20,32,0.85)", width: 3 * unit };
  for (const n of laid.names) {
    if (n.dot) d.prims.push({ t: "circle", x: b.x + n.x, y: b.y + n.y, r: 3 * unit, fill: "#c9d1da", stroke: "#0e1116", lw: 1 * unit });
    d.text(places[n.index][0], b.x + n.label.x, b.y + n.label.y + n.label.h / 2, nameFont, "#c9d1da", { halo });
  }
  laid.pins.forEach((p, i) => {
    const m = markers[i];
    const s = m.scale ?? 1;
    if (s <= 0) return;
    if (p.from) {
      d.prims.push({ t: "poly", pts: [b.x + p.from[0], b.y + p.from[1], b.x + p.x, b.y + p.y], closed: false, stroke: C.white, lw: 2 * unit * s });
      d.prims.push({ t: "circle", x: b.x + p.from[0], y: b.y + p.from[1], r: 3 * unit * s, fill: m.color, stroke: C.white, lw: 1.5 * unit * s });
    }
    d.prims.push({ t: "circle", x: b.x + p.x, y: b.y + p.y, r: p.r * s, fill: m.color, stroke: C.white, lw: PIN_RING * unit * s });
    if (m.label && p.label) {
      const f = font("sans", 15 * unit * s, 600);
      d.text(m.label, b.x + p.label.x + p.label.w / 2, b.y + p.label.y + p.label.h / 2, f, C.white, {
        align: "center",
        halo: { color: "rgba(0,0,0,0.7)", width: 4 * unit * s },
      });
    }
  });

  // The scale bar: a white bar with dark ends over its length, the length above it.
  const bx = b.x + b.w - pad - bar.px;
  const by = b.y + barBox.y + barBox.h - 5 * unit;
  d.prims.push({ t: "rect", x: bx - unit, y: by - unit, w: bar.px + 2 * unit, h: 5 * unit + 2 * unit, fill: "rgba(10,20,32,0.85)" });
  d.prims.push({ t: "rect", x: bx, y: by, w: bar.px, h: 5 * unit, fill: C.white });
  d.text(bar.label, b.x + b.w - pad, b.y + barBox.y + lineBox(barFont.size) / 2, barFont, C.white, { align: "right", halo });
  d.text(credit, b.x + creditBox.x, b.y + creditBox.y + creditBox.h / 2, creditFont, C.dim, { halo });
  if (inset) locator(d, inset, frame, projection, unit);
}

/** The marks' fonts and padding, shared by their layout and their drawing. */
function marksStyle(unit: number) {
  return {
    pinFont: font("sans", 15 * unit, 600),
    nameFont: font("sans", 12 * unit, 600),
    creditFont: font("sans", 11 * unit),
    barFont: font("sans", 11 * unit, 600),
    pad: 8 * unit,
  };
}

/** Where mapMarks puts everything; depends on the markers' spots and labels, not on how far they have popped in. */
function marksLayout(d: Draw, b: Box, projection: MapProjection, frame: MapFrame, markers: Marker[], unit: number, keepClear: Rect[]) {
  const { pinFont, nameFont, creditFont, barFont, pad } = marksStyle(unit);
  // The credit bottom left, the scale bar bottom right (above the credit when a small map has no room beside it): reserved first.
  const credit = d.tx.fit(MAP_CREDIT, creditFont, b.w - 2 * pad);
  const creditW = d.width(credit, creditFont);
  const creditBox: Rect = { x: pad, y: b.h - pad - lineBox(creditFont.size), w: creditW, h: lineBox(creditFont.size) };
  const beside = b.w - creditW - 3 * pad >= 60 * unit;
  const bar = scaleBar(projection.kmPerPx, beside ? Math.min(b.w * 0.25, b.w - creditW - 3 * pad) : b.w * 0.25);
  const barW = Math.max(bar.px, d.width(bar.label, barFont));
  const barH = 6 * unit + lineBox(barFont.size);
  const barBox: Rect = { x: b.w - pad - barW, y: (beside ? b.h - pad : creditBox.y - pad / 2) - barH, w: barW, h: barH };

  const pins: PinIn[] = markers.map((m) => {
    const [x, y] = projection([m.at[1], m.at[0]]);
    return { x, y, r: PIN_R * unit, ...(m.label ? { label: { w: d.width(m.label, pinFont), h: lineBox(pinFont.size) } } : {}) };
  });
  const gazetteer = d.tx.places;
  const places = gazetteer ? namesFor(gazetteer, projection, frame).slice(0, 60) : [];
  const names: NameIn[] = places.map((p) => {
    const [x, y] = projection.raw(p[2], p[1]);
    return { x, y, w: d.width(p[0], nameFont), h: lineBox(nameFont.size), reach: placeReachKm(p[3]) / projection.kmPerPx };
  });
  const inset = frame.halfWidthDeg <= INSET_BELOW_DEG ? insetBox(b, unit) : null;
  const reserved = [creditBox, barBox, ...keepClear];
  if (inset) reserved.push({ x: inset.x - b.x - pad / 2, y: inset.y - b.y - pad / 2, w: inset.w + pad, h: inset.h + pad });
  const laid = placeLabels(pins, names, { width: b.w, height: b.h, reserved, gap: 6 * unit, dot: 3 * unit, maxNames: 12 });
  return { credit, creditBox, bar, barBox, places, laid, inset };
}

/** Maps this close (a city, tens of km) get a locator inset: the region around them, the map's view marked on it. */
const INSET_BELOW_DEG = 1;
const INSET_HALF_WIDTH_DEG = 10;

function insetBox(b: Box, unit: number): Box {
  const side = Math.round(Math.min(b.w, b.h) * 0.28);
  return { x: b.x + b.w - side - 8 * unit, y: b.y + 8 * unit, w: side, h: side };
}

function locator(d: Draw, box: Box, frame: MapFrame, view: MapProjection, unit: number): void {
  const wide = { center: frame.center, halfWidthDeg: INSET_HALF_WIDTH_DEG };
  d.rect({ x: box.x - 2 * unit, y: box.y - 2 * unit, w: box.w + 4 * unit, h: box.h + 4 * unit }, C.panelEdge, 4 * unit);
  d.prims.push({ t: "map", x: box.x, y: box.y, w: box.w, h: box.h, frame: wide, sea: C.sea, land: C.land, border: C.border, lw: 0.6 * unit });
  // The main map's view on the inset: a box, never smaller than a few pixels so it shows.
  const p = mapProjection(wide, box.w, box.h);
  const [x0, y0] = p.raw(view.view.lon[0], view.view.lat[1]);
  const [x1, y1] = p.raw(view.view.lon[1], view.view.lat[0]);
  const m = 3 * unit;
  const cx = (x0 + x1) / 2;
  const cy = (y0 + y1) / 2;
  const hw = Math.max(m, (x1 - x0) / 2);
  const hh = Math.max(m, (y1 - y0) / 2);
  d.prims.push({ t: "rect", x: box.x + cx - hw, y: box.y + cy - hh, w: 2 * hw, h: 2 * hh, stroke: C.accent, lw: 1.5 * unit });
}

/** The gazetteer's places a framing names, in the cells its view touches (shifted by whole turns across the antimeridian). */
function namesFor(gazetteer: Gazetteer, projection: MapProjection, frame: MapFrame): Place[] {
  const cells = placeCellsFor(projection.view).map((c) => ({ places: gazetteer(c.key), shift: c.shift }));
  return placesIn(cells, projection.view, frame.halfWidthDeg);
}
