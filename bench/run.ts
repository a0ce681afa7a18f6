/** `npm run bench`: every benchmark, each side by side with its reference, in one run. */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { run, ROOT } from "./common.ts";

const benches = ["verify", "frames", "render", "batch", "page", "player", "report", "board-page", "board-folder", "board-player", "maps"];
let failed = 0;
for (const name of benches) {
  const file = join(ROOT, "dist", "bench", `${name}.js`);
  if (!existsSync(file)) continue;
  console.log(`\n=== ${name}`);
  const r = run(process.execPath, [file]);
  process.stdout.write(r.stdout);
  if (r.code !== 0) {
    failed++;
    process.stdout.write(r.stderr);
  }
}
process.exitCode = failed ? 1 : 0;
