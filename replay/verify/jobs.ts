/** How many threads a run uses when it does not say (a module of its own: the CLI reads it at start-up, before any engine loads). */
import { availableParallelism } from "node:os";

/**
 * Threads computing index maps when a run does not say: one core fewer than
 * the machine has. JPEG encodes and panorama decodes run on libuv's threads
 * beside them, so on 2 cores the calling thread alone (no worker to start:
 * ~0.17 CPU-s each) is the fastest; on more, the calling thread's share is
 * that core.
 */
export function defaultJobs(): number {
  return Math.max(1, availableParallelism() - 1);
}
