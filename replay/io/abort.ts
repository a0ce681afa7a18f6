/**
 * Cancellation for long engine calls: the caller passes an AbortSignal; the
 * engine registers synchronous cleanups (remove temp files, stop workers) on
 * it and rejects with the signal's reason. No process signal handlers here:
 * turning SIGINT/SIGTERM into an abort is the CLI's business.
 */
export { abortError, throwIfAborted } from "./errors.ts";

/** Runs `fn` once if the signal aborts (at once if it already has); returns the unregister function. */
export function onAbort(signal: AbortSignal | undefined, fn: () => void | Promise<void>): () => void {
  if (!signal) return () => {};
  const run = () => {
    try {
      void Promise.resolve(fn()).catch(() => undefined);
    } catch {
      /* best effort: the caller is stopping */
    }
  };
  if (signal.aborted) {
    run();
    return () => {};
  }
  signal.addEventListener("abort", run, { once: true });
  return () => signal.removeEventListener("abort", run);
}
