/** A served crops page's board: the tables the live page puts under the heading it already has. */
import { describe, expect, it } from "vitest";
import { join } from "node:path";
import { FIXTURES } from "../helpers.ts";
import { cropsReport } from "../../envs/crops/replay/report.ts";
import { boardSection } from "../../envs/crops/src/page/template.ts";
import { boardBody } from "../../envs/crops/src/serve/live-page.ts";

const SAMPLE = join(FIXTURES, "crops", "sample");

describe("crops serve: the board's body", () => {
  it("is the board section's contents after its heading, every table of it", async () => {
    const report = await cropsReport([join(SAMPLE, "eval", "episodes.jsonl"), join(SAMPLE, "eval-corrupted", "episodes.jsonl")], {
      baseline: "scripted-vlm",
    });
    const section = boardSection(report);
    const body = boardBody(section);
    expect(section.startsWith('<section class="summary crops-board" id="gr-crops-board"><h3>')).toBe(true);
    expect(section).toBe(`${section.slice(0, section.indexOf("</h3>") + 5)}${body}</section>`);
    expect(body).not.toMatch(/<\/?section/);
    expect(body.trimStart().startsWith("<table")).toBe(true);
    for (const id of ["gr-arms", "gr-paired"]) expect(body).toContain(`id="${id}"`);
  });

  it("is empty for markup that is not a board section", () => {
    expect(boardBody("<p>no board</p>")).toBe("");
  });
});
