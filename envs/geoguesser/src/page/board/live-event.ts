/**
 * `event: board`, what `georeplay serve` sends a served board page (the
 * other events: ../live-events.ts), typed once for the server (src/serve)
 * and the browser client (client/app/board.ts, client/app/live.ts).
 */
import type { Report } from "../../../replay/board/report-schema.ts";
import type { BoardEpisodeRow } from "./data.ts";

/** A served board's report computed again: the report section (#gr-board) as the page writes it, and the per-task numbers the client's per-task table renders from. */
export interface BoardReportUpdate {
  /** The #gr-board section, built by the page's own (escaping) writer: sections.ts. */
  html: string;
  tasks: Report["tasks"];
  /** The arms in the report's rank order (a new shard may bring one). */
  arms: string[];
  /** Episodes the report counts now. */
  episodes: number;
}

/** A served board's new episodes (envs/geoguesser/src/serve/live-board-episodes.ts): list rows, details in data/chunk-<row.chunk>.js. */
export interface BoardEpisodesUpdate {
  rows: BoardEpisodeRow[];
  /** New entries of the exact-view table (view file paths), from index `imagesFrom` on. */
  imagesFrom: number;
  images: string[];
  /** New entries of the panorama table (view files of the panoramas live views without exact bytes reproject), from `panosFrom` on. */
  panosFrom: number;
  panos: string[];
  /** Problems found in the new lines, each said once. */
  problems: string[];
}

/**
 * `event: board`: a served board's new complete lines: their episodes (listed and opened as the
 * built ones) and the report computed again over every complete line of its sweep (`georeplay
 * report [--baseline]`'s numbers; null when it could not be read now: the page keeps the last).
 */
export interface BoardEvent extends BoardEpisodesUpdate {
  report: BoardReportUpdate | null;
  at: string;
}
