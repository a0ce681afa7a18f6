/**
 * SIGINT/SIGTERM handling shared by every command: run registered cleanups
 * (remove temp files, stop workers), say so plainly, exit 130/143. Previous
 * outputs are never touched because every output is written to a temp file
 * and renamed only when complete.
 */
type Cleanup = () => void | Promise<void>;
const cleanups = new Set<Cleanup>();
let installed = false;
let stopping = false;

/**
 * Registers a cleanup for SIGINT/SIGTERM; returns its unregister function. The
 * signal handlers exist only while some cleanup is registered, so a library
 * user (or a test runner) embedding georeplay keeps its own signal behaviour.
 */
export function onInterrupt(fn: Cleanup): () => void {
  install();
  cleanups.add(fn);
  return () => {
    cleanups.delete(fn);
    if (cleanups.size === 0 && !stopping) uninstall();
  };
}

function uninstall(): void {
  if (!installed) return;
  installed = false;
  process.off("SIGINT", handler);
  process.off("SIGTERM", handler);
}

function install(): void {
  if (installed) return;
  installed = true;
  process.on("SIGINT", handler);
  process.on("SIGTERM", handler);
}

function handler(signal: NodeJS.Signals): void {
  if (stopping) return;
  stopping = true;
  process.stderr.write(`\ngeoreplay: interrupted by ${signal}; cleaning up, no output was written\n`);
  const all = [...cleanups].map(async (fn) => {
    try {
      await fn();
    } catch {
      /* best effort: we are exiting */
    }
  });
  // Never hang on a cleanup: exit within a second whatever happens.
  const timer = setTimeout(() => process.exit(signal === "SIGINT" ? 130 : 143), 1000);
  void Promise.all(all).then(() => {
    clearTimeout(timer);
    process.exit(signal === "SIGINT" ? 130 : 143);
  });
}
