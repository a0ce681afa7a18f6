/** How many threads a run uses when it does not say (a module of its own: the CLI reads it at start-up, before any engine loads). */
import { availableParallelism } from "node:os";

/** Records below which a run is small: the calling thread reads them in well under a second. */
export const SMALL_RUN_BYTES = 64 * 1024 * 1024;

/**
 * Threads computing index maps when a run does not say. JPEG encodes and
 * panorama decodes run on libuv's threads beside them, and a worker costs
 * ~0.17 CPU-s to start: a small run (one episode's video, a held-out run of
 * 30 episodes) is fastest with one core fewer than the machine has (on 2
 * cores, the calling thread alone). A big run's calling thread is busy
 * reading records (a 12,800-episode board is 1.2 GB of JSON), so it takes a
 * worker per core: measured on 2 cores, the board verified in 206 s with 2
 * workers and 309 s on the calling thread.
 */
export function defaultJobs(inputBytes = 0): number {
  const cores = availableParallelism();
  return inputBytes < SMALL_RUN_BYTES ? Math.max(1, cores - 1) : cores;
}
