/**
 * SIGINT/SIGTERM for the CLI, and only the CLI: a signal aborts the command's
 * AbortSignal (the engine's own cleanups run on it: temp files removed,
 * workers and Chromium stopped), then registered CLI cleanups run (progress
 * bar), the message is printed and the process exits 130/143. Previous
 * outputs are never touched because every output is written to a temp file
 * and renamed only when complete.
 */
type Cleanup = () => void | Promise<void>;
const cleanups = new Set<Cleanup>();
let controller = new AbortController();
let installed = false;
let stopping = false;
/** The running command: after an abort, its own cleanup (Chromium, Remotion's folders) is awaited. */
let main: Promise<unknown> | null = null;

/** The command whose settling an interrupt waits for (bounded), so its finally blocks run before exit. */
export function trackCommand(p: Promise<unknown>): void {
  main = p.catch(() => undefined);
}

/** The signal every command passes to the engine; aborted by SIGINT/SIGTERM. */
export function interruptSignal(): AbortSignal {
  return controller.signal;
}

/**
 * Registers a cleanup for SIGINT/SIGTERM; returns its unregister function. The
 * signal handlers exist only while some cleanup is registered.
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
  if (!controller.signal.aborted) return;
  controller = new AbortController();
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
  const code = signal === "SIGINT" ? 130 : 143;
  const reason = new Error(`interrupted by ${signal}`);
  reason.name = "AbortError";
  // Work cancelled by the abort may reject with nobody left to await it: expected while stopping.
  process.on("unhandledRejection", () => undefined);
  // Synchronous engine cleanups (temp files, workers) run inside abort().
  controller.abort(reason);
  process.stderr.write(`\ngeoreplay: interrupted by ${signal}; cleaning up, no output was written\n`);
  const all = [...cleanups].map(async (fn) => {
    try {
      await fn();
    } catch {
      /* best effort: we are exiting */
    }
  });
  // The aborted command unwinds (Remotion stops its encoder, removes its folders: up to ~2 s).
  if (main) all.push(main.then(() => undefined));
  // Never hang on a cleanup: exit within a few seconds whatever happens.
  const timer = setTimeout(() => process.exit(code), 4000);
  void Promise.all(all).then(() => {
    clearTimeout(timer);
    process.exit(code);
  });
}
