/**
 * The one-file board page's default budget keeps a typical board's zooms exact (issue 51, item 4),
 * and `page --help` says the trade-off. The numbers are the held-out-size board's, measured on
 * bench/board/make.ts's 4 arms x 40 tasks x k=4 (2026-12-07; the board takes minutes to make, so
 * it is measured by hand, not in the suite): 22.7 MB of page before any view, 204 distinct zooms taking 17.6 MB
 * as base64 table entries, 1,047 distinct verified views in all.
 */
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers.ts";
import { DEFAULT_VIEWS_MB, viewBudget } from "../../envs/geoguesser/src/page/page-options.ts";

const HELD_OUT = { restBytes: 22_725_957, zoomBytes: 17_625_392 };

describe("the default one-file budget", () => {
  it("gives the views room for a held-out-size board's zooms whatever the rest of the page takes", () => {
    const b = viewBudget({});
    expect(b.viewBytes(HELD_OUT.restBytes)).toBeGreaterThanOrEqual(HELD_OUT.zoomBytes);
    expect(b.spoolBytes).toBeGreaterThanOrEqual(HELD_OUT.zoomBytes);
    expect(b.viewBytes(HELD_OUT.restBytes)).toBe(DEFAULT_VIEWS_MB * 1e6);
  });

  it("--max-mb keeps its meaning: the whole page, the views get what the rest leaves", () => {
    expect(viewBudget({ maxMb: 12 }).viewBytes(HELD_OUT.restBytes)).toBe(0);
    expect(viewBudget({ maxMb: 50 }).viewBytes(HELD_OUT.restBytes)).toBe(50e6 - HELD_OUT.restBytes);
    expect(viewBudget({ maxMb: 12, exactZoomsMb: 3 }).viewBytes(HELD_OUT.restBytes)).toBe(3e6);
  });

  it("page --help says the default and its trade-off", () => {
    const r = runCli(["page", "--help"]);
    expect(r.code).toBe(0);
    const help = r.stdout.replace(/\s+/g, " ");
    expect(help).toContain(`Unset: the exact views get ${DEFAULT_VIEWS_MB} MB whatever the rest takes, which keeps a held-out-size board's zooms exact`);
    expect(help).toContain("The trade-off: a larger file, against views the browser reprojects from a 1024x512 panorama");
  });
});
