/**
 * Maps for the pages, drawn by the one map module (video/map/): the same
 * framing, Natural Earth cells, place names, pins drawn apart, labels that
 * meet nothing and scale bar as a video's map. The page gets a map as
 * primitives already laid out: land and borders as SVG path data for just
 * what the map shows, then the circles, lines and text the scene part drew
 * (GeoGuesser's client, envs/geoguesser/src/page/client/maps.ts, writes them as SVG).
 */
import { worldMap, type Marker } from "../../video/parts/world-map.ts";
import { mapRings, svgPath } from "../../video/map/paths.ts";
import { spanFrame, type LatLon, type MapFrame } from "../../video/map/frame.ts";
import { Draw } from "../../video/scene/draw.ts";
import { measuringLayouter, type TextLayouter } from "../../video/text/layouter.ts";
import type { Prim } from "../../video/scene/types.ts";
import type { Rect } from "../../video/map/labels.ts";
import { C } from "../../video/scene/theme.ts";
import { nodeMeasure } from "../film/shared/fonts.ts";
import { readMapCell, readPlaces } from "../film/shared/map-data.ts";

// The framing rules live in video/map/frame.ts (the video uses the same ones).
export { haversineKm, pinsFrame, revealFrame, separationDeg, type LatLon } from "../../video/map/frame.ts";

/**
 * A page map's size in its own pixels, about the size a page shows it (the outcome
 * box is 260 px wide), and its design unit (the video's score card is 672 px at 1):
 * names at ~10 px, pin labels at 12 px.
 */
export const PAGE_MAP_SIZE = 280;
const UNIT = 0.8;

/**
 * A map's colours, its frame and its land and borders as SVG path data (in map pixels).
 * A board page leaves the paths out (sharedGeometry): its client draws them from the
 * page's one table of atlas cells, the same paths from the same cells.
 */
export interface MapPaint {
  sea: string;
  land: string;
  border: string;
  lw: number;
  frame: MapFrame;
  landPath?: string;
  bordersPath?: string;
}

/** An inset map (the locator of a close map): its box and its paint. */
export interface InsetPrim extends MapPaint {
  t: "inset";
  x: number;
  y: number;
  w: number;
  h: number;
}

/** A page map's primitives (no images, no groups: the SVG's own box clips it). */
export type MapPrim = Extract<Prim, { t: "circle" } | { t: "poly" } | { t: "text" } | { t: "rect" }> | InsetPrim;

export interface MapSpec extends MapPaint {
  size: number;
  prims: MapPrim[];
  /** What the legend lists. */
  has: { guess: boolean; truth: boolean; pins: boolean };
}

let layouter: TextLayouter | null = null;

/**
 * The corner a turn's badge ("match", "map (redrawn)") covers, in map pixels: the page's CSS puts
 * it 6 px from the top left of the turn's media (`.media .badge`), ~100 x 20 px with the longest
 * text where the media is narrowest (~270 px for the map's 280).
 */
export const TURN_BADGE_BOX: Rect = { x: 0, y: 0, w: 112, h: 30 };

