/**
 * What a board page carries for its client, typed once here and imported by
 * the client modules (type-only). The report's numbers are `georeplay
 * report`'s own object (replay/board), never recomputed here.
 */
import type { Report } from "../../../replay/board/report-schema.ts";
import type { ListRow } from "../list-row.ts";
import type { MapPaint, MapPrim, MapSpec } from "../../../../../src/page/geo.ts";
import type { PageEpisode } from "../model.ts";

/** One episode as the board's list, per-task table and compare view need it (its detail is in a chunk). */
export interface BoardEpisodeRow extends ListRow {
  /** Where its detail is: chunk (one per task) and position in it. */
  chunk: number;
  at: number;
}

export interface BoardData {
  /** --baseline's arm; null without one (nothing paired: the reader picks any two arms). */
  baseline: string | null;
  /** Arms in rank order (the report's). */
  arms: string[];
  tasks: Report["tasks"];
  /** Task index -> country (from its episodes). */
  countries: Record<string, string | null>;
  episodes: BoardEpisodeRow[];
  /** Size of the embedded panoramas the views are reprojected from. */
  pano: { width: number; height: number };
  /** The folder form: search reads the index's files (search-index.ts), not every search text. */
  searchIndex?: true;
}

export type { PanoRef } from "../model.ts";

/** A task's compare-row maps: one frame for every attempt, land and borders once per frame. */
export interface CompareMaps {
  paints: MapPaint[];
  /** Episode id -> its map in the task's frame. */
  maps: Record<string, { paint: number; size: number; prims: MapPrim[]; has: MapSpec["has"] }>;
}

/** One task's chunk: its episodes' details and its compare-row maps. */
export interface TaskChunk {
  episodes: PageEpisode[];
  /** The turns' maps, each distinct one once (a turn's `mapRef`). */
  maps?: MapSpec[];
  compare?: CompareMaps;
}
