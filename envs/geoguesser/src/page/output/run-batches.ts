/**
 * A run page's episodes in the folder form: one small list row per episode
 * (where its detail is: batch and position), written ROWS_PER_FILE at a time
 * to data/rows-<k>.js, which the page loads once its first screen is drawn
 * (128,000 rows are ~64 MB: in index.html they alone would keep the charts
 * from showing for seconds). The details go in batches of RUN_BATCH episodes
 * to data/episodes-<k>.js, each with its compact search text in
 * data/text-<k>.js; the reader loads a batch when one of its episodes is
 * opened, and every text file on the first search. Only one batch of
 * details and one file of rows are held in memory while building.
 */
import type { PageEpisode } from "../model.ts";
import type { PageGroup } from "../training.ts";
import { GROUPS_KIND, GROUPS_PER_FILE } from "../training-parts.ts";
import { detailText } from "../search-text.ts";
import { ROWS_KIND, type ListRow } from "../list-row.ts";
import { scriptJson } from "../../../../../src/page/escape.ts";
import { DATA_CALLBACK, dataScript, type PageFolder } from "../../../../../src/page/output/folder.ts";

/** Episodes per data file: a few hundred KB of text each on a typical run. */
export const RUN_BATCH = 50;

/** List rows per data/rows-<k>.js: ~1 MB of JSON each, loaded in parallel. */
export const ROWS_PER_FILE = 2000;

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
  private rows: string[] = [];
  private batch = 0;
  /** data/rows-<k>.js files written. */
  rowFiles = 0;

  constructor(private readonly folder: PageFolder) {}

  /** Adds an episode and its list row (the client's rowOfEpisode). */
  add(page: PageEpisode, listRow: ListRow): void {
    const row: RunRow = { ...listRow, batch: this.batch, at: this.details.length };
    this.details.push(scriptJson(page));
    this.texts.push(JSON.stringify(detailText(page)));
    this.rows.push(scriptJson(row));
    if (this.details.length === RUN_BATCH) this.flushDetails();
    if (this.rows.length === ROWS_PER_FILE) this.flushRows();
  }

  /** Writes the last, partial batch and rows file. */
  flush(): void {
    this.flushDetails();
    this.flushRows();
  }

  private flushDetails(): void {
    if (!this.details.length) return;
    this.folder.write(`data/episodes-${this.batch}.js`, dataScript("episodes", this.batch, `[${this.details.join(",")}]`));
    this.folder.write(`data/text-${this.batch}.js`, dataScript("text", this.batch, `[${this.texts.join(",")}]`));
    this.details = [];
    this.texts = [];
    this.batch++;
  }

  private flushRows(): void {
    if (!this.rows.length) return;
    this.folder.write(`data/${ROWS_KIND}-${this.rowFiles}.js`, dataScript(ROWS_KIND, this.rowFiles, `[${this.rows.join(",")}]`));
    this.rows = [];
    this.rowFiles++;
  }
}

/** The rows of a folder page's data/rows-<k>.js text (Node side: `serve` continues a built page; pure). */
export function rowsOfDataScript(text: string): RunRow[] {
  const open = text.indexOf(",", text.indexOf(",") + 1);
  const end = text.lastIndexOf(");");
  if (!text.startsWith(`${DATA_CALLBACK}(`) || open < 0 || end < open) throw new Error("not a georeplay data script");
  return JSON.parse(text.slice(open + 1, end)) as RunRow[];
}

/** A training page's groups as data/groups-<k>.js files, GROUPS_PER_FILE each, in the table's order; returns how many. */
export function writeGroupFiles(folder: PageFolder, groups: readonly PageGroup[]): number {
  let k = 0;
  for (let i = 0; i < groups.length; i += GROUPS_PER_FILE, k++)
    folder.write(`data/${GROUPS_KIND}-${k}.js`, dataScript(GROUPS_KIND, k, scriptJson(groups.slice(i, i + GROUPS_PER_FILE))));
  return k;
}