/** `withPaths` false: the map as sharedGeometry leaves it (no land or borders), without computing them. */
export function mapSpec(frame: MapFrame, pins: LatLon[], guess: LatLon | null, truth: LatLon | null, keepClear: Rect[] = [], withPaths = true): MapSpec {
  const size = PAGE_MAP_SIZE;
  const d = new Draw((layouter ??= measuringLayouter(nodeMeasure(), readPlaces)));
  const markers: Marker[] = pins.map((p, i) => ({ at: p, color: C.accent, label: `Pin ${i + 1}` }));
  if (truth) markers.push({ at: truth, color: C.truth, label: "Truth" });
  if (guess) markers.push({ at: guess, color: C.guess, label: "Guess" });
  // The truth and guess first: when pins meet, the outcome's keep their spots and the pins move.
  markers.sort((a, b) => Number(b.color !== C.accent) - Number(a.color !== C.accent));
  worldMap(d, { x: 0, y: 0, w: size, h: size }, frame, markers, UNIT, guess && truth ? { from: guess, to: truth, progress: 1 } : null, keepClear);
  const map = d.prims.find((p) => p.t === "map") as Extract<Prim, { t: "map" }>;
  const paths = withPaths ? landAndBorders(map.frame, size) : {};
  const prims: MapPrim[] = [];
  for (const p of d.prims) {
    if (p.t === "map" && p !== map) {
      const r = withPaths ? mapRings(p.frame, p.w, p.h, readMapCell) : null;
      prims.push({
        t: "inset",
        x: r1(p.x),
        y: r1(p.y),
        w: p.w,
        h: p.h,
        sea: p.sea,
        land: p.land,
        border: p.border,
        lw: r1(p.lw),
        frame: p.frame,
        ...(r ? { landPath: svgPath(r.land, p.w, p.h, true), bordersPath: svgPath(r.borders, p.w, p.h, false) } : {}),
      });
    } else if (p.t === "rect") prims.push({ ...p, x: r1(p.x), y: r1(p.y), w: r1(p.w), h: r1(p.h) });
    else if (p.t === "circle" || p.t === "poly") prims.push(round(p));
    else if (p.t === "text") prims.push(round(p));
  }
  return {
    size,
    sea: map.sea,
    land: map.land,
    border: map.border,
    lw: map.lw,
    frame: map.frame,
    ...paths,
    prims,
    has: { guess: guess !== null, truth: truth !== null, pins: pins.length > 0 },
  };
}

/**
 * The map as a board page stores it: frames, colours and primitives, without its land and
 * borders (the page carries the atlas cells once; the client cuts the paths from them).
 */
export function sharedGeometry(m: MapSpec): MapSpec {
  const { landPath: _l, bordersPath: _b, ...rest } = m;
  return {
    ...rest,
    prims: m.prims.map((p) => {
      if (p.t !== "inset") return p;
      const { landPath: _pl, bordersPath: _pb, ...inset } = p;
      return inset;
    }),
  };
}

/** The last frame's land and borders: a board draws every map of a task's compare rows in one frame. */
let lastPaths: { key: string; paths: { landPath: string; bordersPath: string } } | null = null;

function landAndBorders(frame: MapFrame, size: number): { landPath: string; bordersPath: string } {
  const key = JSON.stringify([frame, size]);
  if (lastPaths?.key !== key) {
    const rings = mapRings(frame, size, size, readMapCell);
    lastPaths = { key, paths: { landPath: svgPath(rings.land, size, size, true), bordersPath: svgPath(rings.borders, size, size, false) } };
  }
  return lastPaths.paths;
}

const r1 = (x: number) => Math.round(x * 10) / 10;

/** Tenths of a pixel: enough for an SVG, and a page an eighth the size. */
function round<T extends Extract<MapPrim, { t: "circle" | "poly" | "text" }>>(p: T): T {
  if (p.t === "poly") return { ...p, pts: p.pts.map(r1), ...(p.dash ? { dash: p.dash.map(r1) } : {}), lw: r1(p.lw ?? 1) };
  if (p.t === "circle") return { ...p, x: r1(p.x), y: r1(p.y), r: r1(p.r), lw: r1(p.lw ?? 1) };
  return {
    ...p,
    x: r1(p.x),
    y: r1(p.y),
    font: { ...p.font, size: r1(p.font.size) },
    ...(p.halo ? { halo: { color: p.halo.color, width: r1(p.halo.width) } } : {}),
  };
}

/**
 * One frame for the maps of a compare row (the same task, two attempts): both
 * guesses and the truth fit it, so the two maps share a scale and a centre.
 */
export function sharedFrame(truth: LatLon | null, guesses: (LatLon | null)[]): MapFrame {
  const pts = [truth, ...guesses].filter((p): p is LatLon => p !== null);
  return spanFrame(pts, PAGE_MAP_SIZE, PAGE_MAP_SIZE);
}
