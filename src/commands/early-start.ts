/**
 * Work a command line will need, started before the program loads: V8's
 * tier-up budget for a short-lived process (every command), and a native
 * render's painter thread (painter-worker.ts), whose loading then runs beside
 * the main thread's. The painter is a guess from the raw arguments, before any parsing:
 * a wrong guess costs a command one unused, unref'd thread's loading, never
 * a change in what it does; the parsed options still decide everything.
 */
import { setFlagsFromString } from "node:v8";
import { startPainterWorkerEarly } from "../film/native/painter-worker.ts";

/** Whether these arguments ask for a render with the native engine (the default). */
export function paintsNatively(args: readonly string[]): boolean {
  if (args[0] !== "render" || args.some((a) => a === "--help" || a === "-h")) return false;
  const at = args.findIndex((a) => a === "--engine" || a.startsWith("--engine="));
  const engine = at < 0 ? "native" : args[at].includes("=") ? args[at].slice("--engine=".length) : args[at + 1];
  return engine === "native";
}

/**
 * V8's tier-up budget, 8x its default (67,584 bytecode-budget units): a function is optimized
 * only after it has run eight times as long. A command lives seconds, and with the default V8
 * optimized some 140 functions a render, ~40 of them again after a deoptimization, on helper
 * threads that took ~1 CPU-s from x264 beside them; the loops that matter still reach
 * optimized code within their first view. Measured whole processes, interleaved (farm-bench
 * --vs, 14 pairs): a render's CPU 0.95x, a verify's 0.97x. Set before any worker starts: a
 * V8 flag is the process's, every thread's isolate reads it.
 */
const INTERRUPT_BUDGET = 8 * 67_584;

export function startEarly(args: readonly string[]): void {
  setFlagsFromString(`--interrupt-budget=${INTERRUPT_BUDGET}`);
  if (paintsNatively(args)) startPainterWorkerEarly();
}
