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

/** Runs this command line again with MALLOC_ARENA_MAX=2 and exits with its status; signals are passed on. */
export function runWithArenaCap(): void {
  const child = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    stdio: "inherit",
    env: { ...process.env, MALLOC_ARENA_MAX: "2" },
  });
  // A terminal's Ctrl-C reaches both processes; the server ignores a second SIGINT while it stops.
  for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(sig, () => child.kill(sig));
  child.on("error", (e) => {
    process.stderr.write(`georeplay: cannot start ${process.execPath}: ${e.message}\n`);
    process.exit(1);
  });
  child.on("exit", (code, signal) => process.exit(code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0)));
}
