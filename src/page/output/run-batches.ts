/**
 * A run page's episodes in the folder form: the page keeps one small list
 * row per episode (where its detail is: batch and position), and the details
 * go in batches of RUN_BATCH episodes to data/episodes-<k>.js, each with its
 * compact search text in data/text-<k>.js; the reader loads a batch when
 * one of its episodes is opened, and every text file on the first search.
 * Only one batch is held in memory while building.
 */
import type { PageEpisode } from "../model.ts";
import { detailText } from "../search-text.ts";
import type { ListRow } from "../list-row.ts";
import { scriptJson } from "../escape.ts";
import { dataScript, type PageFolder } from "./folder.ts";

/** Episodes per data file: a few hundred KB of text each on a typical run. */
export const RUN_BATCH = 50;

/** A run page's list row in the folder form: the row, and where its detail is. */
export type RunRow = ListRow & {
  batch: number;
  at: number;
  /** An episode `serve` added live that may play: its player data file's number (data/player-<video>.js, made on the first play). */
  video?: number;
};

export class RunBatches {
  private details: string[] = [];
  private texts: string[] = [];
  private batch = 0;

  constructor(private readonly folder: PageFolder) {}

  /** Adds an episode and its list row (the client's rowOfEpisode); returns the row as the page lists it (JSON). */
  add(page: PageEpisode, listRow: ListRow): string {
    const row: RunRow = { ...listRow, batch: this.batch, at: this.details.length };
    this.details.push(scriptJson(page));
    this.texts.push(JSON.stringify(detailText(page)));
    if (this.details.length === RUN_BATCH) this.flush();
    return scriptJson(row);
  }

  /** Writes the last, partial batch. */
  flush(): void {
    if (!this.details.length) return;
    this.folder.write(`data/episodes-${this.batch}.js`, dataScript("episodes", this.batch, `[${this.details.join(",")}]`));
    this.folder.write(`data/text-${this.batch}.js`, dataScript("text", this.batch, `[${this.texts.join(",")}]`));
    this.details = [];
    this.texts = [];
    this.batch++;
  }
}
