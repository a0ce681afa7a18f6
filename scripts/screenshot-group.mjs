// Regenerates docs/page-group.png, the README's picture of the training page's group view: a page
// built from two rank files of the training fixture (as test/page-training.test.ts builds it),
// opened at step 1's group eval/1 in Debian's Chromium, its three siblings' videos on one clock.
// Run after `npm run build`: node scripts/screenshot-group.mjs [out.png]
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { buildPage } from "../dist/src/index.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const fixtures = join(root, "test", "fixtures");
const out = process.argv[2] ?? join(root, "docs", "page-group.png");
const dir = mkdtempSync(join(tmpdir(), "georeplay-shot-"));
try {
  const ranks = [join(dir, "train", "rollouts-rank0.jsonl"), join(dir, "train", "rollouts-rank1.jsonl")];
  mkdirSync(join(dir, "train"));
  const lines = readFileSync(join(fixtures, "train-rollouts.jsonl"), "utf8").split("\n").filter(Boolean);
  writeFileSync(ranks[0], lines.join("\n") + "\n");
  const changed = JSON.parse(lines[4]);
  changed.outcome.reward = 0.1;
  writeFileSync(ranks[1], [lines[0], JSON.stringify(changed), lines[8]].join("\n") + "\n");
  const page = join(dir, "train.html");
  await buildPage({
    episodes: ranks,
    tasks: join(fixtures, "mixed", "tasks.jsonl"),
    panos: join(fixtures, "mixed", "panos"),
    out: page,
    title: "synthetic-grpo-run · georeplay",
  });
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--no-first-run", "--disable-background-networking"],
  });
  try {
    const tab = await browser.newPage({ viewport: { width: 1440, height: 1100 } });
    await tab.goto(`file://${page}#group/1/eval/1`);
    await tab.waitForSelector("#gr-train-view .grp-heads .grp-col");
    await tab.click("#gr-train-view .tiles-slot button.start");
    await tab.waitForSelector("#gr-train-view .tiles-player[data-ready]", { timeout: 120_000 });
    // The press plays: paused for a still.
    await tab.click("#gr-train-view .tiles-player button.play");
    // 4 s in: every sibling mid-episode.
    await tab.$eval("#gr-train-view .tiles-player .scrub input", (r) => {
      r.value = "120";
      r.dispatchEvent(new Event("input"));
    });
    await tab.$eval("#gr-train-view", (v) => v.scrollIntoView({ block: "start" }));
    await tab.mouse.move(0, 0);
    await tab.screenshot({ path: out });
    process.stderr.write(`wrote ${out}\n`);
  } finally {
    await browser.close();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
