/**
 * The README's pictures of a page's two forms: the same 12-degree zoom (the
 * sweep fixture's episode 3caa38281060, turn 3) in the folder form opened from
 * file://, where it is the exact verified JPEG, and in the one-file form built
 * with a budget too small for it, where it is drawn from the panorama and
 * labelled "browser reprojection". Run after `npm run build`:
 *
 *   node scripts/page-screenshots.mjs [OUT_DIR]   (default: docs/)
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { chromium } from "playwright-core";

const ROOT = resolve(import.meta.dirname, "..");
const OUT = resolve(process.argv[2] ?? join(ROOT, "docs"));
const FIX = join(ROOT, "test", "fixtures");
const EPISODE = "3caa38281060";
const TURN = 3;

const tmp = mkdtempSync(join(tmpdir(), "georeplay-shots-"));
try {
  // Exit 1 is a written page with drift flagged (the sweep fixture has six mismatched views, none in this episode).
  const page = (out, ...extra) => {
    const r = spawnSync(
      process.execPath,
      [
        join(ROOT, "dist", "src", "cli.js"),
        "page",
        join(FIX, "sweep"),
        "--tasks",
        join(FIX, "mixed", "tasks.jsonl"),
        "--panos",
        join(FIX, "mixed", "panos"),
        "--no-progress",
        ...extra,
        "-o",
        out,
      ],
      { stdio: ["ignore", "ignore", "inherit"] },
    );
    if (r.status !== 0 && r.status !== 1) throw new Error(`georeplay page -o ${out} failed (exit ${r.status})`);
  };
  page(join(tmp, "board") + "/");
  // 1 MB holds the page but not its views: every view is reprojected in the browser.
  page(join(tmp, "board.html"), "--max-mb", "1");

  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--headless", "--no-sandbox", "--disable-gpu"] });
  try {
    const shoot = async (url, file) => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, deviceScaleFactor: 1 });
      const p = await context.newPage();
      await p.goto(`${url}#${EPISODE}/${TURN}`);
      const turn = p.locator(`article.turn[data-turn="${TURN}"]`);
      await turn.waitFor();
      await turn.scrollIntoViewIfNeeded();
      // The view is drawn when it scrolls into view: wait for its pixels (an <img> decoded or a canvas painted).
      await p.waitForFunction(
        (n) => {
          const card = document.querySelector(`article.turn[data-turn="${n}"]`);
          const img = card?.querySelector("img");
          if (img) return img.complete && img.naturalWidth > 0;
          return !!card?.querySelector("canvas");
        },
        TURN,
        { timeout: 30_000 },
      );
      await p.waitForTimeout(300);
      await turn.screenshot({ path: file });
      await context.close();
    };
    await shoot(`file://${join(tmp, "board", "index.html")}`, join(OUT, "page-folder.png"));
    await shoot(`file://${join(tmp, "board.html")}`, join(OUT, "page-one-file.png"));
  } finally {
    await browser.close();
  }
  console.log(`wrote ${join(OUT, "page-folder.png")} and ${join(OUT, "page-one-file.png")}`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
