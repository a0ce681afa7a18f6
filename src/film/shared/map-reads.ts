/**
 * What a video's maps read, found by walking its scenes: the atlas cells of
 * every framing and, per gazetteer cell, the views (and population floors)
 * that read it. A player elsewhere (the page's) needs exactly these besides
 * the props to paint the same maps: the run page per episode, a board page
 * once for all its episodes.
 */
import type { TextPlan } from "../../../video/text/layouter.ts";
import { atlasFor, cellsFor } from "../../../video/map/atlas.ts";
import { mapProjection } from "../../../video/map/projection.ts";
import type { MapFrame } from "../../../video/map/frame.ts";
import type { Scene } from "../../../video/scene/types.ts";
import { minPopulation, placeCellsFor, type Place } from "../../../video/map/places.ts";

interface PlaceRead {
  lat: [number, number];
  lon: [number, number];
  floor: number;
}

export class MapReads {
  private readonly framings = new Set<string>();
  private readonly atlasCells = new Set<string>();
  /** Per gazetteer cell, what the framings read of it: their views (shifted into the cell's longitudes) and floors. */
  private readonly reads = new Map<string, PlaceRead[]>();

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
      this.framings.add(key);
      const view = mapProjection(p.frame, p.w, p.h).view;
      for (const ref of cellsFor(atlasFor(p.frame), view)) this.atlasCells.add(ref.key);
      const floor = minPopulation(p.frame.halfWidthDeg);
      for (const c of placeCellsFor(view)) {
        const read = { lat: view.lat, lon: [view.lon[0] - c.shift, view.lon[1] - c.shift] as [number, number], floor };
        this.reads.set(c.key, [...(this.reads.get(c.key) ?? []), read]);
      }
      return;
    }
    for (const v of Object.values(node)) if (typeof v === "object") this.visit(v);
  }

  /** The atlas cells the framings read, sorted. */
  cells(): string[] {
    return [...this.atlasCells].sort();
  }

  /** The gazetteer cells the framings read, sorted. */
  placeCells(): string[] {
    return [...this.reads.keys()].sort();
  }

  /**
   * A gazetteer cell cut to the places some framing can name: those inside a view that reads
   * the cell, at or above that view's population floor. The cut keeps the cell's order (most
   * populous first), and a framing stops at its floor (placesIn), so every framing names exactly
   * what it named from the whole cell. A cell no framing was seen to read stays whole.
   */
  trim(cellKey: string, places: readonly Place[]): Place[] {
    const views = this.reads.get(cellKey);
    if (views === undefined) return [...places];
    return places.filter((p) => views.some((w) => p[3] >= w.floor && p[1] >= w.lat[0] && p[1] <= w.lat[1] && p[2] >= w.lon[0] && p[2] <= w.lon[1]));
  }

  /** A text plan with its `places|<cell>` entries trimmed. */
  trimPlan(plan: TextPlan): TextPlan {
    const out: TextPlan = {};
    for (const [k, v] of Object.entries(plan)) out[k] = k.startsWith("places|") && Array.isArray(v) ? this.trim(k.slice("places|".length), v as Place[]) : v;
    return out;
  }
}
