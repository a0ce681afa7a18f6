/**
 * glibc gives threads that allocate their own malloc arenas (up to 8 per
 * core) and returns little of them to the system. `serve` allocates and
 * frees views in bursts on its worker threads for as long as a run goes on:
 * under a training step's appends (128 episodes/s) its resident memory grew
 * from 720 MB to over 1 GB in a minute, and stayed flat at ~550 MB with
 * MALLOC_ARENA_MAX=2. glibc reads the variable only when a process starts,
 * so serve (and page, whose verification allocates the same way) runs itself
 * again with it set; this process only passes signals on and exits as the
 * child did.
 */
import { spawn } from "node:child_process";
import { constants } from "node:os";

/**
 * The commands that run long enough for arenas to matter: serve, and page (a 12,800-episode board's
 * folder build verifies 20,000 views on two workers for minutes: 890 MB peak by the time 11,300 views
 * were verified, 631 MB capped at 14,500, bench/board-folder.ts).
 */
const LONG_RUNNING = new Set(["serve", "page"]);

/** True when this process should run the command in a child with the arenas capped (glibc only; once). */
export function wantsArenaCap(args: readonly string[], env: NodeJS.ProcessEnv, platform: NodeJS.Platform): boolean {
  if (platform !== "linux" || env.MALLOC_ARENA_MAX !== undefined) return false;
  const command = args.find((a) => !a.startsWith("-"));
  return command !== undefined && LONG_RUNNING.has(command) && !args.includes("--once");
}

/**
 * A page build's child also keeps its memory from piling up where it is done with it (bench/board-folder.ts,
 * the 800-episode board: 725-770 MB peak before, see docs/measurements.md):
 * - MALLOC_MMAP_THRESHOLD_: glibc raises its mmap threshold (up to 32 MB) each time a large block is freed,
 *   so the workers' decoded panoramas and gzip buffers came to be carved from the arenas, which keep what is
 *   freed; a fixed threshold gives every block over 128 KB its own mapping, returned when freed (-150 MB).
 * - --heap-growing-percent: V8 let the main heap grow to 4-5x what was live before collecting (the end's
 *   gzip and text coding make big short-lived strings: +170 MB of garbage); a smaller growth step collects sooner.
 */
const PAGE_ENV = { MALLOC_MMAP_THRESHOLD_: "131072" };
const PAGE_V8_FLAG = "--heap-growing-percent=25";

/** The child's node arguments and environment: `script` with `args` again, capped (a user's own settings win). */
export function cappedLaunch(
  script: string,
  args: readonly string[],
  execArgv: readonly string[],
  env: NodeJS.ProcessEnv,
): { argv: string[]; env: NodeJS.ProcessEnv } {
  const page = args.find((a) => !a.startsWith("-")) === "page";
  const flag = page && !execArgv.some((a) => a.startsWith("--heap-growing-percent")) ? [PAGE_V8_FLAG] : [];
  return {
    argv: [...flag, ...execArgv, script, ...args],
    env: { ...(page ? PAGE_ENV : {}), ...env, MALLOC_ARENA_MAX: "2" },
  };
}

/** Runs this command line again with MALLOC_ARENA_MAX=2 (and a page build's settings) and exits with its status; signals are passed on. */
export function runWithArenaCap(): void {
  const launch = cappedLaunch(process.argv[1], process.argv.slice(2), process.execArgv, process.env);
  const child = spawn(process.execPath, launch.argv, {
    stdio: "inherit",
    env: launch.env,
  });
  // A terminal's Ctrl-C reaches both processes; the server ignores a second SIGINT while it stops.
  for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(sig, () => child.kill(sig));
  child.on("error", (e) => {
    process.stderr.write(`georeplay: cannot start ${process.execPath}: ${e.message}\n`);
    process.exit(1);
  });
  child.on("exit", (code, signal) => process.exit(code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0)));
}
