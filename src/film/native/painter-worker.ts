/**
 * The painter's worker thread (paint-worker.ts), started as early as a
 * command knows it will paint: the CLI starts it before it loads the rest of
 * the program (src/cli.ts), so its ~0.25 s of loading (Skia, the fonts, the
 * scenes' modules) runs beside the main thread's loading and verification
 * rather than after them. An early worker is unref'd until claimed: a command
 * that never paints (bad arguments, --help, another engine) exits as it would
 * have, and it costs that command only the loading.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";

let early: { worker: Worker; died: boolean } | null = null;

/** The built worker's file; null when running from sources (the caller then paints on its own thread). */
function workerFile(): string | null {
  const file = fileURLToPath(new URL("./paint-worker.js", import.meta.url));
  return import.meta.url.endsWith(".js") && existsSync(file) ? file : null;
}

function startWorker(file: string): Worker {
  // A large young generation: every frame is a multi-megabyte buffer, and small semi-spaces made
  // the painter spend a third of its time collecting them.
  return new Worker(file, { resourceLimits: { maxYoungGenerationSizeMb: 64 } });
}

/** Starts the painter's worker now, for claimPainterWorker to take later (idempotent). */
export function startPainterWorkerEarly(): void {
  const file = workerFile();
  if (early || !file) return;
  const worker = startWorker(file);
  const e = { worker, died: false };
  // Heard until claimed: a worker that failed to load is replaced by a fresh one (which reports why).
  const died = () => void (e.died = true);
  worker.on("error", died).on("exit", died);
  worker.unref();
  early = e;
}

/** The painter's worker: the early one while it lives, else a new one; null when running from sources. */
export function claimPainterWorker(): Worker | null {
  const e = early;
  early = null;
  if (e && !e.died) {
    e.worker.removeAllListeners("error").removeAllListeners("exit");
    e.worker.ref();
    return e.worker;
  }
  const file = workerFile();
  return file ? startWorker(file) : null;
}
