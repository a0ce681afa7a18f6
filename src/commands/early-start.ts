/**
 * Work a command line will need, started before the program loads: a native
 * render's painter thread (painter-worker.ts), whose loading then runs beside
 * the main thread's. A guess from the raw arguments, before any parsing:
 * a wrong guess costs a command one unused, unref'd thread's loading, never
 * a change in what it does; the parsed options still decide everything.
 */
import { startPainterWorkerEarly } from "../film/native/painter-worker.ts";

/** Whether these arguments ask for a render with the native engine (the default). */
export function paintsNatively(args: readonly string[]): boolean {
  if (args[0] !== "render" || args.some((a) => a === "--help" || a === "-h")) return false;
  const at = args.findIndex((a) => a === "--engine" || a.startsWith("--engine="));
  const engine = at < 0 ? "native" : args[at].includes("=") ? args[at].slice("--engine=".length) : args[at + 1];
  return engine === "native";
}

export function startEarly(args: readonly string[]): void {
  if (paintsNatively(args)) startPainterWorkerEarly();
}
