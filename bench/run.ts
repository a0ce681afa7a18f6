/** `npm run bench`: every benchmark, each side by side with its reference, in one run. */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { run, ROOT } from "./common.ts";

// The board page twice: the held-out board's size (640 episodes: its own goals), then the full board.
const benches: [string, ...string[]][] = [
  ["verify"],
  ["frames"],
  ["render"],
  ["crops-render"],
  ["batch"],
  ["batch", "--crops"],
  ["page"],
  ["player"],
  ["report"],
  ["board-page", "--held-out"],
  ["board-page"],
  ["board-folder"],
  ["board-player"],
  ["maps"],
  ["groups"],
  ["crops-verify"],
  ["crops-encode"],
  ["crops-page"],
  ["serve"],
];
let failed = 0;
for (const [name, ...args] of benches) {
  const file = join(ROOT, "dist", "bench", `${name}.js`);
  if (!existsSync(file)) continue;
  console.log(`\n=== ${[name, ...args].join(" ")}`);
  const r = run(process.execPath, [file, ...args]);
  process.stdout.write(r.stdout);
  if (r.code !== 0) {
    failed++;
    process.stdout.write(r.stderr);
  }
}
process.exitCode = failed ? 1 : 0;
