/**
 * What `georeplay serve` sends a live GeoGuesser page over its event stream (/events),
 * typed once for the server (../serve) and the browser client
 * (client/app/run.ts, over the core's stream: src/page/client/app/live.ts). Each event's data is
 * one line of JSON. A board's event (`board`) is typed beside the board page's data:
 * board/live-event.ts; the writer's, every environment's, in the core (src/page/live-stream.ts).
 */
import type { RunRow } from "./output/run-batches.ts";
import type { TrainingUpdate } from "./training.ts";

/** `event: episodes`: new episodes, as the folder form's list rows (details in data/episodes-<batch>.js). */
export interface EpisodesEvent {
  rows: RunRow[];
  /** New entries of the page's image table (view file paths), from index `imagesFrom` on. */
  imagesFrom: number;
  images: string[];
  /**
   * data/cells-<n>.js: the atlas cells the new episodes' maps read that the page did not have (its
   * maps keep only their frames; land and borders are cut from the cells in the page). Absent: none.
   */
  cells?: number;
  /** Problems found in the new lines (a line that is not JSON, an unreadable record), each said once. */
  problems: string[];
  /**
   * The header's line of facts and the per-model summary table over every episode now (the page
   * writer's own HTML); "" when left for a later event: while a backlog drains they are sent at most
   * once a second (their medians cost more as the run grows), and always after its last batch.
   */
  facts: string;
  summary: string;
  /** When the server read them (ISO 8601). */
  at: string;
}

/**
 * `event: training`: after new training rollouts, the steps they touched, each whole (its numbers and
 * every group of it, recomputed from every rollout: an advantage can depend on the whole step), and
 * the run's summary. The page replaces its steps and groups of those steps; it never gets the whole table.
 */
export interface TrainingEvent extends TrainingUpdate {
  /** Rollouts without an outcome.reward since the last event (listed, in no group). */
  unscored: string[];
}
