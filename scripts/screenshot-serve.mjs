// Regenerates docs/page-serve.png, the README's picture of `georeplay serve`: a training run served
// while it is written (the training fixture's first six rollouts, then the rest appended), in Debian's
// Chromium, once the appended rollouts are in: the live mark, the counts and the GRPO charts have moved.
// Run after `npm run build`: node scripts/screenshot-serve.mjs [out.png]
import { spawn } from "node:child_process";
import { appendFileSync, mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const fixtures = join(root, "test", "fixtures");
const out = process.argv[2] ?? join(root, "docs", "page-serve.png");
const dir = mkdtempSync(join(tmpdir(), "georeplay-shot-"));
const run = join(dir, "train", "rollouts-rank0.jsonl");
mkdirSync(join(dir, "train"));
const lines = readFileSync(join(fixtures, "train-rollouts.jsonl"), "utf8").split("\n").filter(Boolean);
writeFileSync(run, lines.slice(0, 6).join("\n") + "\n");
const args = ["serve", run, "--tasks", join(fixtures, "mixed", "tasks.jsonl"), "--panos", join(fixtures, "mixed", "panos"), "--port", "0", "--no-progress"];
const server = spawn(process.execPath, [join(root, "dist", "src", "cli.js"), ...args], { stdio: ["ignore", "ignore", "pipe"] });
let err = "";
server.stderr.on("data", (d) => (err += d));
try {
  const url = await new Promise((resolve, reject) => {
    const t = setInterval(() => {
      const m = /georeplay serve: (http:\/\/\S+)/.exec(err);
      if (m) resolve(m[1]);
    }, 100);
    server.on("exit", (code) => (clearInterval(t), reject(new Error(`serve exited ${code}:\n${err}`))));
  });
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--no-first-run", "--disable-background-networking"],
  });
  try {
    const tab = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
    await tab.goto(url);
    await tab.waitForFunction(() => document.getElementById("gr-live")?.dataset.state?.startsWith("live"));
    appendFileSync(run, lines.slice(6).join("\n") + "\n");
    await tab.waitForFunction((n) => document.getElementById("gr-live")?.dataset.added === String(n), lines.length - 6, { timeout: 30_000 });
    await tab.waitForTimeout(500);
    // The top of the page: its header, the live mark and the GRPO charts.
    await tab.evaluate(() => window.scrollTo(0, 0));
    await tab.waitForTimeout(200);
    await tab.screenshot({ path: out });
    console.log(`wrote ${out}`);
  } finally {
    await browser.close();
  }
} finally {
  server.kill("SIGINT");
  await new Promise((r) => server.on("exit", r));
  rmSync(dir, { recursive: true, force: true });
}
