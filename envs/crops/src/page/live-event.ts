/**
 * What `georeplay serve` sends an open crops page for new records (`event: episodes`; the core's
 * stream, src/page/client/app/live.ts, applies its facts, summary and problems): the rows and
 * details the crops page is built from, and the paths of the images they show, each sent once.
 */
import type { CropsDetail, CropsRow } from "./model.ts";

export interface CropsLiveEvent {
  rows: CropsRow[];
  details: CropsDetail[];
  /** New re-rendered views and thumbnails by sha256, and dataset images by image_id: their files in the page folder. */
  images: Record<string, string>;
  pictures: Record<string, string>;
  /** Lines that could not be shown (each one line naming file, line and field), each said once. */
  problems: string[];
  /** The header's facts over every record so far; "" when unchanged. */
  facts: string;
  /** The board's tables (the numbers of `georeplay report` over every record so far); "" when left for a later event. */
  summary: string;
  /** Read before the server listened: the run as it was at start, not new records. */
  initial: boolean;
  /** When the server read them (ISO 8601). */
  at: string;
}
