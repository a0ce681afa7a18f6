/**
 * The maps of a board's compare rows: every attempt at a task drawn in one
 * frame that fits the truth and every arm's guess, so the two maps of any
 * pair share a scale and a centre (an episode's own detail keeps its own,
 * closer frame). The frame needs every guess of the task, so the maps are
 * drawn after the episodes have streamed, from the few coordinates kept per
 * episode; each map is its frame, colours and pins (the page's one table of
 * atlas cells holds the land and borders: map-cells.ts).
 */
import type { Episode } from "../../../replay/schema/episode.ts";
import { mapSpec, sharedFrame, type LatLon, type MapPaint } from "../../../../../src/page/geo.ts";
import type { PageMapCells } from "./map-cells.ts";
import { outcomeMarks } from "../model.ts";
import type { CompareMaps } from "./data.ts";

interface Marks {
  id: string;
  pins: LatLon[];
  guess: LatLon | null;
}

export class CompareMapTable {
  /** Task index -> its truth and each episode's marks (a few numbers per episode). */
  private tasks = new Map<number, { truth: LatLon | null; episodes: Marks[] }>();

  constructor(private readonly cells: PageMapCells) {}

  add(task: number, ep: Episode): void {
    const { pins, guess, truth } = outcomeMarks(ep);
    let t = this.tasks.get(task);
    if (!t) this.tasks.set(task, (t = { truth: null, episodes: [] }));
    t.truth ??= truth;
    t.episodes.push({ id: ep.episode_id, pins, guess });
  }

  /** The task's compare maps, or null when there is nothing to draw (no truth). */
  maps(task: number): CompareMaps | null {
    const t = this.tasks.get(task);
    if (!t || t.truth === null) return null;
    const frame = sharedFrame(
      t.truth,
      t.episodes.map((e) => e.guess),
    );
    const out: CompareMaps = { paints: [], maps: {} };
    const paintAt = new Map<string, number>();
    for (const e of t.episodes) {
      const spec = this.cells.share(mapSpec(frame, e.pins, e.guess, t.truth));
      const paint: MapPaint = { sea: spec.sea, land: spec.land, border: spec.border, lw: spec.lw, frame: spec.frame };
      const key = JSON.stringify(paint);
      let at = paintAt.get(key);
      if (at === undefined) paintAt.set(key, (at = out.paints.push(paint) - 1));
      out.maps[e.id] = { paint: at, size: spec.size, prims: spec.prims, has: spec.has };
    }
    return out;
  }
}
