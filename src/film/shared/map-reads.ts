/**
 * What a video's maps read, found by walking its scenes: the atlas cells of
 * every framing and, per gazetteer cell, the places some framing can name
 * (inside its view, at or above its population floor). A player elsewhere
 * (the page's) needs exactly these besides the props to paint the same
 * maps: the run page per episode, a board page once for all its episodes.
 *
 * Everything kept is bounded by the atlas and the gazetteer, not by how
 * many maps were walked: a page of 128,000 rollouts walks millions of
 * framings (keeping each one's view held gigabytes, and copying a cell's
 * growing list of views made the walk quadratic).
 */
import type { TextPlan } from "../../../video/text/layouter.ts";
import { atlasFor, cellsFor } from "../../../video/map/atlas.ts";
import { mapProjection } from "../../../video/map/projection.ts";
import type { MapFrame } from "../../../video/map/frame.ts";
import type { Scene } from "../../../video/scene/types.ts";
import { minPopulation, placeCellsFor, type Place } from "../../../video/map/places.ts";
import { readPlaces } from "./map-data.ts";

/** Framings remembered to skip walking them again; past this many the memory starts afresh (a cache: every read is idempotent). */
const FRAMINGS_REMEMBERED = 50_000;

export interface MapReadsOptions {
  /** The gazetteer's places of a cell (most populous first); false: the atlas cells alone are wanted. */
  places?: ((cellKey: string) => readonly Place[]) | false;
}

export class MapReads {
  private framings = new Set<string>();
  private readonly atlasCells = new Set<string>();
  /** Per gazetteer cell read, a flag per place (in the cell's order): 1 where some framing names it. */
  private readonly named = new Map<string, Uint8Array>();
  private readonly placesOf: ((cellKey: string) => readonly Place[]) | null;

  constructor(opts: MapReadsOptions = {}) {
    this.placesOf = opts.places === false ? null : (opts.places ?? readPlaces);
  }

  /**
   * Objects already walked: a scene's memoized parts are the same objects frame after frame
   * (video/scene/draw.ts), and walking one again adds nothing (every read is a set's).
   */
  private readonly walked = new WeakSet<object>();

  /**
   * A whole scene's map primitives: a scene's primitives are flat (video/scene/types.ts: no
   * primitive holds another), so only its `map` ones are read; the same reads as visit(scene).
   */
  visitScene(scene: Scene): void {
    for (const p of scene.prims) if (p.t === "map") this.visit(p);
  }

  /** Walks a scene (or any part of one) for its map primitives. */
  visit(node: unknown): void {
    if (!node || typeof node !== "object") return;
    if (this.walked.has(node)) return;
    this.walked.add(node);
    if (Array.isArray(node)) {
      for (const n of node) this.visit(n);
      return;
    }
    if (!node || typeof node !== "object") return;
    const p = node as { t?: string; frame?: MapFrame; w?: number; h?: number };
    if (p.t === "map" && p.frame && p.w && p.h) {
      const key = JSON.stringify([p.frame, p.w, p.h]);
      if (this.framings.has(key)) return;
      if (this.framings.size >= FRAMINGS_REMEMBERED) this.framings = new Set();
      this.framings.add(key);
      const view = mapProjection(p.frame, p.w, p.h).view;
      for (const ref of cellsFor(atlasFor(p.frame), view)) this.atlasCells.add(ref.key);
      if (!this.placesOf) return;
      const floor = minPopulation(p.frame.halfWidthDeg);
      // The view shifted into each cell's longitudes (a view across the antimeridian reads cells on both sides).
      for (const c of placeCellsFor(view)) this.name(c.key, view.lat, [view.lon[0] - c.shift, view.lon[1] - c.shift], floor);
      return;
    }
    for (const v of Object.values(node)) if (typeof v === "object") this.visit(v);
  }

  /** Flags the places of a gazetteer cell a view names: inside it, at or above its floor. */
  private name(cellKey: string, lat: readonly [number, number], lon: readonly [number, number], floor: number): void {
    const places = this.placesOf!(cellKey);
    let flags = this.named.get(cellKey);
    if (!flags) this.named.set(cellKey, (flags = new Uint8Array(places.length)));
    for (let i = 0; i < places.length; i++) {
      const p = places[i];
      if (p[3] >= floor && p[1] >= lat[0] && p[1] <= lat[1] && p[2] >= lon[0] && p[2] <= lon[1]) flags[i] = 1;
    }
  }

  /** The atlas cells the framings read, sorted. */
  cells(): string[] {
    return [...this.atlasCells].sort();
  }

  /** The gazetteer cells the framings read, sorted. */
  placeCells(): string[] {
    return [...this.named.keys()].sort();
  }

  /**
   * A gazetteer cell cut to the places some framing can name. `places` is the cell as the
   * options' `places` gives it (the layouter's text plan holds those same lists). The cut keeps
   * the cell's order (most populous first), and a framing stops at its floor (placesIn), so
   * every framing names exactly what it named from the whole cell. A cell no framing was seen
   * to read stays whole.
   */
  trim(cellKey: string, places: readonly Place[]): Place[] {
    const flags = this.named.get(cellKey);
    if (flags === undefined) return [...places];
    if (flags.length !== places.length) throw new Error(`map reads: cell ${cellKey} has ${places.length} places, ${flags.length} were read`);
    return places.filter((_, i) => flags[i] === 1);
  }

  /** A text plan with its `places|<cell>` entries trimmed. */
  trimPlan(plan: TextPlan): TextPlan {
    const out: TextPlan = {};
    for (const [k, v] of Object.entries(plan)) out[k] = k.startsWith("places|") && Array.isArray(v) ? this.trim(k.slice("places|".length), v as Place[]) : v;
    return out;
  }
}
