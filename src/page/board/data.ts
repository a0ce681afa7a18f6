/**
 * What a board page carries for its client, typed once here and imported by
 * the client modules (type-only). The report's numbers are `georeplay
 * report`'s own object (replay/board), never recomputed here.
 */
import type { Report } from "../../../replay/board/report-schema.ts";
import type { ListRow } from "../list-row.ts";

/** One episode as the board's list, per-task table and compare view need it (its detail is in a chunk). */
export interface BoardEpisodeRow extends ListRow {
  /** Where its detail is: chunk (one per task) and position in it. */
  chunk: number;
  at: number;
}

export interface BoardData {
  baseline: string;
  /** Arms in rank order (the report's). */
  arms: string[];
  tasks: Report["tasks"];
  /** Task index -> country (from its episodes). */
  countries: Record<string, string | null>;
  episodes: BoardEpisodeRow[];
  /** Replies and reasoning longer than this are cut in the page (the full text is in the source file:line). */
  textCap: number;
  /** Size of the embedded panoramas the views are reprojected from. */
  pano: { width: number; height: number };
}

export type { PanoRef } from "../model.ts";
