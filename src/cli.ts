#!/usr/bin/env node
/**
 * georeplay's command line. What a command will surely need starts first
 * (early-start.ts: a native render's painter thread), then the program
 * loads and runs (commands/program.ts): its ~0.1 s of loading overlaps the
 * painter's own instead of coming before it. A long-running server runs
 * in a child with glibc's malloc arenas capped (arena-cap.ts), and so does a page build.
 */
import { runWithArenaCap, wantsArenaCap } from "./commands/arena-cap.ts";
import { startEarly } from "./commands/early-start.ts";

if (wantsArenaCap(process.argv.slice(2), process.env, process.platform)) runWithArenaCap();
else {
  startEarly(process.argv.slice(2));
  const { runCli } = await import("./commands/program.ts");
  await runCli();
}
