/**
 * A crops page served by `georeplay serve` follows its run: the core's stream (src/page/client/app/live.ts:
 * the live mark, the header's facts, the board's tables, problems, catching up after a reload) hands
 * each batch of new records here; their rows, details and image paths join the page's data, and the
 * page renders again from its address (filters, sort, the open episode stay). A page opened from disk
 * never connects.
 */
import { isLive, startLive } from "../../../../../src/page/client/app/live.ts";
import { addOptions } from "../../../../../src/page/client/dom.ts";
import type { CropsDetail, CropsRow } from "../model.ts";
import type { CropsLiveEvent } from "../live-event.ts";
import type { Images } from "./detail.ts";

export interface CropsLiveData {
  rows: CropsRow[];
  byId: Map<string, CropsDetail>;
  imgs: Images;
}

export interface CropsLiveHooks {
  /** Render again from the address (new rows are in the data). */
  render(): void;
  /** Whether the page is still reading what the server sent before it opened. */
  waiting(w: boolean): void;
}

/** Follows the server's events on a served page; false (nothing done) on a page opened from disk. */
export function followCrops(doc: Document, data: CropsLiveData, hooks: CropsLiveHooks): boolean {
  if (!isLive(doc)) return false;
  hooks.waiting(true);
  // While the page catches up (what the server sent before it opened: every record, for a page opened late) it renders once, at the end.
  let catching = true;
  startLive<CropsLiveEvent>(doc, {
    episodes: (e) => {
      Object.assign(data.imgs.images, e.images);
      Object.assign(data.imgs.pictures, e.pictures);
      for (const d of e.details) data.byId.set(d.key, d);
      const have = new Set(data.rows.map((r) => r.key));
      const fresh = e.rows.filter((r) => !have.has(r.key));
      data.rows.push(...fresh);
      addOptions(doc.getElementById("f-model") as HTMLSelectElement, [...new Set(fresh.map((r) => r.arm))].sort());
      addOptions(doc.getElementById("f-status") as HTMLSelectElement, [...new Set(fresh.flatMap((r) => r.flags))].sort());
      if (fresh.length && !catching) hooks.render();
      // The live mark counts the records added since the server started, not those it started with.
      return e.initial ? 0 : fresh.length;
    },
    caughtUp: () => {
      catching = false;
      hooks.waiting(false);
      hooks.render();
    },
  });
  return true;
}
